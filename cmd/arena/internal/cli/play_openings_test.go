package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"arena/arena/record"
	"arena/cmd/arena/internal/clitest"
)

// play --openings starts each pair of games from the suite's next
// opening, with colours swapped, round the suite; a bad file is refused
// with its line.
func TestPlayFromOpenings(t *testing.T) {
	t.Parallel() // its own folder and agent processes; nothing timed
	clitest.LongRunning(t)
	dir := t.TempDir()
	suite := filepath.Join(dir, "openings.txt")
	if err := os.WriteFile(suite, []byte("PIT 0 0; PIT 1 0\nPIT 0 5; PIT 1 5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	recs := filepath.Join(dir, "records.jsonl")
	e, out, errb := testEnv(t)
	if err := run(t, e, "play", "bohnenspiel", "random", "greedy", "--games", "6", "--openings", suite, "--records", recs); err != nil {
		t.Fatalf("play: %v\n%s", err, errb)
	}
	if !strings.Contains(out.String(), "openings: 2 from file "+suite) {
		t.Errorf("the suite is not announced:\n%s", out)
	}
	f, err := os.Open(recs)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	byID := map[string]record.Game{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var g record.Game
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			t.Fatal(err)
		}
		byID[g.ID] = g
	}
	if len(byID) != 6 {
		t.Fatalf("%d records, want 6", len(byID))
	}
	for id, g := range byID {
		i, err := strconv.Atoi(id[strings.LastIndex(id, "-g")+2:])
		if err != nil {
			t.Fatalf("play id %q: %v", id, err)
		}
		want := (i / 2) % 2
		if g.Opening == nil || g.Opening.Index != want || len(g.Moves) < 2 || g.Moves[0].Source != record.SourceOpening {
			t.Errorf("game %d: opening %+v, first moves %+v; want opening %d played first", i, g.Opening, g.Moves[:min(2, len(g.Moves))], want)
		}
	}
	if err := os.WriteFile(suite, []byte("PIT 0 0\nPIT 9 9\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	e, _, _ = testEnv(t)
	err = run(t, e, "play", "bohnenspiel", "random", "greedy", "--openings", suite)
	if err == nil || !strings.Contains(err.Error(), "--openings") || !strings.Contains(err.Error(), ":2") {
		t.Fatalf("a bad suite: %v, want the flag and the line named", err)
	}
}
