package procpool_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"arena/arena/league/procpool"
	"arena/arena/referee"
	"arena/plugins/host"
	"arena/plugins/protocol"
)

// fakeProc is an agent process as the pool sees it: a private directory
// holding its plugin socket, running until killed.
type fakeProc struct {
	dir    string
	killed bool
	exited bool
	cpu    time.Duration
	stderr string
}

func (f *fakeProc) Describe(context.Context) (protocol.Description, error) {
	return protocol.Description{Name: "fake"}, nil
}
func (f *fakeProc) Start(context.Context, protocol.StartInfo) error            { return nil }
func (f *fakeProc) Move(context.Context, protocol.MoveRequest) (string, error) { return "PIT 0 0", nil }
func (f *fakeProc) Observe(context.Context, int, string, int) error            { return nil }
func (f *fakeProc) End(context.Context, protocol.EndInfo) error                { return nil }
func (f *fakeProc) Kill()                                                      { f.killed = true }
func (f *fakeProc) CPUTime() (time.Duration, error)                            { return f.cpu, nil }
func (f *fakeProc) MemoryExceeded() <-chan struct{}                            { return nil }
func (f *fakeProc) Stderr() string                                             { return f.stderr }
func (f *fakeProc) Exited() bool                                               { return f.exited || f.killed }

// Leftovers lists the directory's files besides the plugin socket, as
// host.Process does.
func (f *fakeProc) Leftovers() ([]string, error) {
	entries, err := os.ReadDir(f.dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if e.Name() != "plugin.sock" {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

// launcher starts fake processes and keeps them, in order.
type launcher struct {
	t     *testing.T
	procs []*fakeProc
}

func (l *launcher) launch(context.Context, referee.Player, host.Options) (referee.Handle, error) {
	dir := l.t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "plugin.sock"), nil, 0o600); err != nil {
		l.t.Fatal(err)
	}
	p := &fakeProc{dir: dir}
	l.procs = append(l.procs, p)
	return p, nil
}

func release(t *testing.T, h referee.Handle) {
	t.Helper()
	r, ok := h.(interface{ Release() })
	if !ok {
		t.Fatalf("%T cannot be released", h)
	}
	r.Release()
}

// A released process serves the agent's next game, with its CPU time and
// stderr counted from that game's start; a process that left a file in
// its directory, or ended, is replaced; an agent playing itself gets a
// second process for its second seat.
func TestPoolKeepsAndReplacesProcesses(t *testing.T) {
	ctx := context.Background()
	l := &launcher{t: t}
	p := procpool.New(l.launch)
	ann := referee.Player{Name: "ann"}

	h, err := p.Get(ctx, ann, host.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l.procs[0].cpu, l.procs[0].stderr = 3*time.Second, "first game\n"
	release(t, h)
	p.EndGame()

	h, err = p.Get(ctx, ann, host.Options{})
	if err != nil || len(l.procs) != 1 {
		t.Fatalf("second game: %d processes started (%v), want the first kept", len(l.procs), err)
	}
	if c, _ := h.CPUTime(); c != 0 {
		t.Errorf("the second game starts with %v of the first's CPU time", c)
	}
	if got := p.Process("ann"); got != "0/2" {
		t.Errorf("Process = %q, want the kept process's second game", got)
	}
	// The agent plays itself: its other seat gets a process of its own.
	other, err := p.Get(ctx, ann, host.Options{})
	if err != nil || len(l.procs) != 2 || other == h {
		t.Fatalf("the agent's second seat: %d processes (%v)", len(l.procs), err)
	}
	// A file left in the directory would reach the next game.
	if err := os.WriteFile(filepath.Join(l.procs[0].dir, "notes.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	release(t, h)
	p.EndGame()
	if !l.procs[0].killed {
		t.Error("a process that left a file behind was kept")
	}
	if _, err := p.Get(ctx, ann, host.Options{}); err != nil || len(l.procs) != 3 {
		t.Fatalf("after a spoilt process: %d processes (%v), want a fresh one", len(l.procs), err)
	}
	p.EndGame()

	// An idle process that ended is replaced at the next game.
	bob := referee.Player{Name: "bob"}
	h, _ = p.Get(ctx, bob, host.Options{})
	release(t, h)
	p.EndGame()
	l.procs[len(l.procs)-1].exited = true
	n := len(l.procs)
	if _, err := p.Get(ctx, bob, host.Options{}); err != nil || len(l.procs) != n+1 {
		t.Fatalf("after the idle process ended: %d processes (%v), want one more", len(l.procs), err)
	}
	p.EndGame()

	// Kept on CPU 0, the idle process is where the pool says; a game on
	// another CPU that cannot move it there gets a fresh process.
	cy := referee.Player{Name: "cy"}
	h, _ = p.Get(ctx, cy, host.Options{CPUs: []int{0}})
	release(t, h)
	p.EndGame()
	if got := p.Pinned("cy"); len(got) != 1 || got[0] != 0 {
		t.Errorf("Pinned = %v, want [0]", got)
	}
	n = len(l.procs)
	if _, err := p.Get(ctx, cy, host.Options{CPUs: []int{1}}); err != nil || len(l.procs) != n+1 || !l.procs[n-1].killed {
		t.Fatalf("moved to CPU 1: %d processes (%v), want the unmovable one replaced", len(l.procs), err)
	}
	p.EndGame()
	p.Close()
}
