package student_player;

import boardgame.Move;
import pentago_twist.PentagoBoardState;
import student_player.tools.Picker;

/**
 * Never returns from its second move. It sleeps rather than spins: the
 * course's server timed a move by the wall clock, so a sleeping hang is
 * judged as a spinning one, without a core spent until the game ends.
 */
public class Hangs extends pentago_twist.PentagoPlayer {
    int calls;

    public Hangs() {
        super("Hangs");
    }

    @Override
    public Move chooseMove(PentagoBoardState s) {
        calls++;
        while (calls == 2) {
            try {
                Thread.sleep(60_000);
            } catch (InterruptedException e) {
                // keep hanging
            }
        }
        return Picker.pick(s);
    }
}
