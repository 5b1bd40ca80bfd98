package student_player;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import boardgame.Move;
import pentago_twist.PentagoBoardState;
import pentago_twist.PentagoMove;
import pentago_twist.PentagoPlayer;

/**
 * The shape of agents that built a large table on their first move and
 * searched until a self-imposed deadline: it keeps 350 MB of live heap
 * (inside the course's -Xmx520m, which leaves G1 too little room for
 * 400 MB) and runs playouts until 1,900 ms of the 2,000 ms limit have
 * passed on its own clock.
 */
public class HeapSearcher extends PentagoPlayer {
    static final long BUDGET_NS = 1_900_000_000L;
    static final List<byte[]> table = new ArrayList<>();
    final Random rng = new Random(1);
    final int heapMB;

    public HeapSearcher() {
        this("HeapSearcher", 350);
    }

    protected HeapSearcher(String name, int heapMB) {
        super(name);
        this.heapMB = heapMB;
    }

    @Override
    public Move chooseMove(PentagoBoardState s) {
        long deadline = System.nanoTime() + BUDGET_NS;
        if (table.isEmpty()) {
            for (int i = 0; i < heapMB * 4; i++) {
                byte[] b = new byte[1 << 18];
                for (int j = 0; j < b.length; j += 4096) {
                    b[j] = (byte) (i + j); // touch every page
                }
                table.add(b);
            }
            System.err.println("table filled: " + table.size() / 4 + " MB");
        }
        ArrayList<PentagoMove> moves = s.getAllLegalMoves();
        int me = s.getTurnPlayer();
        PentagoMove best = moves.get(0);
        double bestScore = Double.NEGATIVE_INFINITY;
        // Round-robin over the moves, one playout each, until the deadline.
        double[] sum = new double[moves.size()];
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < moves.size() && System.nanoTime() < deadline; i++) {
                sum[i] += Playouts.score(s, moves.get(i), me, deadline, 1, rng);
            }
        }
        for (int i = 0; i < moves.size(); i++) {
            if (sum[i] > bestScore) {
                bestScore = sum[i];
                best = moves.get(i);
            }
        }
        return best;
    }
}
