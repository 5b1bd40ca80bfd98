package student_player;

import boardgame.Move;
import pentago_twist.PentagoBoardState;
import student_player.tools.Picker;

public class Hangs extends pentago_twist.PentagoPlayer {
    int calls;

    public Hangs() {
        super("Hangs");
    }

    @Override
    public Move chooseMove(PentagoBoardState s) {
        calls++;
        while (calls == 2) {
            Thread.onSpinWait();
        }
        return Picker.pick(s);
    }
}
