package student_player;

import java.util.ArrayList;
import java.util.List;

import boardgame.Move;
import pentago_twist.PentagoBoardState;
import student_player.tools.Picker;

/**
 * Fills 350 MB of its heap on its first move and keeps it, as agents that
 * built large transposition tables did: inside the course's -Xmx520m, so
 * the course let it play (400 MB live does not fit: G1 keeps a reserve),
 * while its JVM is resident above 400 MB.
 */
public class FillsHeap extends pentago_twist.PentagoPlayer {
    static final List<byte[]> table = new ArrayList<>();

    public FillsHeap() {
        super("FillsHeap");
    }

    @Override
    public Move chooseMove(PentagoBoardState s) {
        if (table.isEmpty()) {
            // 256 KB rows: under half a G1 region, so each row takes
            // its own size of the heap, not a whole region or two.
            for (int i = 0; i < 1400; i++) {
                byte[] b = new byte[1 << 18];
                for (int j = 0; j < b.length; j += 4096) {
                    b[j] = (byte) (i + j); // touch every page
                }
                table.add(b);
            }
            System.err.println("table filled: " + table.size() / 4 + " MB");
        }
        return Picker.pick(s);
    }
}
