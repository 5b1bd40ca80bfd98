package bohnenspiel;

import boardgame.Board;
import boardgame.BoardState;
import boardgame.Move;
import boardgame.Player;

public abstract class BohnenspielPlayer extends Player {
    public BohnenspielPlayer(String name) {
        super(name);
    }

    @Override
    public Move chooseMove(BoardState state) {
        return chooseMove((BohnenspielBoardState) state);
    }

    public abstract Move chooseMove(BohnenspielBoardState state);

    @Override
    public Board createBoard() {
        return new BohnenspielBoard();
    }
}
