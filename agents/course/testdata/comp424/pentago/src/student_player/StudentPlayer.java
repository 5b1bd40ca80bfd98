package student_player;

import java.nio.file.Files;
import java.nio.file.Paths;

import boardgame.Move;
import pentago_twist.PentagoBoardState;
import pentago_twist.PentagoMove;
import student_player.tools.Picker;

/** Reads its weights relative to the working directory, as agents did. */
public class StudentPlayer extends pentago_twist.PentagoPlayer {
    static int moves; // static state kept across moves

    public StudentPlayer() {
        super("260000001");
    }

    @Override
    public Move chooseMove(PentagoBoardState s) {
        if (!Files.exists(Paths.get("data", "weights.txt"))) {
            return new PentagoMove(0, 0, 9, 0, player_id); // visibly illegal
        }
        moves++;
        return Picker.pick(s);
    }
}
