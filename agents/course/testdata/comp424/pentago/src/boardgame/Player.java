package boardgame;

public abstract class Player {
    private final String name;
    protected int player_id;

    public Player(String name) {
        this.name = name;
    }

    public void movePlayed(BoardState state, Move move) {
    }

    public abstract Move chooseMove(BoardState state);

    public void gameOver(String msg, BoardState state) {
    }

    public abstract Board createBoard();

    public void setColor(int c) {
        player_id = c;
    }

    public int getColor() {
        return player_id;
    }

    public String getName() {
        return name;
    }
}
