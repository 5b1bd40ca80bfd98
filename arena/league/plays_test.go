package league_test

import (
	"context"
	"sync/atomic"
	"time"

	"os"

	"arena/arena/referee"
	"arena/plugins/host"
	"arena/plugins/protocol"
)

// keptProcess gives a test's wrapper of an agent handle what a league's
// pool of kept processes asks of a process before it lends it to another
// game (procpool): without these methods the pool would take the wrapper
// for a process that cannot be kept and start a new one for every game.
type keptProcess struct{ proc *host.Process }

func (k keptProcess) Pid() int           { return k.proc.Pid() }
func (k keptProcess) Exited() bool       { return k.proc.Exited() }
func (k keptProcess) Dir() string        { return k.proc.Dir() }
func (k keptProcess) SocketPath() string { return k.proc.SocketPath() }
func (k keptProcess) KillExtras() error  { return k.proc.KillExtras() }

// testHost is the host launcher testLauncher starts agents with: this
// test binary, re-executed as an agent host.
func testHost() *host.Launcher {
	return &host.Launcher{Self: []string{os.Args[0], hostArg}, Builtins: testAgents, StderrBytes: 4096}
}

// playCounting launches agents as testLauncher does and counts the games
// they are started for (the StartGame call each seat gets): two per game
// the referee plays, whether its agents' processes are new or kept from
// an earlier game. Tests that count plays this way need not start a fresh
// process for every game, which costs far more than the game.
func playCounting(starts *atomic.Int64) referee.Launcher {
	l := testHost()
	return func(ctx context.Context, p referee.Player, o host.Options) (referee.Handle, error) {
		proc, err := l.Launch(ctx, p.Ref, o)
		if err != nil {
			return nil, err
		}
		return startCounted{Handle: referee.Wrap(proc), keptProcess: keptProcess{proc}, starts: starts}, nil
	}
}

type startCounted struct {
	referee.Handle
	keptProcess
	starts *atomic.Int64
}

func (h startCounted) Start(ctx context.Context, i protocol.StartInfo) error {
	h.starts.Add(1)
	return h.Handle.Start(ctx, i)
}

// MoveSent and Usage keep the move channel's timing and the contention
// evidence the referee takes from a process handle.
func (h startCounted) MoveSent(ctx context.Context, req protocol.MoveRequest, sent func()) (string, error) {
	return h.Handle.(referee.Sender).MoveSent(ctx, req, sent)
}

func (h startCounted) Usage() (cpu, runQueue time.Duration, err error) { return h.proc.Usage() }
