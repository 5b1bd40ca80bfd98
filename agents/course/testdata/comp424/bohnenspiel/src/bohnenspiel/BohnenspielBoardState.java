package bohnenspiel;

import java.util.ArrayList;
import java.util.Random;

import boardgame.BoardState;
import boardgame.Move;

/** Twelve pits in a ring, 6p+i for player p's pit i; six seeds each. */
public class BohnenspielBoardState extends BoardState {
    final int[] pits = new int[12];
    int turnPlayer = 0;
    private final Random rng = new Random();

    BohnenspielBoardState() {
        java.util.Arrays.fill(pits, 6);
    }

    public int getTurnPlayer() {
        return turnPlayer;
    }

    public ArrayList<BohnenspielMove> getLegalMoves() {
        ArrayList<BohnenspielMove> out = new ArrayList<>();
        for (int i = 0; i < 6; i++)
            if (pits[6 * turnPlayer + i] > 0)
                out.add(new BohnenspielMove(false, i, turnPlayer));
        if (out.isEmpty())
            out.add(new BohnenspielMove(true, -1, turnPlayer));
        return out;
    }

    @Override
    public Move getRandomMove() {
        ArrayList<BohnenspielMove> all = getLegalMoves();
        return all.get(rng.nextInt(all.size()));
    }

    void apply(BohnenspielMove m) {
        if (!m.skip) {
            int r0 = 6 * m.p + m.pit, n = pits[r0];
            pits[r0] = 0;
            int r = r0;
            for (int k = 0; k < n; k++) {
                r = (r + 1) % 12;
                pits[r]++;
            }
            while (pits[r] == 2 || pits[r] == 4 || pits[r] == 6) {
                pits[r] = 0;
                r = (r + 11) % 12;
            }
        }
        turnPlayer = 1 - turnPlayer;
    }
}
