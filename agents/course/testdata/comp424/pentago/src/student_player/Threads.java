package student_player;

import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import boardgame.Move;
import pentago_twist.PentagoBoardState;
import pentago_twist.PentagoMove;
import student_player.tools.Picker;

/**
 * The shape of many submissions: a new thread pool for every move, workers
 * searching until a Future.get timeout, the pool shut down (or not) after;
 * a book read relative to the repository root on the first move; debug
 * lines on stdout.
 */
public class Threads extends pentago_twist.PentagoPlayer {
    static List<String> book;

    public Threads() {
        super("Threads");
    }

    @Override
    public Move chooseMove(PentagoBoardState s) {
        if (book == null) {
            try {
                book = Files.readAllLines(Paths.get("data", "weights.txt"));
            } catch (Exception e) {
                return new PentagoMove(0, 0, 9, 0, player_id); // visibly illegal
            }
            System.out.println("book: " + book.size() + " lines");
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<Move>> work = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            final PentagoBoardState mine = s; // read only in the workers
            work.add(pool.submit((Callable<Move>) () -> {
                long end = System.nanoTime() + 50_000_000L;
                long spins = 0;
                while (System.nanoTime() < end && !Thread.currentThread().isInterrupted()) {
                    spins++;
                }
                return Picker.pick(mine);
            }));
        }
        Move best = null;
        int timeouts = 0;
        for (Future<Move> f : work) {
            try {
                Move m = f.get(300, TimeUnit.MILLISECONDS);
                if (best == null) {
                    best = m;
                }
            } catch (TimeoutException e) {
                timeouts++;
                f.cancel(true);
            } catch (Exception e) {
                f.cancel(true);
            }
        }
        pool.shutdownNow();
        System.out.println("workers done, " + timeouts + " timed out");
        return best != null ? best : Picker.pick(s);
    }
}
