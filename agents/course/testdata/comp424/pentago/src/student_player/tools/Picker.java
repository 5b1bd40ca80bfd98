package student_player.tools;

import java.util.ArrayList;
import java.util.Random;

import pentago_twist.PentagoBoardState;
import pentago_twist.PentagoMove;

public class Picker {
    private static final Random RNG = new Random(7);

    public static PentagoMove pick(PentagoBoardState s) {
        ArrayList<PentagoMove> all = s.getAllLegalMoves();
        return all.get(RNG.nextInt(all.size()));
    }
}
