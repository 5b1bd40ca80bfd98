package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"arena/cmd/arena/internal/clitest"
)

// TestReplayDrawsEveryMove plays two short Cachex games into a records
// file and replays them: a board after every move, each move timed against
// the CPU budget, the result in the game's terms; --from skips the early
// boards; --step stops when told to.
func TestReplayDrawsEveryMove(t *testing.T) {
	t.Parallel() // its own directories and agents; nothing it asserts is timed
	clitest.LongRunning(t)
	recs := filepath.Join(t.TempDir(), "games.jsonl")
	e, out, _ := testEnv(t)
	if err := run(t, e, "play", "cachex", "random", "greedy", "--games", "2", "--seed", "5", "--param", "n=3", "--records", recs); err != nil {
		t.Fatalf("play: %v\n%s", err, out)
	}
	e, out, _ = testEnv(t)
	if err := run(t, e, "replay", recs); err != nil {
		t.Fatalf("replay: %v\n%s", err, out)
	}
	text := out.String()
	moves := regexp.MustCompile(`(?m)^ +\d+\. (random|greedy) +(PLACE \d \d|STEAL) +CPU [0-9.]+ m?s of 9 s used$`).FindAllString(text, -1)
	// Every position of an n=3 board is drawn as three rows of the rhombus
	// with the column line under them: one per move plus the two starts.
	boards := strings.Count(text, "q  0 1 2\n")
	if len(moves) == 0 || boards != len(moves)+2 {
		t.Fatalf("%d timed move lines and %d boards; want one board per move plus two starts:\n%s", len(moves), boards, text)
	}
	if !strings.Contains(text, "time: a CPU budget of 9s per player per game") ||
		!regexp.MustCompile(`(?m)^result: (random|greedy) \(seat [01], (red|blue)\) wins`).MatchString(text) ||
		!strings.Contains(text, "2 game(s) replayed; every final board matches") {
		t.Fatalf("missing time rule, result or summary:\n%s", text)
	}

	// --from 3: the start and the first two boards are not drawn.
	e, out, _ = testEnv(t)
	if err := run(t, e, "replay", recs, "--from", "3"); err != nil {
		t.Fatalf("replay --from: %v\n%s", err, out)
	}
	if got := strings.Count(out.String(), "q  0 1 2\n"); got != boards-2*3 {
		t.Errorf("--from 3 drew %d boards, want %d", got, boards-6)
	}
	if strings.Contains(out.String(), "start:") {
		t.Error("--from 3 drew the start")
	}

	// --step reading lines: one Enter, then q stops after two boards.
	e, out, _ = testEnv(t)
	root := NewRoot(e)
	root.SetIn(strings.NewReader("\nq\n"))
	root.SetArgs([]string{"replay", recs, "--step"})
	if err := root.Execute(); err != nil {
		t.Fatalf("replay --step: %v\n%s", err, out)
	}
	if got := strings.Count(out.String(), "q  0 1 2\n"); got != 3 {
		t.Errorf("--step with Enter, q drew %d boards, want 3 (start, two moves):\n%s", got, out)
	}
}

// TestReplayByGameID finds a game by its id in a league's store, read-only.
func TestReplayByGameID(t *testing.T) {
	t.Parallel() // its own directories and agents; nothing it asserts is timed
	clitest.LongRunning(t)
	work := t.TempDir()
	file := filepath.Join(work, "l.yaml")
	out := filepath.Join(work, "results", "l")
	if err := os.WriteFile(file, []byte("name: l\ngame: hex-crossout\nparams:\n  free: 14\n  seed: 2\nagents:\n  - name: a\n    agent: builtin:greedy\n  - name: b\n    agent: builtin:random\ngames_per_pairing: 2\noutput: "+out+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e, buf, _ := testEnv(t)
	if err := run(t, e, "league", "run", file); err != nil {
		t.Fatalf("league run: %v\n%s", err, buf)
	}
	rec := clitest.FirstRecord(t, filepath.Join(out, "records.jsonl"))
	before, err := os.ReadFile(filepath.Join(out, "results.db"))
	if err != nil {
		t.Fatal(err)
	}
	e, buf, _ = testEnv(t)
	if err := run(t, e, "replay", rec.ID, "--results", filepath.Join(work, "results")); err != nil {
		t.Fatalf("replay %s: %v\n%s", rec.ID, err, buf)
	}
	text := buf.String()
	if !strings.Contains(text, "game "+rec.ID) || !strings.Contains(text, "cells crossed out (not points") ||
		!strings.Contains(text, "1 game(s) replayed; every final board matches") {
		t.Fatalf("replay by id:\n%s", text)
	}
	after, _ := os.ReadFile(filepath.Join(out, "results.db"))
	if string(before) != string(after) {
		t.Error("replaying from the store changed it")
	}
	e, buf, _ = testEnv(t)
	if err := run(t, e, "replay", "l/no-such-game", "--results", filepath.Join(work, "results")); err == nil || !strings.Contains(err.Error(), "no game with that id") {
		t.Fatalf("unknown id: %v\n%s", err, buf)
	}
}

// A game id of a mebibyte is refused at once, quoting a bounded part of it.
func TestReplayHugeID(t *testing.T) {
	e, out, _ := testEnv(t)
	id := strings.Repeat("x", 1<<20)
	err := run(t, e, "replay", id, "--results", t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "at most 4096 bytes") || len(err.Error()) > 200 {
		t.Fatalf("replay of a 1 MiB id: %.300v", err)
	}
	if out.Len() > 200 {
		t.Fatalf("replay printed %d bytes", out.Len())
	}
}
