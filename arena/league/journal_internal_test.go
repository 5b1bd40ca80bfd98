package league

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/record"
)

func TestJournalReadsCompleteLinesOnly(t *testing.T) {
	dir := t.TempDir()
	j, err := openJournal(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"g1", "g2"} {
		if err := j.append("L", &record.Game{ID: id}); err != nil {
			t.Fatal(err)
		}
	}
	// A write cut short by a kill: no newline.
	if _, err := j.f.WriteString(`{"league":"L","record":{"id":"g3"`); err != nil {
		t.Fatal(err)
	}
	j.close()
	got, err := readJournal(filepath.Join(dir, JournalFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Record.ID != "g1" || got[1].Record.ID != "g2" || got[1].League != "L" {
		t.Fatalf("entries %+v, want g1 and g2 of league L", got)
	}
}

func TestJournalRefusesADamagedLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), JournalFile)
	body := `{"league":"L","record":{"id":"g1"}}` + "\nnot json\n" + `{"league":"L","record":{"id":"g2"}}` + "\n"
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := readJournal(path)
	if err == nil || !strings.Contains(err.Error(), path+":2") {
		t.Fatalf("err %v, want one naming %s:2", err, path)
	}
}

func TestJournalResetEmptiesIt(t *testing.T) {
	dir := t.TempDir()
	j, err := openJournal(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer j.close()
	if err := j.append("L", &record.Game{ID: "g1"}); err != nil {
		t.Fatal(err)
	}
	if err := j.reset(); err != nil {
		t.Fatal(err)
	}
	if err := j.append("L", &record.Game{ID: "g2"}); err != nil {
		t.Fatal(err)
	}
	got, err := readJournal(filepath.Join(dir, JournalFile))
	if err != nil || len(got) != 1 || got[0].Record.ID != "g2" {
		t.Fatalf("after reset and one append: %+v %v", got, err)
	}
}
