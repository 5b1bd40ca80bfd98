package course

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"arena/engine"
	"arena/games/all"
	"arena/plugins/protocol"
	"arena/plugins/sandbox"
	"arena/plugins/sdk"
)

// netLaunch starts a hex cross-out script in its own network namespace.
//
//go:embed netlaunch.py
var netLaunch string

// hexSide is the board's side; the wire carries side×side cells.
const hexSide = 12

// hexAdapter is the NYCU TA server for one player: it starts the agent
// script as the course server did, in a network namespace of its own so
// that its hard-wired 127.0.0.1:8888 is private, and speaks the course's
// int32 protocol to it.
type hexAdapter struct {
	ref  Ref
	log  *os.File
	game sdk.Game

	cmd     *exec.Cmd
	done    chan struct{}
	werr    error
	closing atomic.Bool
	playing atomic.Bool // connected: from now on the script's exit ends the adapter
	ln      net.Listener
	conn    net.Conn
	rd      *bufio.Reader
	pkg     int32
}

func (h *hexAdapter) start(ctx context.Context, g sdk.Game) error {
	h.game = g
	script, err := hexScript(h.ref.Path)
	if err != nil {
		return err
	}
	py, err := python(h.ref)
	if err != nil {
		return err
	}
	if err := h.launch(py, script); err != nil {
		return err
	}
	// The course client connects and sends its team id; any id is
	// accepted (the arena knows which agent it started).
	if err := h.accept(ctx); err != nil {
		return fmt.Errorf("script %s: %w", script, err)
	}
	var team [4]byte
	if _, err := io.ReadFull(h.rd, team[:]); err != nil {
		return fmt.Errorf("script %s: reading its team id: %w", script, h.gone(err))
	}
	h.playing.Store(true)
	return nil
}

// hexScript checks that PATH is a script file.
func hexScript(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("agent script %s: %w", path, err)
	}
	if fi.IsDir() {
		return "", fmt.Errorf("agent script %s is a directory: give the script that imports STcpClient_1", path)
	}
	return abs, nil
}

// namespaceFlags are tried in order: a user and network namespace (any
// user), then a network namespace alone (root where user namespaces are
// disabled).
var namespaceFlags = []uintptr{syscall.CLONE_NEWUSER | syscall.CLONE_NEWNET, syscall.CLONE_NEWNET}

// launch starts the launcher in a private network namespace and receives
// the listening socket it opened there on 127.0.0.1:8888. Inside the
// arena's sandbox the adapter already has a network of its own (loopback
// only) and may not make namespaces: the script then shares it.
func (h *hexAdapter) launch(py, script string) error {
	if privateNetwork() {
		return h.launchWith(py, script, 0)
	}
	var errs []string
	for _, flags := range namespaceFlags {
		err := h.launchWith(py, script, flags)
		if err == nil {
			return nil
		}
		errs = append(errs, err.Error())
	}
	return fmt.Errorf("cannot give the agent script a network namespace of its own (the course client connects to 127.0.0.1:8888, so games could not run side by side): %s; run the arena as root or enable user namespaces (sysctl kernel.unprivileged_userns_clone=1, user.max_user_namespaces>0)",
		strings.Join(errs, "; "))
}

// privateNetwork reports whether this process runs in the arena's
// sandbox with a network namespace of its own: the sandbox says so in the
// environment, and the namespace shows no interface but loopback. Either
// alone is not enough: an unsandboxed adapter on a machine without a
// network also sees loopback only, and sharing that with another game's
// script would collide on 127.0.0.1:8888.
func privateNetwork() bool {
	if os.Getenv(sandbox.Env) != "1" {
		return false
	}
	ifs, err := net.Interfaces()
	if err != nil {
		return false
	}
	for _, i := range ifs {
		if i.Flags&net.FlagLoopback == 0 {
			return false
		}
	}
	return true
}

