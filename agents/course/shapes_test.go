package course_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// submission copies the test repository to a folder of its own, the way
// real submissions arrive: with a stale, partial bin/ from the student's
// IDE (a Client.class that is not a class file, a StudentPlayer.class
// from an older source) and a large file nothing reads.
func submission(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "c424-submission")
	if err := exec.Command("cp", "-r", "testdata/comp424/pentago", dir).Run(); err != nil {
		t.Fatal(err)
	}
	stale := map[string]string{
		"bin/boardgame/Client.class":             "not a class file",
		"bin/student_player/StudentPlayer.class": "an older build",
	}
	for name, body := range stale {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// 256 MiB that no move reads (a training set, a saved model): sparse,
	// so the test writes almost nothing.
	f, err := os.Create(filepath.Join(dir, "data", "training-games.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(256 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	return dir
}

// TestComp424SubmissionShapes: the shapes real COMP424 submissions take
// keep working, from both seats: a new thread pool of workers for every
// move with Future.get timeouts, a book read relative to the repository
// root on the first move, debug lines on stdout (kept in the log, off the
// protocol), a stale partial bin/ (compiled from src/ instead) and a
// large unused file in the repository.
func TestComp424SubmissionShapes(t *testing.T) {
	longRunning(t)
	t.Parallel()
	needJava(t)
	needJavaCompile(t)
	ref := "course:" + submission(t) + "?class=student_player.Threads"
	cleanFromBothSeats(t, "pentago-twist", ref, 41, 3, "book: ", "workers done, ")
}
