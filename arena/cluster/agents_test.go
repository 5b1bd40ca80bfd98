package cluster

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"arena/agents/course"
	"arena/agents/course/courseref"
	"arena/arena/league/leaguefile"
)

// writeFile writes body to dir/rel, making its folders.
func writeFile(t *testing.T, dir, rel, body string) string {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// Fifty submissions all called bot.py (each with a helper module beside
// it) and fifty course repositories are each found by their own content
// hash in a worker's agent directory, whatever their names, with the
// job's ?options kept; a copy the league did not record is not found.
func TestAgentDirFindsCopiesByContentHash(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("starts agent processes and waits on them: runs without -short")
	}
	coordDir, workerDir := t.TempDir(), t.TempDir()
	w := &Worker{index: &agentIndex{dir: workerDir}}
	for i := range 50 {
		bot := fmt.Sprintf("def calculate_move(s):\n    return %d\n", i)
		src := writeFile(t, coordDir, fmt.Sprintf("s%d/bot.py", i), bot)
		writeFile(t, coordDir, fmt.Sprintf("s%d/helper.py", i), fmt.Sprint("K = ", i))
		// On the worker the folders have other names.
		writeFile(t, workerDir, fmt.Sprintf("sub%03d/bot.py", i), bot)
		writeFile(t, workerDir, fmt.Sprintf("sub%03d/helper.py", i), fmt.Sprint("K = ", i))
		repo := filepath.Join(coordDir, fmt.Sprintf("repo%d", i))
		writeFile(t, repo, "src/student_player/StudentPlayer.java", fmt.Sprint("class StudentPlayer { int n = ", i, "; }"))
		writeFile(t, workerDir, fmt.Sprintf("r%d/src/student_player/StudentPlayer.java", i), fmt.Sprint("class StudentPlayer { int n = ", i, "; }"))

		for _, c := range []struct{ path, want string }{
			{src, filepath.Join(workerDir, fmt.Sprintf("sub%03d/bot.py", i))},
			{repo, filepath.Join(workerDir, fmt.Sprintf("r%d", i))},
		} {
			h, err := courseref.Hash(c.path)
			if err != nil {
				t.Fatal(err)
			}
			a := Agent{Name: "a", Ref: course.Prefix + c.path, Launch: course.Prefix + c.path + "?depth=2", Kind: leaguefile.KindCourse, Hash: h}
			got, err := w.localCopy(context.Background(), a, "dots-and-boxes")
			if err != nil {
				t.Fatal(err)
			}
			if want := course.Prefix + c.want + "?depth=2"; got != want {
				t.Fatalf("agent %s found at %s, want %s", c.path, got, want)
			}
		}
	}
	a := Agent{Name: "gone", Ref: "course:x", Launch: "course:x", Kind: leaguefile.KindCourse, Hash: "sha256:00"}
	if _, err := w.localCopy(context.Background(), a, "dots-and-boxes"); err == nil {
		t.Fatal("an agent with no copy was found")
	}
}

// Without an agent directory a course agent is the coordinator's path,
// hashed with the same function the league used; a changed copy is
// refused with both hashes.
func TestCourseAgentAtTheCoordinatorsPath(t *testing.T) {
	dir := t.TempDir()
	bot := writeFile(t, dir, "bot.py", "def calculate_move(s):\n    return 0\n")
	h, err := ContentHash(leaguefile.KindCourse, bot)
	if err != nil {
		t.Fatal(err)
	}
	w := &Worker{}
	a := Agent{Name: "a", Ref: "course:bot.py", Launch: course.Prefix + bot + "?x=1", Kind: leaguefile.KindCourse, Hash: h}
	got, err := w.localCopy(context.Background(), a, "dots-and-boxes")
	if err != nil || got != a.Launch {
		t.Fatalf("got %q, %v", got, err)
	}
	writeFile(t, dir, "helper.py", "changed = True\n")
	if _, err := w.localCopy(context.Background(), a, "dots-and-boxes"); err == nil {
		t.Fatal("a course agent whose sibling module changed was taken")
	}
}
