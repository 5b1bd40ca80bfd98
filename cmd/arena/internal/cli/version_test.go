package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/buildinfo"
	"arena/arena/record"
	"arena/cmd/arena/internal/clitest"
)

// arena version and arena --version print the build; records and
// standings carry its stamp.
func TestVersionStamp(t *testing.T) {
	t.Parallel() // its own directories and agents; nothing it asserts is timed
	clitest.LongRunning(t)
	want := buildinfo.Current()
	for _, args := range [][]string{{"version"}, {"--version"}} {
		e, out, _ := testEnv(t)
		if err := run(t, e, args...); err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		if out.String() != want.String() || !strings.Contains(out.String(), "go:       "+want.Go) {
			t.Errorf("%v printed %q, want %q", args, out, want.String())
		}
	}
	records := filepath.Join(t.TempDir(), "games.jsonl")
	e, out, _ := testEnv(t)
	if err := run(t, e, "play", "bohnenspiel", "random", "greedy", "--games", "2", "--records", records); err != nil {
		t.Fatalf("play: %v\n%s", err, out)
	}
	f, err := os.Open(records)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rec, err := record.NewReader(f).Next()
	if err != nil {
		t.Fatal(err)
	}
	if rec.Arena != want.Stamp() {
		t.Errorf("record's arena %q, want %q", rec.Arena, want.Stamp())
	}
	root := t.TempDir()
	file := clitest.LeagueFile(t, root, "v.yaml", "")
	e, out, _ = testEnv(t)
	if err := run(t, e, "league", "run", file); err != nil {
		t.Fatalf("league run: %v\n%s", err, out)
	}
	if !strings.Contains(out.String(), "refereed by "+want.Stamp()+"\n") {
		t.Errorf("standings do not name the arena build:\n%s", out)
	}
}

// A record written before the stamp existed still reads.
func TestRecordWithoutStampReads(t *testing.T) {
	line := `{"schema":1,"id":"old","game":"bohnenspiel","profile":"comp424-2017","seed":1,"agents":[{"name":"a"},{"name":"b"}],"start_board":"","moves":[],"result":{"winner":-1,"draw":true},"final_board":"","stderr":["",""],"started":"2026-01-01T00:00:00Z","ended":"2026-01-01T00:00:01Z"}` + "\n"
	rec, err := record.NewReader(strings.NewReader(line)).Next()
	if err != nil || rec.ID != "old" || rec.Arena != "" {
		t.Fatalf("old record: %+v, %v", rec, err)
	}
}
