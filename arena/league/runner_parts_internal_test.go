package league

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"arena/arena/league/leaguefile"
	"arena/arena/record"
	"arena/arena/slots"
	"arena/engine"
	"arena/games/bohnenspiel"
)

// configDiff says which settings a resumed league changed, and how, in
// key order; a value too long to show is named only.
func TestConfigDiff(t *testing.T) {
	long := `"` + strings.Repeat("x", 130) + `"`
	edge := `"` + strings.Repeat("y", 117) + `"` // 119 bytes, with "1" 120: still shown
	old := `{"games_per_pairing":2,"seed":1,"name":"cup","edge":1,"long":1}`
	now := `{"games_per_pairing":4,"name":"cup","concurrency":2,"edge":` + edge + `,"long":` + long + `}`
	want := "concurrency: unset -> 2; edge: 1 -> " + edge + "; games_per_pairing: 2 -> 4; long; seed: 1 -> unset"
	if got := configDiff(old, now); got != want {
		t.Errorf("configDiff:\n%s\nwant\n%s", got, want)
	}
	edge = `"` + strings.Repeat("y", 118) + `"` // 121 bytes with "1": named only
	if got := configDiff(`{"edge":1}`, `{"edge":`+edge+`}`); got != "edge" {
		t.Errorf("configDiff of a 121-byte change: %q, want the key alone", got)
	}
	if got := configDiff(`{"a": 1}`, `{"a":1}`); got != "same settings, different encoding" {
		t.Errorf("configDiff of equal settings: %q", got)
	}
	if got := configDiff(`{`, `{}`); got != "stored configuration unreadable" {
		t.Errorf("configDiff of broken JSON: %q", got)
	}
}

// The progress line's leader has the most points per game; on a tie, the
// first agent of the league; agents yet to play are left out.
func TestTallyLeader(t *testing.T) {
	l := &leaguefile.League{Agents: []*leaguefile.Agent{{Name: "ann"}, {Name: "bob"}, {Name: "cid"}, {Name: "dan"}}}
	tl := newTally(l)
	if got := tl.leader(); got != "" {
		t.Errorf("leader before any game: %q", got)
	}
	game := func(a, b string, winner int, draw bool) *record.Game {
		return &record.Game{Agents: [2]record.Agent{{Name: a}, {Name: b}}, Result: record.Result{Winner: winner, Draw: draw}}
	}
	tl.add(game("bob", "cid", 1, false)) // cid 1/1
	if got := tl.leader(); got != "cid 1/1" {
		t.Errorf("leader %q, want cid 1/1", got)
	}
	tl.add(game("bob", "ann", -1, true)) // ann 0.5/1, bob 0.5/2
	tl.add(game("ann", "cid", 0, false)) // ann 1.5/2 = 0.75, cid 1/2 = 0.5
	if got := tl.leader(); got != "ann 1.5/2" {
		t.Errorf("leader %q, want ann 1.5/2", got)
	}
	tl.add(game("bob", "cid", 0, false)) // bob 1.5/3, cid 1/3
	tl.add(game("bob", "cid", 0, false)) // bob 2.5/4 = 0.625
	tl.add(game("cid", "ann", 0, false)) // ann 1.5/3 = 0.5
	tl.add(game("bob", "ann", 1, false)) // ann 2.5/4 = 0.625, bob 2.5/5
	tl.add(game("cid", "bob", 1, false)) // bob 3.5/6 ≠; cid 2/6
	tl.add(game("ann", "bob", 1, false)) // ann 2.5/5 = 0.5, bob 4.5/7
	tl.add(game("ann", "cid", 0, false)) // ann 3.5/6
	tl.add(game("ann", "cid", 0, false)) // ann 4.5/7 = bob's 4.5/7
	if got := tl.leader(); got != "ann 4.5/7" {
		t.Errorf("leader %q, want ann 4.5/7 (tied with bob, and first)", got)
	}
	// Per game, not in total: cid's one win beats ann's one in two.
	tl = newTally(l)
	tl.add(game("ann", "bob", 0, false))
	tl.add(game("ann", "cid", 1, false))
	if got := tl.leader(); got != "cid 1/1" {
		t.Errorf("leader %q, want cid 1/1 (ann has 1/2)", got)
	}
}

