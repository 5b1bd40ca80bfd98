package main

import (
	"context"
	"math"
	"os"
	"testing"

	"arena/agents"
	"arena/agents/builtin"
	"arena/arena/referee"
	"arena/games/all"
	"arena/plugins/host"
)

// TestMain lets the test binary host the agents, as the command does.
func TestMain(m *testing.M) {
	if len(os.Args) > 2 && os.Args[1] == agents.HostArg {
		if err := agents.Serve(os.Args[2]); err != nil {
			os.Exit(1)
		}
		return
	}
	os.Exit(m.Run())
}

// The short version of the ladder: strong and baseline against random,
// two Bohnenspiel games each through the referee with subprocess agents.
// The bots think for a tenth of a generous 2 s limit, so a loaded machine
// cannot make them late. Every game must be played to its end with no
// penalty; who wins is the ladder's to measure, not this test's.
func TestShortLadder(t *testing.T) {
	if testing.Short() {
		t.Skip("plays real games")
	}
	l := &host.Launcher{Self: []string{os.Args[0], agents.HostArg}, Builtins: builtin.Names(), StderrBytes: 8192}
	ref := &referee.Referee{Launch: referee.HostLauncher(l)}
	g, err := all.Registry().Lookup("bohnenspiel")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []pairing{{"strong?time=0.1", "random"}, {"baseline?time=0.1", "random"}} {
		var tl tally
		for i := 0; i < 2; i++ {
			m := match(g, p, i, 9)
			for _, kv := range [][2]string{{"move-limit", "2s"}, {"first-move-limit", "2s"}} {
				if _, err := m.Profile.Apply(kv[0], kv[1]); err != nil {
					t.Fatal(err)
				}
			}
			rec, err := ref.Play(context.Background(), m)
			if err != nil {
				t.Fatal(err)
			}
			add(&tl, rec, i%2 == 1)
			for _, e := range rec.Events {
				t.Errorf("%s: %s %s", rec.ID, e.Kind, e.Detail)
			}
		}
		if tl.games != 2 {
			t.Errorf("%s vs %s: %d games counted, want 2", p.a, p.b, tl.games)
		}
	}
}

// The Wilson interval of a clean sweep reaches 1 and stays above 0; of an
// even score it is centred on one half.
func TestWilson(t *testing.T) {
	if lo, hi := wilson(2, 2); lo <= 0 || hi != 1 {
		t.Errorf("interval %v–%v for two wins of two", lo, hi)
	}
	if lo, hi := wilson(5, 10); math.Abs((lo+hi)/2-0.5) > 1e-9 || lo <= 0.1 || hi >= 0.9 {
		t.Errorf("interval %v–%v for five points of ten", lo, hi)
	}
	if lo, hi := wilson(0, 0); lo != 0 || hi != 1 {
		t.Errorf("interval %v–%v for no games", lo, hi)
	}
}

// Pairing names become agent references: bare names are house bots,
// anything with a kind is taken as it is; each game's example is its Lua
// script.
func TestAgentRefs(t *testing.T) {
	if got := agentRef("strong?time=0.1"); got != "builtin:strong?time=0.1" {
		t.Errorf("agentRef(strong?time=0.1) = %q", got)
	}
	p := examplePairing("bohnenspiel")
	if got := agentRef(p.a); got != "lua:agents/lua/examples/bohnenspiel.lua" {
		t.Errorf("example ref = %q", got)
	}
	if _, err := os.Stat("../../agents/lua/examples/bohnenspiel.lua"); err != nil {
		t.Errorf("the example the bench plays is missing: %v", err)
	}
}
