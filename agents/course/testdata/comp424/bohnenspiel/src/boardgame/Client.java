package boardgame;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.Socket;

/**
 * A stand-in for the course client: java boardgame.Client CLASS [HOST [PORT]].
 * START name out, START Player-k name in, PLAY in on its turn, a move line in
 * for every move played, GAMEOVER in at the end. An exception or a null from
 * chooseMove is replaced by a random move from its own board.
 */
public class Client {
    public static void main(String[] args) throws Exception {
        Player p = (Player) Class.forName(args[0]).getConstructor().newInstance();
        String host = args.length > 1 ? args[1] : "localhost";
        int port = args.length > 2 ? Integer.parseInt(args[2]) : 8123;
        Board board = p.createBoard();
        try (Socket s = new Socket(host, port)) {
            PrintWriter out = new PrintWriter(s.getOutputStream(), true);
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream()));
            out.println("START " + p.getName());
            String msg = in.readLine();
            while (msg != null && !msg.startsWith("START")) {
                msg = in.readLine();
            }
            int id = board.getIDForName(msg.split(" ")[1]);
            p.setColor(id);
            while ((msg = in.readLine()) != null) {
                System.err.println(id + "> " + msg);
                if (msg.startsWith("GAMEOVER")) {
                    p.gameOver(msg, board.getBoardState());
                    break;
                } else if (msg.startsWith("PLAY")) {
                    Move m;
                    try {
                        m = p.chooseMove(board.getBoardState());
                        if (m == null) {
                            System.err.println("ATTENTION: Player didn't return a move.");
                            throw new Exception();
                        }
                        m.setPlayerID(id);
                    } catch (Exception e) {
                        System.err.println("ATTENTION: Exception in chooseMove(). Playing random move.");
                        m = board.getBoardState().getRandomMove();
                    }
                    out.println(m.toTransportable());
                } else {
                    Move m = board.parseMove(msg);
                    board.move(m);
                    p.movePlayed(board.getBoardState(), m);
                }
            }
        }
        System.exit(0);
    }
}
