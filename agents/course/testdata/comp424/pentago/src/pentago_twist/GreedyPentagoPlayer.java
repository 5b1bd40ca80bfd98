package pentago_twist;

import boardgame.Move;

/** A sample player using a helper students delete: it must not be compiled. */
public class GreedyPentagoPlayer extends PentagoPlayer {
    public GreedyPentagoPlayer() {
        super("Greedy");
    }

    @Override
    public Move chooseMove(PentagoBoardState state) {
        return student_player.mytools.MyTools.greedy(state);
    }
}
