package league_test

import (
	"context"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"arena/arena/league/leaguefile"
	"arena/arena/referee"
	"arena/arena/slots"
	"arena/plugins/host"
	"arena/plugins/protocol"
)

// keptProcess gives a test's wrapper of an agent handle what a league's
// pool of kept processes asks of a process before it lends it to another
// game (procpool): without these methods the pool would take the wrapper
// for a process that cannot be kept and start a new one for every game.
type keptProcess struct{ proc *host.Process }

func (k keptProcess) Pid() int                     { return k.proc.Pid() }
func (k keptProcess) Exited() bool                 { return k.proc.Exited() }
func (k keptProcess) Leftovers() ([]string, error) { return k.proc.Leftovers() }
func (k keptProcess) KillExtras() error            { return k.proc.KillExtras() }

// patientMoves is a league file's overrides for tests whose subject is
// not the move limit but which want clean games (no late move, no
// timeout): these agents answer in microseconds, yet at the course's
// 700 ms a machine at load average 40 made a move late, and a late or
// timed-out move is an event, a penalty in the standings, a game played
// again (machine_replays) and, for a timeout, a process replaced.
const patientMoves = "overrides:\n  move-limit: 20s\n"

// ownSlots gives a parallel test's leagues CPU slots of their own. The
// test binary's leagues share one set (privateSlots), on which the games
// of four parallel tests would wait for one another. These tests count
// and check the games they store; the one that wants its games clean
// plays them under patientMoves; so their games may overlap like the rest
// of their work.
func ownSlots(t *testing.T, s *leaguefile.Spec) *slots.Pool {
	t.Helper()
	p, err := slots.New(t.TempDir(), s.Machine)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

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
