package bohnenspiel;

import boardgame.Move;

public class BohnenspielMove extends Move {
    public final boolean skip;
    public final int pit;
    public int p;

    public BohnenspielMove(boolean skip, int pit, int p) {
        this.skip = skip;
        this.pit = pit;
        this.p = p;
    }

    public BohnenspielMove(String s) {
        String[] t = s.split(" ");
        skip = t[0].equals("SKIP");
        p = Integer.parseInt(t[1]);
        pit = skip ? -1 : Integer.parseInt(t[2]);
    }

    @Override
    public String toTransportable() {
        return skip ? "SKIP " + p : "PIT " + p + " " + pit;
    }

    @Override
    public void setPlayerID(int id) {
        p = id;
    }
}
