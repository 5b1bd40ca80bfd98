package cli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"arena/arena/referee"
	"arena/engine"
	"arena/plugins/host"
)

// The pre-flight check gives an agent the same time to start as its game
// would: a stricter limit refused, on a busy machine, a course Python agent
// whose imports and table took longer than 10 s but well within the 30 s
// the game allows.
func TestPreflightLimitIsTheGamesStartupAllowance(t *testing.T) {
	var e Env
	withStartup := checkItem{profile: engine.Profile{StartupTimeout: 30 * time.Second}}
	if got := e.preflightLimit(withStartup); got != 30*time.Second {
		t.Errorf("profile with a 30s start-up allowance: limit %v, want 30s", got)
	}
	short := checkItem{profile: engine.Profile{StartupTimeout: 6 * time.Second}}
	if got := e.preflightLimit(short); got != 6*time.Second {
		t.Errorf("profile with a 6s start-up allowance: limit %v, want 6s", got)
	}
	if got := e.preflightLimit(checkItem{}); got != defaultPreflightTimeout {
		t.Errorf("profile without one: limit %v, want the default %v", got, defaultPreflightTimeout)
	}
	e.PreflightTimeout = 5 * time.Second
	if got := e.preflightLimit(withStartup); got != 5*time.Second {
		t.Errorf("a limit set on the env: %v, want 5s", got)
	}
}

// The pre-flight check launches a course agent under the memory rule its
// game applies to that runtime: a Cachex package gets the course's
// Python rule (its process tree held only to the safety ceiling), not the
// 100 MiB resident limit of native agents, which refused a package whose
// table its course let it keep.
func TestPreflightAppliesTheCoursesMemoryRule(t *testing.T) {
	pkg := t.TempDir()
	if err := os.WriteFile(filepath.Join(pkg, "__init__.py"), []byte("from .player import Player\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	prof := engine.Profile{MemoryMB: 100, PythonPeakMB: 200, PythonCeilingMB: 2048}
	cases := []struct {
		ref  string
		want int
	}{
		{"course:" + pkg, 2048},
		{"builtin:random", 100},
	}
	for _, c := range cases {
		var got host.Options
		refuse := errors.New("not started")
		launch := func(_ context.Context, _ referee.Player, opt host.Options) (referee.Handle, error) {
			got = opt
			return nil, refuse
		}
		it := checkItem{player: referee.Player{Name: "a", Ref: c.ref}, profile: prof}
		if err := checkOne(context.Background(), launch, it, time.Minute); !errors.Is(err, refuse) {
			t.Fatalf("%s: %v", c.ref, err)
		}
		if got.MemoryMB != c.want {
			t.Errorf("%s launched with a %d MiB tree limit, want %d", c.ref, got.MemoryMB, c.want)
		}
	}
}
