package student_player;

import boardgame.Move;
import pentago_twist.PentagoBoardState;
import student_player.tools.Picker;

public class ReturnsNull extends pentago_twist.PentagoPlayer {
    int calls;

    public ReturnsNull() {
        super("ReturnsNull");
    }

    @Override
    public Move chooseMove(PentagoBoardState s) {
        calls++;
        if (calls == 2)
            return null;
        return Picker.pick(s);
    }
}
