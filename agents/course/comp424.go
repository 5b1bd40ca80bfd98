package course

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"arena/engine"
	"arena/games/all"
	"arena/plugins/protocol"
	"arena/plugins/sdk"
)

// comp424Adapter runs a COMP424 student repository: the course's own
// boardgame.Client with the student's class, to which it plays the
// server's side of the course line protocol on loopback.
type comp424Adapter struct {
	ref  Ref
	log  *os.File
	game sdk.Game

	cmd     *exec.Cmd
	done    chan struct{}
	werr    error
	playing atomic.Bool
	closing atomic.Bool
	ln      net.Listener
	conn    net.Conn
	rd      *bufio.Reader
	sent    int          // moves of the history already sent to the client
	st      engine.State // the server's copy, to tell moves from noise
}

func (c *comp424Adapter) start(ctx context.Context, g sdk.Game) error {
	c.game = g
	class := or(c.ref.Params["class"], defaultStudentClass)
	b, err := buildJava(ctx, c.ref, class, nil)
	if err != nil {
		return err
	}
	java, err := lookRuntime(or(c.ref.Params["java"], "java"), aptJava)
	if err != nil {
		return err
	}
	gm, err := all.Registry().Lookup(g.Game)
	if err != nil {
		return err
	}
	if c.st, err = gm.NewState(engine.Params(g.Params)); err != nil {
		return err
	}
	if c.ln, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		return fmt.Errorf("server socket: %w", err)
	}
	port := strconv.Itoa(c.ln.Addr().(*net.TCPAddr).Port)
	args := jvmHeapFlags(g.Options)
	if tmp := os.Getenv("TMPDIR"); tmp != "" {
		// Java ignores $TMPDIR; in a sandbox /tmp is read-only and the
		// private directory is the writable place.
		args = append(args, "-Djava.io.tmpdir="+tmp)
	}
	args = append(args, "-cp", b.Classpath, "boardgame.Client", class, "127.0.0.1", port)
	cmd := exec.Command(java, args...)
	cmd.Dir = b.Root
	cmd.Stdout, cmd.Stderr = c.log, c.log
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", java, err)
	}
	c.cmd, c.done = cmd, make(chan struct{})
	go func() {
		c.werr = cmd.Wait()
		close(c.done)
		if c.playing.Load() && !c.closing.Load() {
			exitWithRuntime(c.log, "the client JVM ("+class+")", c.werr)
		}
	}()
	if err := c.accept(ctx); err != nil {
		return fmt.Errorf("%s (class %s): %w", c.ref.Path, class, err)
	}
	// START <name> in; START Player-<k> <name> out sets the client's colour.
	line, err := c.readLine(ctx)
	if err != nil {
		return fmt.Errorf("%s (class %s): waiting for START: %w", c.ref.Path, class, err)
	}
	name, ok := strings.CutPrefix(line, "START ")
	if !ok {
		return fmt.Errorf("%s (class %s): the client said %q, not START <name>", c.ref.Path, class, line)
	}
	if err := c.send(ctx, fmt.Sprintf("START Player-%d %s", g.Seat, name)); err != nil {
		return err
	}
	c.playing.Store(true)
	return nil
}

func (c *comp424Adapter) accept(ctx context.Context) error {
	conn, err := acceptUntil(ctx, c.ln, c.done)
	switch {
	case errors.Is(err, errNoConnection):
		return fmt.Errorf("the client JVM exited before connecting (%v); its output is in the agent's stderr log", c.werr)
	case err != nil && errors.Is(err, ctx.Err()):
		return fmt.Errorf("the client did not connect: %w", ctx.Err())
	case err != nil:
		return err
	}
	c.conn, c.rd = conn, bufio.NewReader(conn)
	return nil
}

// readLine reads one line, giving up with ctx.
func (c *comp424Adapter) readLine(ctx context.Context) (string, error) {
	stop := context.AfterFunc(ctx, func() { _ = c.conn.SetReadDeadline(time.Unix(1, 0)) })
	defer stop()
	line, err := c.rd.ReadString('\n')
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "", c.broken(err)
	}
	return strings.TrimRight(line, "\r\n"), nil
}

