package league_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"arena/arena/league"
	"arena/arena/league/leaguefile"
	"arena/arena/league/leaguefile/leaguefiletest"
	"arena/arena/referee"
	"arena/arena/slots"
	"arena/plugins/host"
	"arena/plugins/protocol"
)

// cpuSpy wraps a launcher and checks, at every agent start, that the agent
// was given exactly one CPU that no other running agent holds, in this
// run or another one sharing the slots.
type cpuSpy struct {
	mu       sync.Mutex
	busy     map[int]string
	launches int
	errs     []string
}

type spiedHandle struct {
	referee.Handle
	once sync.Once
	done func()
}

func (h *spiedHandle) Kill() {
	h.once.Do(h.done)
	h.Handle.Kill()
}

func (s *cpuSpy) wrap(inner referee.Launcher) referee.Launcher {
	return func(ctx context.Context, p referee.Player, o host.Options) (referee.Handle, error) {
		s.mu.Lock()
		s.launches++
		if len(o.CPUs) != 1 {
			s.errs = append(s.errs, fmt.Sprintf("agent %s started with CPUs %v, want one", p.Name, o.CPUs))
			s.mu.Unlock()
			return inner(ctx, p, o)
		}
		c := o.CPUs[0]
		if other, ok := s.busy[c]; ok {
			s.errs = append(s.errs, fmt.Sprintf("agent %s given CPU %d while %s runs on it", p.Name, c, other))
		}
		s.busy[c] = p.Name
		s.mu.Unlock()
		h, err := inner(ctx, p, o)
		release := func() {
			s.mu.Lock()
			if s.busy[c] == p.Name {
				delete(s.busy, c)
			}
			s.mu.Unlock()
		}
		if err != nil {
			release()
			return nil, err
		}
		return &spiedHandle{Handle: h, done: release}, nil
	}
}

// Two league runs at once on one machine, sharing its two CPU slots as
// two arena processes would: each game holds both slots, every agent runs
// on a CPU of its own, no CPU ever serves two agents, and both runs
// finish all their games.
func TestWallClockGamesNeverShareACPU(t *testing.T) {
	longRunning(t)
	slotDir := t.TempDir()
	spy := &cpuSpy{busy: map[int]string{}}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	outs := make([]string, 2)
	for i := range 2 {
		file := leaguefiletest.Write(t, "fair.yaml", fmt.Sprintf(`
name: fair%d
game: bohnenspiel
games_per_pairing: 4
seed: %d
%s
agents:
  - name: random
    agent: random
  - name: greedy
    agent: greedy
`, i, 7+i, patientMoves))
		outs[i] = filepath.Join(t.TempDir(), "league")
		opt := leaguefiletest.Options()
		opt.Sources.Sets = []string{"output=" + outs[i]}
		s, err := leaguefile.Load(file, opt)
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Machine.CPUs) < 2 {
			t.Skip("needs two CPUs")
		}
		if s.Leagues[0].Concurrency != 1 {
			t.Fatalf("concurrency %d on 2 slots under a per-move profile", s.Leagues[0].Concurrency)
		}
		pool, err := slots.New(slotDir, slots.Machine{CPUs: s.Machine.CPUs, N: 2})
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = league.Run(ctx, s, league.RunOptions{Launch: spy.wrap(testLauncher()), Slots: pool})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("run %d: %v", i, err)
		}
		games := storedGames(t, outs[i], fmt.Sprintf("fair%d", i))
		if len(games) != 4 {
			t.Fatalf("run %d stored %d games, want 4", i, len(games))
		}
		// Pinned agents play their games out: no death, no substitute.
		for _, g := range games {
			for _, e := range g.Record.Events {
				t.Errorf("game %s: %s event: %s", g.Record.ID, e.Kind, e.Detail)
			}
		}
	}
	for _, e := range spy.errs {
		t.Error(e)
	}
	if spy.launches < 16 {
		t.Fatalf("%d agent starts for 8 games", spy.launches)
	}
}

// pinSpy is an agent process that notes, at every move, the CPUs its
// process is allowed to run on.
type pinSpy struct {
	referee.Handle
	keptProcess
	saw func(cpus string)
}

func (h pinSpy) Move(ctx context.Context, req protocol.MoveRequest) (string, error) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(h.proc.Pid(), &set); err == nil {
		var cpus []string
		for c := range 1024 {
			if set.IsSet(c) {
				cpus = append(cpus, strconv.Itoa(c))
			}
		}
		h.saw(strings.Join(cpus, ","))
	}
	return h.Handle.Move(ctx, req)
}

// A league's kept processes stay on their CPUs while the seats swap from
// game to game: the seats' CPUs follow the agents, so no process is moved
// between games.
func TestKeptProcessesStayOnTheirCPUs(t *testing.T) {
	longRunning(t)
	file := leaguefiletest.Write(t, "stay.yaml", `
name: stay
game: bohnenspiel
games_per_pairing: 6
seed: 3
`+patientMoves+`
agents:
  - name: random
    agent: random
  - name: greedy
    agent: greedy
`)
	s, out := loadLeague(t, file)
	if len(s.Machine.CPUs) < 2 {
		t.Skip("needs two CPUs")
	}
	pool, err := slots.New(t.TempDir(), slots.Machine{CPUs: s.Machine.CPUs, N: 2})
	if err != nil {
		t.Fatal(err)
	}
	l := testHost()
	var mu sync.Mutex
	seen := map[string]map[string]bool{}
	var starts atomic.Int64
	launch := func(ctx context.Context, p referee.Player, o host.Options) (referee.Handle, error) {
		starts.Add(1)
		proc, err := l.Launch(ctx, p.Ref, o)
		if err != nil {
			return nil, err
		}
		return pinSpy{Handle: referee.Wrap(proc), keptProcess: keptProcess{proc}, saw: func(cpus string) {
			mu.Lock()
			defer mu.Unlock()
			if seen[p.Name] == nil {
				seen[p.Name] = map[string]bool{}
			}
			seen[p.Name][cpus] = true
		}}, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if err := league.Run(ctx, s, league.RunOptions{Launch: launch, Slots: pool}); err != nil {
		t.Fatal(err)
	}
	games := storedGames(t, out, "stay")
	if len(games) != 6 || games[0].Match.Seats[0] == games[1].Match.Seats[0] {
		t.Fatalf("%d games, the first two seated %v and %v: want 6 with the seats swapping", len(games), games[0].Match.Seats, games[1].Match.Seats)
	}
	if n := starts.Load(); n != 2 {
		t.Errorf("%d agent processes started for 6 games of 2 agents, want 2 (kept)", n)
	}
	for name, cpus := range seen {
		if len(cpus) != 1 {
			t.Errorf("agent %s ran on CPUs %v over the league, want one set", name, cpus)
		}
	}
	if len(seen) != 2 {
		t.Fatalf("moves seen from %d agents, want 2", len(seen))
	}
}
