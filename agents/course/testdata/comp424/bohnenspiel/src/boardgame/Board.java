package boardgame;

public abstract class Board {
    public static final int DRAW = Integer.MAX_VALUE;

    public abstract Move parseMove(String s);

    public abstract void move(Move m);

    public abstract BoardState getBoardState();

    public int getIDForName(String s) {
        return Integer.parseInt(s.split("-")[1]);
    }

    public void forceWinner(int w) {
    }
}
