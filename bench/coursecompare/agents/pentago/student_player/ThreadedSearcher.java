package student_player;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import boardgame.Move;
import pentago_twist.PentagoBoardState;
import pentago_twist.PentagoMove;
import pentago_twist.PentagoPlayer;

/**
 * The shape of multithreaded submissions: a new pool of WORKERS threads for
 * every move, each scoring a share of the moves with playouts, collected
 * with Future.get against a 1,950 ms deadline of the 2,000 ms limit, then
 * the pool shut down.
 */
public class ThreadedSearcher extends PentagoPlayer {
    static final int WORKERS = 4;
    static final long BUDGET_NS = 1_950_000_000L;

    public ThreadedSearcher() {
        super("ThreadedSearcher");
    }

    @Override
    public Move chooseMove(PentagoBoardState s) {
        long start = System.nanoTime();
        long deadline = start + BUDGET_NS - 50_000_000L; // workers stop first
        ArrayList<PentagoMove> moves = s.getAllLegalMoves();
        int me = s.getTurnPlayer();
        ExecutorService pool = Executors.newFixedThreadPool(WORKERS);
        List<Future<double[]>> work = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
            final int first = w;
            final PentagoBoardState mine = (PentagoBoardState) s.clone();
            work.add(pool.submit(() -> {
                Random rng = new Random(first);
                double[] sum = new double[moves.size()];
                while (System.nanoTime() < deadline && !Thread.currentThread().isInterrupted()) {
                    for (int i = first; i < moves.size() && System.nanoTime() < deadline; i += WORKERS) {
                        sum[i] += Playouts.score(mine, moves.get(i), me, deadline, 1, rng);
                    }
                }
                return sum;
            }));
        }
        double[] total = new double[moves.size()];
        for (Future<double[]> f : work) {
            long left = start + BUDGET_NS - System.nanoTime();
            try {
                double[] part = f.get(Math.max(left, 1), TimeUnit.NANOSECONDS);
                for (int i = 0; i < total.length; i++) {
                    total[i] += part[i];
                }
            } catch (TimeoutException e) {
                f.cancel(true);
            } catch (Exception e) {
                System.err.println("worker failed: " + e);
            }
        }
        pool.shutdownNow();
        PentagoMove best = moves.get(0);
        for (int i = 1; i < total.length; i++) {
            if (total[i] > total[moves.indexOf(best)]) {
                best = moves.get(i);
            }
        }
        return best;
    }
}
