package pentago_twist;

import java.util.ArrayList;
import java.util.Random;

import boardgame.BoardState;
import boardgame.Move;

/** 6x6 cells board[x][y] (x the row), 0 empty, 1 white, 2 black. */
public class PentagoBoardState extends BoardState {
    final int[][] board = new int[6][6];
    int turnPlayer = 0;
    private final Random rng = new Random();

    public int getTurnPlayer() {
        return turnPlayer;
    }

    public boolean isEmpty(int x, int y) {
        return board[x][y] == 0;
    }

    public ArrayList<PentagoMove> getAllLegalMoves() {
        ArrayList<PentagoMove> out = new ArrayList<>();
        for (int x = 0; x < 6; x++)
            for (int y = 0; y < 6; y++)
                if (board[x][y] == 0)
                    for (int a = 0; a < 4; a++)
                        for (int b = 0; b < 2; b++)
                            out.add(new PentagoMove(x, y, a, b, turnPlayer));
        return out;
    }

    @Override
    public Move getRandomMove() {
        ArrayList<PentagoMove> all = getAllLegalMoves();
        return all.get(rng.nextInt(all.size()));
    }

    void apply(PentagoMove m) {
        board[m.x][m.y] = m.p + 1;
        int r0 = 3 * (m.a / 2), c0 = 3 * (m.a % 2);
        int[][] q = new int[3][3];
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                q[r][c] = board[r0 + r][c0 + c];
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                if (m.b == 0)
                    board[r0 + c][c0 + 2 - r] = q[r][c];
                else
                    board[r0 + r][c0 + 2 - c] = q[r][c];
        turnPlayer = 1 - turnPlayer;
    }
}
