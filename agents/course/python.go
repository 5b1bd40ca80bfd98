package course

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// pyHost is the Python side of the Dots-and-Boxes and Cachex adapters.
//
//go:embed pyhost.py
var pyHost string

// pyProc is a running Python host: one interpreter for one game, driven
// over two pipes with one JSON object per line.
type pyProc struct {
	cmd  *exec.Cmd
	out  *os.File // requests, the host's fd 3
	in   *bufio.Reader
	inF  *os.File // replies, the host's fd 4
	done chan struct{}
	werr error
	// dead is set once the process was killed mid-call: a reader may still
	// be blocked on in, so no later call may read.
	dead bool
	// armed: the game is on, so an exit of the interpreter that close did
	// not ask for ends the adapter too (see watch).
	armed, closing atomic.Bool
	log            *os.File
	what           string
}

// pyReply is one reply of the host.
type pyReply struct {
	OK    bool   `json:"ok"`
	Move  string `json:"move"`
	Error string `json:"error"`
}

// startPython starts the Python host in mode for path. The agent's stdout
// and stderr both go to log (the adapter's stderr, which the arena keeps);
// the plugin channel is never theirs.
func startPython(python, mode, path string, extra []string, dir string, log *os.File) (*pyProc, error) {
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	repR, repW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return nil, err
	}
	// The host's source comes on stdin (python3 - MODE PATH): Python reads
	// all of it before running it, so the agent finds stdin at its end.
	args := append([]string{"-", mode, path}, extra...)
	cmd := exec.Command(python, args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(pyHost)
	cmd.Stdout = log
	cmd.Stderr = log
	cmd.ExtraFiles = []*os.File{reqR, repW}
	// PYTHONUNBUFFERED keeps the agent's prints in order with its
	// tracebacks in the log; the interpreter dies with the adapter.
	cmd.Env = append(os.Environ(), "PYTHONUNBUFFERED=1", "PYTHONDONTWRITEBYTECODE=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		reqR.Close()
		reqW.Close()
		repR.Close()
		repW.Close()
		return nil, fmt.Errorf("start %s: %w", python, err)
	}
	reqR.Close()
	repW.Close()
	p := &pyProc{cmd: cmd, out: reqW, in: bufio.NewReaderSize(repR, 64<<10), inF: repR, done: make(chan struct{}), log: log, what: path}
	go func() {
		p.werr = cmd.Wait()
		close(p.done)
		if p.armed.Load() && !p.closing.Load() {
			exitWithRuntime(p.log, "python3 "+p.what, p.werr)
		}
	}()
	return p, nil
}

// errExited marks a host that ended without replying.
var errExited = errors.New("the Python process exited")

// call sends one request and waits for its reply or ctx.
func (p *pyProc) call(ctx context.Context, req any) (pyReply, error) {
	if p.dead {
		return pyReply{}, p.exitErr()
	}
	b, err := json.Marshal(req)
	if err != nil {
		return pyReply{}, err
	}
	if _, err := p.out.Write(append(b, '\n')); err != nil {
		return pyReply{}, p.exitErr()
	}
	return p.read(ctx)
}

// read waits for the host's next reply or ctx.
func (p *pyProc) read(ctx context.Context) (pyReply, error) {
	if p.dead {
		return pyReply{}, p.exitErr()
	}
	type res struct {
		line []byte
		err  error
	}
	ch := make(chan res, 1)
	go func() {
		line, err := p.in.ReadBytes('\n')
		ch <- res{line, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			if errors.Is(r.err, io.EOF) {
				return pyReply{}, p.exitErr()
			}
			return pyReply{}, r.err
		}
		var rep pyReply
		if err := json.Unmarshal(r.line, &rep); err != nil {
			return pyReply{}, fmt.Errorf("python host: bad reply %q: %w", r.line, err)
		}
		return rep, nil
	case <-ctx.Done():
		// The reader goroutine is left blocked; the process is killed
		// with the game, which ends it.
		p.kill()
		return pyReply{}, ctx.Err()
	}
}

// exitErr describes a host that is gone, waiting briefly for its status.
// Mid-game, the adapter ends with the interpreter instead (see
// exitWithRuntime), so that the arena always sees a dead agent, never an
// error report, whichever notices first.
func (p *pyProc) exitErr() error {
	select {
	case <-p.done:
	case <-time.After(2 * time.Second):
		return errExited
	}
	if p.armed.Load() && !p.closing.Load() {
		exitWithRuntime(p.log, "python3 "+p.what, p.werr)
	}
	if p.werr != nil {
		return fmt.Errorf("%w (%v)", errExited, p.werr)
	}
	return errExited
}

func (p *pyProc) kill() {
	p.dead = true
	p.closing.Store(true)
	_ = p.cmd.Process.Kill()
}

// close ends the host: a polite "end", then a kill.
func (p *pyProc) close() {
	p.closing.Store(true)
	b, _ := json.Marshal(map[string]string{"op": "end"})
	_, _ = p.out.Write(append(b, '\n'))
	p.out.Close()
	select {
	case <-p.done:
	case <-time.After(500 * time.Millisecond):
		p.kill()
		<-p.done
	}
	p.inF.Close()
}

// exitWithRuntime ends the adapter process when the course runtime it
// serves has died mid-game: the arena then sees a dead agent process and
// applies the profile's rule for one (a loss, random moves, skipped
// turns), as the course's referee saw a dead player.
func exitWithRuntime(log *os.File, what string, err error) {
	fmt.Fprintf(log, "course agent: %s ended mid-game (%v); the agent process ends with it\n", what, err)
	os.Exit(3)
}
