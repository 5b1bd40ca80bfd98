package pentago_twist;

import boardgame.Board;
import boardgame.BoardState;
import boardgame.Move;
import boardgame.Player;

public abstract class PentagoPlayer extends Player {
    public PentagoPlayer(String name) {
        super(name);
    }

    @Override
    public Move chooseMove(BoardState state) {
        return chooseMove((PentagoBoardState) state);
    }

    public abstract Move chooseMove(PentagoBoardState state);

    @Override
    public Board createBoard() {
        return new PentagoBoard();
    }
}
