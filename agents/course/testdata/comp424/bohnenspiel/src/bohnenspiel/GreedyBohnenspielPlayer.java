package bohnenspiel;

import boardgame.Move;

/** The sample player whose helper students deleted: never compiled. */
public class GreedyBohnenspielPlayer extends BohnenspielPlayer {
    public GreedyBohnenspielPlayer() {
        super("Greedy");
    }

    @Override
    public Move chooseMove(BohnenspielBoardState state) {
        return student_player.mytools.MyTools.getSomething(state);
    }
}
