package student_player;

import boardgame.Move;
import pentago_twist.PentagoBoardState;
import student_player.tools.Picker;

public class Late extends pentago_twist.PentagoPlayer {
    int calls;

    public Late() {
        super("Late");
    }

    @Override
    public Move chooseMove(PentagoBoardState s) {
        calls++;
        if (calls == 2) {
            try {
                Thread.sleep(5000);
            } catch (InterruptedException e) {
            }
        }
        return Picker.pick(s);
    }
}