func (h *hexAdapter) launchWith(py, script string, flags uintptr) error {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	mine, theirs := os.NewFile(uintptr(fds[0]), "launch-ctl"), os.NewFile(uintptr(fds[1]), "launch-ctl-child")
	defer mine.Close()
	// The launcher's source comes on stdin (python3 - SCRIPT), which
	// is at its end when the script starts.
	cmd := exec.Command(py, "-", script)
	cmd.Stdin = strings.NewReader(netLaunch)
	cmd.Dir = filepath.Dir(script)
	cmd.Stdout, cmd.Stderr = h.log, h.log
	cmd.ExtraFiles = []*os.File{theirs}
	cmd.Env = append(os.Environ(), "PYTHONUNBUFFERED=1", "PYTHONDONTWRITEBYTECODE=1")
	attr := &syscall.SysProcAttr{Cloneflags: flags, Pdeathsig: syscall.SIGKILL}
	if flags&syscall.CLONE_NEWUSER != 0 {
		// Root of the namespace is the arena's own user, nothing more.
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Geteuid(), Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getegid(), Size: 1}}
		attr.GidMappingsEnableSetgroups = false
	}
	cmd.SysProcAttr = attr
	if err := cmd.Start(); err != nil {
		theirs.Close()
		return fmt.Errorf("start %s with namespaces %#x: %w", py, flags, err)
	}
	theirs.Close()
	h.cmd, h.done = cmd, make(chan struct{})
	go func() {
		h.werr = cmd.Wait()
		close(h.done)
		if !h.closing.Load() && h.playing.Load() {
			exitWithRuntime(h.log, "python3 "+script, h.werr)
		}
	}()
	ln, err := receiveListener(mine)
	if err != nil {
		h.kill()
		<-h.done
		return err
	}
	h.ln = ln
	return nil
}

// receiveListener reads the launcher's report and the socket it passed.
func receiveListener(ctl *os.File) (net.Listener, error) {
	buf := make([]byte, 512)
	oob := make([]byte, syscall.CmsgSpace(4))
	_ = ctl.SetReadDeadline(time.Now().Add(30 * time.Second))
	rc, err := ctl.SyscallConn()
	if err != nil {
		return nil, err
	}
	var n, oobn int
	var rerr error
	err = rc.Read(func(fd uintptr) bool {
		n, oobn, _, _, rerr = syscall.Recvmsg(int(fd), buf, oob, 0)
		return rerr != syscall.EAGAIN
	})
	if err == nil {
		err = rerr
	}
	if err != nil {
		return nil, fmt.Errorf("launcher: %w", err)
	}
	if oobn == 0 {
		msg := strings.TrimSpace(string(buf[:n]))
		if msg == "" {
			msg = "the launcher ended without a report"
		}
		return nil, errors.New(msg)
	}
	msgs, err := syscall.ParseSocketControlMessage(oob[:oobn])
	if err != nil || len(msgs) != 1 {
		return nil, fmt.Errorf("launcher: bad control message: %v", err)
	}
	fds, err := syscall.ParseUnixRights(&msgs[0])
	if err != nil || len(fds) != 1 {
		return nil, fmt.Errorf("launcher: no socket passed: %v", err)
	}
	f := os.NewFile(uintptr(fds[0]), "agent-listener")
	defer f.Close()
	syscall.CloseOnExec(fds[0])
	return net.FileListener(f)
}

// accept waits for the script's connection.
func (h *hexAdapter) accept(ctx context.Context) error {
	conn, err := acceptUntil(ctx, h.ln, h.done)
	switch {
	case errors.Is(err, errNoConnection):
		return fmt.Errorf("the script ended before connecting to 127.0.0.1:8888 (%v)", h.werr)
	case err != nil && errors.Is(err, ctx.Err()):
		return fmt.Errorf("the script did not connect to 127.0.0.1:8888: %w", ctx.Err())
	case err != nil:
		return err
	}
	h.conn, h.rd = conn, bufio.NewReader(conn)
	return nil
}

// gone explains a broken connection: the script's exit, if it exited.
func (h *hexAdapter) gone(err error) error {
	select {
	case <-h.done:
		return fmt.Errorf("the script exited (%v)", h.werr)
	case <-time.After(time.Second):
		return err
	}
}

