package boardgame;

public abstract class Move {
    public abstract String toTransportable();

    public abstract void setPlayerID(int id);

    public void setFromBoard(boolean b) {
    }
}
