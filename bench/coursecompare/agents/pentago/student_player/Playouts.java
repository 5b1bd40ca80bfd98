package student_player;

import java.util.ArrayList;
import java.util.Random;

import pentago_twist.PentagoBoardState;
import pentago_twist.PentagoMove;

/** Random playouts scored for the player to move, the search both bench agents run. */
final class Playouts {
    private Playouts() {
    }

    /** Plays one random game from s and returns 1 if me won, 0.5 for a draw, 0 otherwise. */
    static double playout(PentagoBoardState s, int me, Random rng) {
        PentagoBoardState b = (PentagoBoardState) s.clone();
        while (!b.gameOver()) {
            ArrayList<PentagoMove> moves = b.getAllLegalMoves();
            b.processMove(moves.get(rng.nextInt(moves.size())));
        }
        int w = b.getWinner();
        if (w == me) {
            return 1;
        }
        return w == boardgame.Board.DRAW ? 0.5 : 0;
    }

    /** Scores move m from s with playouts until the deadline (System.nanoTime) or n playouts. */
    static double score(PentagoBoardState s, PentagoMove m, int me, long deadline, int n, Random rng) {
        PentagoBoardState after = (PentagoBoardState) s.clone();
        after.processMove(m);
        if (after.gameOver()) {
            return after.getWinner() == me ? 1e9 : -1e9;
        }
        double sum = 0;
        for (int i = 0; i < n && System.nanoTime() < deadline; i++) {
            sum += playout(after, me, rng);
        }
        return sum;
    }
}
