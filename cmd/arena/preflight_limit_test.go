package main

import (
	"testing"
	"time"

	"arena/engine"
)

// The pre-flight check gives an agent the same time to start as its game
// would: a stricter limit refused, on a busy machine, a course Python agent
// whose imports and table took longer than 10 s but well within the 30 s
// the game allows.
func TestPreflightLimitIsTheGamesStartupAllowance(t *testing.T) {
	var e env
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
	e.preflightTimeout = 5 * time.Second
	if got := e.preflightLimit(withStartup); got != 5*time.Second {
		t.Errorf("a limit set on the env: %v, want 5s", got)
	}
}
