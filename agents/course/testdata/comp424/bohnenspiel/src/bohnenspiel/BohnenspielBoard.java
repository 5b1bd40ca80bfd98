package bohnenspiel;

import boardgame.Board;
import boardgame.BoardState;
import boardgame.Move;

public class BohnenspielBoard extends Board {
    private final BohnenspielBoardState state = new BohnenspielBoardState();

    @Override
    public Move parseMove(String s) {
        return new BohnenspielMove(s);
    }

    @Override
    public void move(Move m) {
        state.apply((BohnenspielMove) m);
    }

    @Override
    public BoardState getBoardState() {
        return state;
    }
}
