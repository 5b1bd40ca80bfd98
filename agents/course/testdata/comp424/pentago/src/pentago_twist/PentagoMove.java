package pentago_twist;

import boardgame.Move;

public class PentagoMove extends Move {
    public int x, y, a, b, p;

    public PentagoMove(int x, int y, int a, int b, int p) {
        this.x = x;
        this.y = y;
        this.a = a;
        this.b = b;
        this.p = p;
    }

    public PentagoMove(String s) {
        String[] t = s.split(" ");
        this.x = Integer.parseInt(t[0]);
        this.y = Integer.parseInt(t[1]);
        this.a = Integer.parseInt(t[2]);
        this.b = Integer.parseInt(t[3]);
        this.p = Integer.parseInt(t[4]);
    }

    @Override
    public String toTransportable() {
        return x + " " + y + " " + a + " " + b + " " + p;
    }

    @Override
    public void setPlayerID(int id) {
        p = id;
    }
}
