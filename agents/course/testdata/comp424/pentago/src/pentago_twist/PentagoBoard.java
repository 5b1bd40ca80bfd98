package pentago_twist;

import boardgame.Board;
import boardgame.BoardState;
import boardgame.Move;

public class PentagoBoard extends Board {
    private final PentagoBoardState state = new PentagoBoardState();

    @Override
    public Move parseMove(String s) {
        return new PentagoMove(s);
    }

    @Override
    public void move(Move m) {
        state.apply((PentagoMove) m);
    }

    @Override
    public BoardState getBoardState() {
        return state; // the live state, as the course passed it
    }
}