// The set-up line says what will be played, and how.
func TestDescribe(t *testing.T) {
	g := bohnenspiel.Game{}
	prof, err := g.Profile(engine.Params{})
	if err != nil {
		t.Fatal(err)
	}
	l := &leaguefile.League{Name: "cup", Game: g, Profile: prof, Format: leaguefile.RoundRobin, Concurrency: 1, ConcurrencyWhy: "1 CPU slot",
		Agents: []*leaguefile.Agent{{Name: "ann"}, {Name: "bob"}}}
	var b strings.Builder
	describe(&b, l, 10, 4, false)
	want := "league cup: bohnenspiel under profile " + prof.Name + ", round-robin, 2 agents, 10 games (4 already played), 1 at a time (1 CPU slot)\n"
	if b.String() != want {
		t.Errorf("describe:\n%q\nwant\n%q", b.String(), want)
	}
	l.Format, l.Params = leaguefile.AB, engine.Params{"board": "9"}
	l.SPRT = leaguefile.SPRTConfig{Elo0: 0, Elo1: 20, Alpha: 0.05, Beta: 0.1, Model: leaguefile.Pentanomial}
	b.Reset()
	describe(&b, l, 100, 0, true)
	want = "league cup: bohnenspiel under profile " + prof.Name + ", params board=9, ab, 2 agents, 100 games (0 already played), on cluster workers (each with its own CPU slots)\n" +
		"  SPRT ann vs bob: elo0=0 elo1=20 alpha=0.05 beta=0.1, pentanomial, at most 100 games\n"
	if b.String() != want {
		t.Errorf("describe:\n%q\nwant\n%q", b.String(), want)
	}
}

// A pool of one slot is warned about (both agents share the core); two
// are not.
func TestWarnSlotsOnOneSlot(t *testing.T) {
	for n, wantWarn := range map[int]bool{1: true, 2: false} {
		cpus := []int{0, 1}[:n]
		pool, err := slots.New(t.TempDir(), slots.Machine{CPUs: cpus, N: n, Why: "test"})
		if err != nil {
			t.Fatal(err)
		}
		var warned []string
		warnSlots(pool, slots.Machine{CPUs: cpus, N: n, Why: "test"}, func(s string) { warned = append(warned, s) })
		got := false
		for _, w := range warned {
			got = got || strings.HasPrefix(w, "one CPU slot only (test)")
		}
		if got != wantWarn {
			t.Errorf("%d slot(s): warnings %q", n, warned)
		}
	}
}

// The machine is busy when either the load average or the tasks running
// now exceed the free slots; equal is not busy.
func TestBusy(t *testing.T) {
	for _, c := range []struct {
		load     float64
		runnable int
		want     bool
	}{{2, 2, false}, {2.01, 0, true}, {0, 3, true}, {1.99, 1, false}} {
		if got := busy(slots.Sample{Load: c.load, Runnable: c.runnable}, 2); got != c.want {
			t.Errorf("load %v, %d running, 2 free: busy %v, want %v", c.load, c.runnable, got, c.want)
		}
	}
}

func TestOrDefault(t *testing.T) {
	if orDefault(0, 50) != 50 || orDefault(-1, 50) != 50 || orDefault(1, 50) != 1 {
		t.Error("orDefault: an unset (not positive) value takes the default, any other is kept")
	}
	if orDefault(time.Duration(0), time.Second) != time.Second {
		t.Error("orDefault of a zero duration")
	}
}

// Only per-move profiles time moves by the wall clock, and so need CPU
// slots.
func TestWallClock(t *testing.T) {
	perMove := &leaguefile.League{Profile: engine.Profile{Time: engine.PerMove}}
	budget := &leaguefile.League{Profile: engine.Profile{Time: engine.CPUBudget}}
	if wallClock(&leaguefile.Spec{Leagues: []*leaguefile.League{budget}}) {
		t.Error("a CPU-budget league timed by the wall clock")
	}
	if !wallClock(&leaguefile.Spec{Leagues: []*leaguefile.League{budget, perMove}}) {
		t.Error("a per-move league not timed by the wall clock")
	}
}

func TestSeatCPUs(t *testing.T) {
	at := map[string][]int{"a": {4}, "b": {6}, "far": {9}}
	pinned := func(n string) []int { return at[n] }
	for _, c := range []struct {
		cpus   []int
		names  [2]string
		pinned func(string) []int
		want   [2][]int
	}{
		{[]int{4, 6}, [2]string{"b", "a"}, nil, [2][]int{{4}, {6}}},        // nothing known: seat order
		{[]int{4, 6}, [2]string{"a", "b"}, pinned, [2][]int{{4}, {6}}},     // both stay
		{[]int{4, 6}, [2]string{"b", "a"}, pinned, [2][]int{{6}, {4}}},     // swapped seats: both stay
		{[]int{4, 6}, [2]string{"new", "a"}, pinned, [2][]int{{6}, {4}}},   // one kept, on seat 0's CPU
		{[]int{4, 6}, [2]string{"far", "new"}, pinned, [2][]int{{4}, {6}}}, // kept elsewhere: seat order
		{[]int{4, 6}, [2]string{"far", "a"}, pinned, [2][]int{{6}, {4}}},   // one can stay
		{[]int{5}, [2]string{"b", "a"}, pinned, [2][]int{{5}, {5}}},        // one CPU: shared
		{[]int{6, 4}, [2]string{"a", "b"}, pinned, [2][]int{{4}, {6}}},     // the lease's order does not matter
	} {
		if got := seatCPUs(c.cpus, c.names, c.pinned); !reflect.DeepEqual(got, c.want) {
			t.Errorf("seatCPUs(%v, %v): %v, want %v", c.cpus, c.names, got, c.want)
		}
	}
}
