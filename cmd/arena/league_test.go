package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/arena/record"
)

// buildArena builds the arena binary once per test run: it hosts its own
// built-in and Lua agents, as the README's command does.
func buildArena(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the arena binary")
	}
	// The init beside it, of the same build, as `go build -o DIR
	// ./cmd/...` leaves them: the arena starts each sandbox with it.
	bin, err := builds.binary(".")
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

type result struct {
	stdout, stderr string
	err            error
}

func arena(t *testing.T, ctx context.Context, bin string, args ...string) result {
	t.Helper()
	return arenaEnv(t, ctx, bin, nil, args...)
}

func arenaEnv(t *testing.T, ctx context.Context, bin string, env []string, args ...string) result {
	t.Helper()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return result{out.String(), errb.String(), err}
}

// The README's demo league completes and prints standings; its records
// replay; standings and exports read the same directory.
func TestDemoLeague(t *testing.T) {
	t.Parallel() // its own processes and directories; mostly waiting on them
	bin := buildArena(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir := filepath.Join(t.TempDir(), "demo")

	// The README's league file with two games per pairing, not its four:
	// both colours of every pairing still play, and the checks below (the
	// tables, the counts, every record replayed) prove as much on 30 games
	// as on 60, all but 6 of them played one at a time.
	demo := []string{"league", "run", "../../configs/demo.yaml", "--output", dir, "--games-per-pairing", "2"}
	start := time.Now()
	r := arena(t, ctx, bin, demo...)
	if r.err != nil {
		t.Fatalf("league run: %v\nstdout:\n%s\nstderr:\n%s", r.err, r.stdout, r.stderr)
	}
	t.Logf("demo league: %v\n%s", time.Since(start).Round(time.Millisecond), r.stdout)
	for _, want := range []string{
		"league demo/bohnenspiel: bohnenspiel, profile comp424-2017, round-robin, 6 of 6 games played",
		"league demo/cachex: cachex, profile comp30024-2022, params n=5, round-robin, 6 of 6 games played",
		"league demo/pentago-twist:",
		"RANK  AGENT", "95% CI", "cross-table", "colour-swapped pairs", "lua-example", "greedy", "random",
		"30 game(s) played", "league demo/dots-and-boxes:", "league demo/hex-crossout:",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	// Not a terminal: plain progress lines.
	if !strings.Contains(r.stderr, "[30/30]") {
		t.Errorf("no progress lines on stderr:\n%s", r.stderr)
	}

	// Again: nothing to play.
	r = arena(t, ctx, bin, demo...)
	if r.err != nil || !strings.Contains(r.stdout, "0 game(s) played") || !strings.Contains(r.stdout, "6 games (6 already played)") {
		t.Errorf("second run: %v\n%s\n%s", r.err, r.stdout, r.stderr)
	}
	// A changed configuration is refused.
	r = arena(t, ctx, bin, append(demo, "--seed", "2")...)
	if r.err == nil || !strings.Contains(r.stderr, "different configuration") || !strings.Contains(r.stderr, "seed: 1 -> 2") {
		t.Errorf("changed seed: %v\n%s", r.err, r.stderr)
	}

	r = arena(t, ctx, bin, "league", "standings", dir, "--league", "demo/cachex")
	if r.err != nil || !strings.Contains(r.stdout, "league demo/cachex") || strings.Contains(r.stdout, "demo/bohnenspiel") {
		t.Errorf("standings: %v\n%s%s", r.err, r.stdout, r.stderr)
	}
	// The league file finds its directory (here moved by ARENA_OUTPUT).
	r = arenaEnv(t, ctx, bin, []string{"ARENA_OUTPUT=" + dir}, "league", "export", "../../configs/demo.yaml", "--format", "csv", "--table", "standings")
	if r.err != nil || strings.Count(r.stdout, "\n") != 1+15 || !strings.HasPrefix(r.stdout, "league,rank,agent,") {
		t.Errorf("standings csv: %v\n%s%s", r.err, r.stdout, r.stderr)
	}
	r = arena(t, ctx, bin, "league", "export", dir, "--format", "json", "--table", "games")
	var rows []map[string]any
	if r.err != nil || json.Unmarshal([]byte(r.stdout), &rows) != nil || len(rows) != 30 {
		t.Errorf("games json: %v, %d rows\n%s", r.err, len(rows), r.stderr)
	}

	// Records: export, replay every game, replay one move by move.
	recs := filepath.Join(t.TempDir(), "demo.jsonl")
	r = arena(t, ctx, bin, "league", "export", dir, "--format", "jsonl", "-o", recs)
	if r.err != nil {
		t.Fatalf("export jsonl: %v\n%s", r.err, r.stderr)
	}
	r = arena(t, ctx, bin, "replay", recs, "--quiet")
	if r.err != nil || !strings.Contains(r.stdout, "30 game(s) replayed; every final board matches") {
		t.Fatalf("replay: %v\n%s%s", r.err, r.stdout, r.stderr)
	}
	first := firstRecord(t, filepath.Join(dir, "records.jsonl"))
	r = arena(t, ctx, bin, "replay", recs, "--game", first.ID)
	if r.err != nil || !strings.Contains(r.stdout, "final (matches the record)") || !strings.Contains(r.stdout, "   1. ") ||
		!strings.Contains(r.stdout, "1 game(s) replayed") {
		t.Fatalf("replay one game: %v\n%s%s", r.err, r.stdout, r.stderr)
	}

	// A tampered record does not replay.
	first.Final = "not the final board"
	line, _ := first.MarshalLine()
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	if err := os.WriteFile(bad, line, 0o644); err != nil {
		t.Fatal(err)
	}
	r = arena(t, ctx, bin, "replay", bad)
	if r.err == nil || !strings.Contains(r.stdout, "DOES NOT REPLAY: final board differs") {
		t.Fatalf("tampered replay: %v\n%s%s", r.err, r.stdout, r.stderr)
	}

	// A broken league file: one message naming the file and the key.
	broken := filepath.Join(t.TempDir(), "broken.yaml")
	os.WriteFile(broken, []byte("game: bohnenspiel\nagents:\n  - name: a\n    agent: random\n  - name: b\n    agent: random\nconcurrancy: 2\n"), 0o644)
	r = arena(t, ctx, bin, "league", "run", broken)
	// After the line saying the file is being loaded, the one error line.
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	if r.err == nil || len(lines) != 2 || lines[1] != "arena: "+broken+`: concurrancy: unknown key (did you mean "concurrency"?)` {
		t.Errorf("broken file: %v\n%q", r.err, r.stderr)
	}
}

func firstRecord(t *testing.T, path string) *record.Game {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	if !sc.Scan() {
		t.Fatalf("%s is empty", path)
	}
	var g record.Game
	if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
		t.Fatal(err)
	}
	return &g
}
