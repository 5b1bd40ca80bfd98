package student_player;

import boardgame.Move;
import pentago_twist.PentagoBoardState;
import student_player.tools.Picker;

public class Prints extends pentago_twist.PentagoPlayer {
    int calls;

    public Prints() {
        super("Prints");
    }

    @Override
    public Move chooseMove(PentagoBoardState s) {
        calls++;
        System.out.println("searching " + s.getAllLegalMoves().size() + " moves");
        return Picker.pick(s);
    }
}
