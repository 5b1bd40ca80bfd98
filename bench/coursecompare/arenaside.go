package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"arena/arena/record"
)

// arenaSide plays the same agents through the arena's course adapter.
type arenaSide struct {
	bin, python, records, cache string
}

// play plays one game of the course agent ref against builtin:random.
func (a *arenaSide) play(ctx context.Context, game, ref string, params []string, first bool, n int) (tally, error) {
	agents := []string{ref, "builtin:random"}
	if !first {
		agents[0], agents[1] = agents[1], agents[0]
	}
	recs := filepath.Join(a.records, fmt.Sprintf("%s-%d.jsonl", strings.NewReplacer("/", "_", ":", "_", "?", "_", "=", "_").Replace(filepath.Base(ref)), n))
	// --allow-broken: an agent the pre-flight check refuses (one over its
	// memory limit at start) plays its game, recorded with the course's
	// penalty, as the course's referee played it.
	args := []string{"play", game, agents[0], agents[1], "--games", "1", "--seed", fmt.Sprint(n + 1), "--records", recs, "--allow-broken"}
	for _, p := range params {
		args = append(args, "--param", p)
	}
	cmd := exec.CommandContext(ctx, a.bin, args...)
	cmd.Env = append(os.Environ(), "ARENA_COURSE_CACHE="+a.cache, "ARENA_PYTHON="+a.python)
	out, err := cmd.CombinedOutput()
	// A game lost to a failure exits 0, or 3 when the agent made no move
	// of its own in it (died on its first move): the record is what counts.
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 3 && exists(recs)) {
		return tally{}, fmt.Errorf("arena play: %v\n%s", err, out)
	}
	return readArenaGame(recs)
}

// readArenaGame reads what the referee judged for the course agent's seat.
func readArenaGame(path string) (tally, error) {
	f, err := os.Open(path)
	if err != nil {
		return tally{}, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	var t tally
	for sc.Scan() {
		var g record.Game
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			return t, fmt.Errorf("%s: %w", path, err)
		}
		seat := 0
		if !strings.HasPrefix(g.Agents[0].Ref, "course:") {
			seat = 1
		}
		t.games++
		for _, m := range g.Moves {
			if m.Seat == seat {
				t.moves++
				if m.Source == record.SourceRandom {
					t.substituted++
				}
			}
		}
		died := false
		for _, e := range g.Events {
			if e.Seat != seat {
				continue
			}
			switch e.Kind {
			case "late", "timeout":
				if e.Evidence != nil && e.Evidence.PossiblyContention {
					t.contention++
				}
			case "memory":
				t.memory++
				died = true
			case "dead":
				if strings.Contains(g.Stderr[seat], "OutOfMemoryError") {
					t.memory++
				}
				died = true
			}
		}
		if died {
			t.died++
		}
		if g.Result.Forfeit != "" && g.Result.Winner == 1-seat {
			t.lost++
			if g.Result.Forfeit == "timeout" {
				t.time++
			}
		}
	}
	if t.games == 0 {
		return t, fmt.Errorf("%s: %w", path, errNoGame)
	}
	return t, sc.Err()
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