func (c *comp424Adapter) send(ctx context.Context, line string) error {
	stop := context.AfterFunc(ctx, func() { _ = c.conn.SetWriteDeadline(time.Unix(1, 0)) })
	defer stop()
	if _, err := c.conn.Write([]byte(line + "\n")); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return c.broken(err)
	}
	return nil
}

// broken explains a lost connection: a client that exited mid-game ends
// the adapter (the arena's dead-process rule: random moves from then on,
// as the course server played for a silent client).
func (c *comp424Adapter) broken(err error) error {
	select {
	case <-c.done:
		if c.playing.Load() && !c.closing.Load() {
			exitWithRuntime(c.log, "the client JVM", c.werr)
		}
		return fmt.Errorf("the client JVM exited (%v)", c.werr)
	case <-time.After(2 * time.Second):
		return err
	}
}

// move broadcasts the moves played since the client last heard (both
// sides', as the server did after every move), sends PLAY and reads lines
// until one parses as a move: the server ignored unparseable lines and
// kept its clock running.
func (c *comp424Adapter) move(ctx context.Context, t sdk.Turn) (string, error) {
	if err := c.catchUp(ctx, t.History); err != nil {
		return "", err
	}
	if err := c.send(ctx, fmt.Sprintf("PLAY Player-%d", c.game.Seat)); err != nil {
		return "", err
	}
	for {
		line, err := c.readLine(ctx)
		if err != nil {
			return "", err
		}
		_, perr := t.State.ParseMove(line)
		var me *engine.MoveError
		if errors.As(perr, &me) && me.Kind == engine.Unparseable {
			fmt.Fprintf(c.log, "course server: ignoring unparseable move from the client: %q\n", line)
			continue
		}
		return line, nil
	}
}

// catchUp sends the history's moves the client has not seen.
func (c *comp424Adapter) catchUp(ctx context.Context, history []string) error {
	if len(history) < c.sent {
		return fmt.Errorf("the move history went back from %d to %d moves", c.sent, len(history))
	}
	for _, m := range history[c.sent:] {
		if m == "" {
			continue
		}
		if err := c.send(ctx, m); err != nil {
			return err
		}
	}
	c.sent = len(history)
	return nil
}

func (c *comp424Adapter) observe(context.Context, int, string, int) error { return nil }

// close sends GAMEOVER as the server did (the client then calls gameOver
// and exits) and ends the JVM.
func (c *comp424Adapter) close(ctx context.Context, r *protocol.EndInfo) {
	c.closing.Store(true)
	if c.conn != nil && r != nil {
		_ = c.conn.SetWriteDeadline(time.Now().Add(time.Second))
		_, _ = c.conn.Write([]byte(gameOverLine(c.game.Game, *r) + "\n"))
	}
	if c.cmd != nil {
		select {
		case <-c.done:
		case <-time.After(2 * time.Second):
			_ = c.cmd.Process.Kill()
			<-c.done
		}
	}
	if c.conn != nil {
		c.conn.Close()
	}
	if c.ln != nil {
		c.ln.Close()
	}
}

// gameOverLine is the server's GAMEOVER line: the reason (if any), then
// WINNER <id> or DRAW; Bohnenspiel's server appended the scores.
func gameOverLine(game string, r protocol.EndInfo) string {
	var b strings.Builder
	b.WriteString("GAMEOVER ")
	if r.Reason != "" {
		b.WriteString(r.Reason + " ")
	}
	switch {
	case r.Draw:
		b.WriteString("DRAW")
	case r.Winner >= 0:
		b.WriteString("WINNER " + strconv.Itoa(r.Winner))
	default:
		b.WriteString("UNDECIDED")
	}
	if game == "bohnenspiel" && len(r.Scores) == 2 {
		fmt.Fprintf(&b, "         Player-0 score: %d  Player-1 score: %d", r.Scores[0], r.Scores[1])
	}
	return b.String()
}
