package student_player;

import java.util.ArrayList;

import bohnenspiel.BohnenspielBoardState;
import bohnenspiel.BohnenspielMove;
import boardgame.Move;

/** Takes the pit with most seeds (a fixed rule, no clock). */
public class StudentPlayer extends bohnenspiel.BohnenspielPlayer {
    public StudentPlayer() {
        super("260000002");
    }

    @Override
    public Move chooseMove(BohnenspielBoardState s) {
        ArrayList<BohnenspielMove> moves = s.getLegalMoves();
        return moves.get(moves.size() - 1);
    }
}
