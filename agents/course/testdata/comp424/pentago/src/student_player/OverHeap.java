package student_player;

import java.util.ArrayList;
import java.util.List;

import boardgame.Move;
import pentago_twist.PentagoBoardState;
import student_player.tools.Picker;

/**
 * Grows a table without bound on its second move: the JVM's heap runs out
 * and its OutOfMemoryError, an Error the client does not catch, ends the
 * client, as it did in the course.
 */
public class OverHeap extends pentago_twist.PentagoPlayer {
    static final List<long[]> table = new ArrayList<>();
    int calls;

    public OverHeap() {
        super("OverHeap");
    }

    @Override
    public Move chooseMove(PentagoBoardState s) {
        calls++;
        while (calls == 2) {
            table.add(new long[1 << 18]); // 2 MB at a time
        }
        return Picker.pick(s);
    }
}
