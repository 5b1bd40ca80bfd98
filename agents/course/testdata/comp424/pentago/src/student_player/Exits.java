package student_player;

import boardgame.Move;
import pentago_twist.PentagoBoardState;
import student_player.tools.Picker;

public class Exits extends pentago_twist.PentagoPlayer {
    int calls;

    public Exits() {
        super("Exits");
    }

    @Override
    public Move chooseMove(PentagoBoardState s) {
        calls++;
        if (calls == 2)
            System.exit(0);
        return Picker.pick(s);
    }
}
