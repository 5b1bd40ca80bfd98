package student_player;

/**
 * HeapSearcher with a 420 MB table: more than the course's -Xmx520m JVM
 * can hold beside its playouts, so it dies of OutOfMemoryError on its first
 * move in the course's framework as in the arena.
 */
public class HeapOverflow extends HeapSearcher {
    public HeapOverflow() {
        super("HeapOverflow", 420);
    }
}
