package classleague

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"arena/cmd/arena/internal/clitest"
	"arena/cmd/arena/internal/clitest/inproc"
)

// TestCourseAgentsInPlayAndLeagues: course references work wherever agents
// do: in play, and in a league file (relative to the league file), where
// a change to the agent's files changes its recorded content hash.
func TestCourseAgentsInPlayAndLeagues(t *testing.T) {
	t.Parallel() // its own processes and directories; mostly waiting on them
	clitest.LongRunning(t)
	if err := exec.Command("/usr/bin/python3", "-c", "import numpy").Run(); err != nil {
		t.Skipf("no /usr/bin/python3 with numpy (%v): apt-get install python3 python3-numpy", err)
	}
	td, err := filepath.Abs(clitest.Path("agents/course/testdata"))
	if err != nil {
		t.Fatal(err)
	}
	e, out, _ := inproc.Env(t)
	if err := inproc.Run(t, e, "play", "dots-and-boxes", "course:"+td+"/dab/greedy.py", "random", "--games", "2"); err != nil {
		t.Fatalf("play: %v\n%s", err, out)
	}
	if !strings.Contains(out.String(), "greedy.py") {
		t.Fatalf("no row for the course agent:\n%s", out)
	}

	dir := t.TempDir()
	bots := filepath.Join(dir, "bots")
	if err := exec.Command("cp", "-r", td+"/cachex", bots).Run(); err != nil {
		t.Fatal(err)
	}
	league := filepath.Join(dir, "league.yaml")
	body := "game: cachex\nparams:\n  n: 4\nagents:\n  - name: team_a\n    agent: course:bots/team_a\n  - name: random\n    agent: builtin:random\nformat: round-robin\ngames_per_pairing: 2\nseed: 1\n"
	if err := os.WriteFile(league, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	e, out, _ = inproc.Env(t)
	if err := inproc.Run(t, e, "league", "run", league, "--output", filepath.Join(dir, "out")); err != nil {
		t.Fatalf("league run: %v\n%s", err, out)
	}
	if !strings.Contains(out.String(), "2 of 2 games played") || !strings.Contains(out.String(), "team_a") {
		t.Fatalf("league output:\n%s", out)
	}
	// A changed package is noticed by its content hash. The change keeps
	// the package working: the pre-flight (which runs first) passes, and
	// the refusal is the hash's.
	f, err := os.OpenFile(filepath.Join(bots, "team_a", "board.py"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString("\n# changed\n"); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	e, out, errb := inproc.Env(t)
	err = inproc.Run(t, e, "league", "run", league, "--output", filepath.Join(dir, "out"))
	if err == nil || !strings.Contains(err.Error()+out.String()+errb.String(), "changed: content hash") {
		t.Fatalf("want the changed agent refused: %v\n%s%s", err, out, errb)
	}
}
