package classleague

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/cmd/arena/internal/clitest"
)

// The README's demo league completes and prints standings; its records
// replay; standings and exports read the same directory.
func TestDemoLeague(t *testing.T) {
	t.Parallel() // its own processes and directories; mostly waiting on them
	bin := clitest.BuildArena(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dir := filepath.Join(t.TempDir(), "demo")

	// The README's league file with two games per pairing, not its four:
	// both colours of every pairing still play, and the checks below (the
	// tables, the counts, every record replayed) prove as much on 30 games
	// as on 60, all but 6 of them played one at a time.
	demo := []string{"league", "run", clitest.Path("configs/demo.yaml"), "--output", dir, "--games-per-pairing", "2"}
	start := time.Now()
	r := clitest.Arena(t, ctx, bin, demo...)
	if r.Err != nil {
		t.Fatalf("league run: %v\nstdout:\n%s\nstderr:\n%s", r.Err, r.Stdout, r.Stderr)
	}
	t.Logf("demo league: %v\n%s", time.Since(start).Round(time.Millisecond), r.Stdout)
	for _, want := range []string{
		"league demo/bohnenspiel: bohnenspiel, profile comp424-2017, round-robin, 6 of 6 games played",
		"league demo/cachex: cachex, profile comp30024-2022, params n=5, round-robin, 6 of 6 games played",
		"league demo/pentago-twist:",
		"RANK  AGENT", "95% CI", "cross-table", "colour-swapped pairs", "lua-example", "greedy", "random",
		"30 game(s) played", "league demo/dots-and-boxes:", "league demo/hex-crossout:",
	} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	// Not a terminal: plain progress lines.
	if !strings.Contains(r.Stderr, "[30/30]") {
		t.Errorf("no progress lines on stderr:\n%s", r.Stderr)
	}

	// Again: nothing to play.
	r = clitest.Arena(t, ctx, bin, demo...)
	if r.Err != nil || !strings.Contains(r.Stdout, "0 game(s) played") || !strings.Contains(r.Stdout, "6 games (6 already played)") {
		t.Errorf("second run: %v\n%s\n%s", r.Err, r.Stdout, r.Stderr)
	}
	// A changed configuration is refused.
	r = clitest.Arena(t, ctx, bin, append(demo, "--seed", "2")...)
	if r.Err == nil || !strings.Contains(r.Stderr, "different configuration") || !strings.Contains(r.Stderr, "seed: 1 -> 2") {
		t.Errorf("changed seed: %v\n%s", r.Err, r.Stderr)
	}

	r = clitest.Arena(t, ctx, bin, "league", "standings", dir, "--league", "demo/cachex")
	if r.Err != nil || !strings.Contains(r.Stdout, "league demo/cachex") || strings.Contains(r.Stdout, "demo/bohnenspiel") {
		t.Errorf("standings: %v\n%s%s", r.Err, r.Stdout, r.Stderr)
	}
	// The league file finds its directory (here moved by ARENA_OUTPUT).
	r = clitest.ArenaEnv(t, ctx, bin, []string{"ARENA_OUTPUT=" + dir}, "league", "export", clitest.Path("configs/demo.yaml"), "--format", "csv", "--table", "standings")
	if r.Err != nil || strings.Count(r.Stdout, "\n") != 1+15 || !strings.HasPrefix(r.Stdout, "league,rank,agent,") {
		t.Errorf("standings csv: %v\n%s%s", r.Err, r.Stdout, r.Stderr)
	}
	r = clitest.Arena(t, ctx, bin, "league", "export", dir, "--format", "json", "--table", "games")
	var rows []map[string]any
	if r.Err != nil || json.Unmarshal([]byte(r.Stdout), &rows) != nil || len(rows) != 30 {
		t.Errorf("games json: %v, %d rows\n%s", r.Err, len(rows), r.Stderr)
	}

	// Records: export, replay every game, replay one move by move.
	recs := filepath.Join(t.TempDir(), "demo.jsonl")
	r = clitest.Arena(t, ctx, bin, "league", "export", dir, "--format", "jsonl", "-o", recs)
	if r.Err != nil {
		t.Fatalf("export jsonl: %v\n%s", r.Err, r.Stderr)
	}
	r = clitest.Arena(t, ctx, bin, "replay", recs, "--quiet")
	if r.Err != nil || !strings.Contains(r.Stdout, "30 game(s) replayed; every final board matches") {
		t.Fatalf("replay: %v\n%s%s", r.Err, r.Stdout, r.Stderr)
	}
	first := clitest.FirstRecord(t, filepath.Join(dir, "records.jsonl"))
	r = clitest.Arena(t, ctx, bin, "replay", recs, "--game", first.ID)
	if r.Err != nil || !strings.Contains(r.Stdout, "final (matches the record)") || !strings.Contains(r.Stdout, "   1. ") ||
		!strings.Contains(r.Stdout, "1 game(s) replayed") {
		t.Fatalf("replay one game: %v\n%s%s", r.Err, r.Stdout, r.Stderr)
	}

	// A tampered record does not replay.
	first.Final = "not the final board"
	line, _ := first.MarshalLine()
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	if err := os.WriteFile(bad, line, 0o644); err != nil {
		t.Fatal(err)
	}
	r = clitest.Arena(t, ctx, bin, "replay", bad)
	if r.Err == nil || !strings.Contains(r.Stdout, "DOES NOT REPLAY: final board differs") {
		t.Fatalf("tampered replay: %v\n%s%s", r.Err, r.Stdout, r.Stderr)
	}

	// A broken league file: one message naming the file and the key.
	broken := filepath.Join(t.TempDir(), "broken.yaml")
	os.WriteFile(broken, []byte("game: bohnenspiel\nagents:\n  - name: a\n    agent: random\n  - name: b\n    agent: random\nconcurrancy: 2\n"), 0o644)
	r = clitest.Arena(t, ctx, bin, "league", "run", broken)
	// After the line saying the file is being loaded, the one error line.
	lines := strings.Split(strings.TrimSpace(r.Stderr), "\n")
	if r.Err == nil || len(lines) != 2 || lines[1] != "arena: "+broken+`: concurrancy: unknown key (did you mean "concurrency"?)` {
		t.Errorf("broken file: %v\n%q", r.Err, r.Stderr)
	}
}