func (h *hexAdapter) move(ctx context.Context, t sdk.Turn) (string, error) {
	mapStat, gameStat, err := hexStats(h.game.Params, t.History)
	if err != nil {
		return "", err
	}
	h.pkg++
	msg := make([]int32, 0, 2+2*hexSide*hexSide)
	msg = append(msg, 1, h.pkg)
	msg = append(msg, mapStat[:]...)
	msg = append(msg, gameStat[:]...)
	stop := context.AfterFunc(ctx, func() { _ = h.conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	if err := binary.Write(h.conn, binary.LittleEndian, msg); err != nil {
		return "", h.failed(ctx, err)
	}
	for {
		var rep [6]int32
		if err := binary.Read(h.rd, binary.LittleEndian, rep[:]); err != nil {
			return "", h.failed(ctx, err)
		}
		// A stale package id is ignored and the server reads again.
		if rep[1] != h.pkg {
			continue
		}
		return fmt.Sprintf("%d,%d,%d,%d", rep[2], rep[3], rep[4], rep[5]), nil
	}
}

// failed turns a connection error into the course's outcome: a script that
// exited makes the agent process end (its later turns are skipped), a
// cancelled move is the referee's timeout.
func (h *hexAdapter) failed(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	err = h.gone(err)
	if !h.closing.Load() {
		select {
		case <-h.done:
			exitWithRuntime(h.log, "python3 "+h.ref.Path, h.werr)
		default:
		}
	}
	return err
}

// hexStats builds the course's mapStat and gameStat, x outer and y inner:
// 0 free, -1 obstacle, 1 or 2 crossed out by player 1 or 2; and per cell
// the number of the move that crossed it out (moves counted from 1).
func hexStats(params map[string]string, history []string) (mapStat, gameStat [hexSide * hexSide]int32, err error) {
	g, err := all.Registry().Lookup("hex-crossout")
	if err != nil {
		return mapStat, gameStat, err
	}
	st, err := g.NewState(engine.Params(params))
	if err != nil {
		return mapStat, gameStat, err
	}
	prev := st.Text()
	moves := int32(0)
	for i, text := range history {
		if err := engine.Replay(st, []string{text}); err != nil {
			return mapStat, gameStat, fmt.Errorf("ply %d: %w", i, err)
		}
		if text == "" {
			continue
		}
		moves++
		cur := st.Text()
		for k := range cur {
			if cur[k] != prev[k] {
				x, y := k%(hexSide+1), k/(hexSide+1)
				gameStat[x*hexSide+y] = moves
			}
		}
		prev = cur
	}
	text := st.Text()
	for y, row := range strings.Split(text, "/") {
		for x := 0; x < len(row) && x < hexSide; x++ {
			v := int32(0)
			switch row[x] {
			case '#':
				v = -1
			case '1', '2':
				n, _ := strconv.Atoi(string(row[x]))
				v = int32(n)
			}
			mapStat[x*hexSide+y] = v
		}
	}
	return mapStat, gameStat, nil
}

func (h *hexAdapter) observe(context.Context, int, string, int) error { return nil }

// close tells the script the game is over (gameFlag 0), as the course
// server did, and ends it.
func (h *hexAdapter) close(context.Context, *protocol.EndInfo) {
	h.closing.Store(true)
	if h.conn != nil {
		_ = h.conn.SetWriteDeadline(time.Now().Add(time.Second))
		_ = binary.Write(h.conn, binary.LittleEndian, []int32{0, h.pkg + 1})
	}
	if h.cmd != nil {
		select {
		case <-h.done:
		case <-time.After(time.Second):
			h.kill()
			<-h.done
		}
	}
	if h.conn != nil {
		h.conn.Close()
	}
	if h.ln != nil {
		h.ln.Close()
	}
}

func (h *hexAdapter) kill() {
	if h.cmd != nil && h.cmd.Process != nil {
		_ = h.cmd.Process.Kill()
	}
}
