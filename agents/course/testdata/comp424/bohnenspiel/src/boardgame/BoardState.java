package boardgame;

public abstract class BoardState {
    public abstract Move getRandomMove();
}
