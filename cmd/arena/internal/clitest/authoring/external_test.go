package authoring

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"arena/arena/record"
	"arena/arena/referee"
	"arena/cmd/arena/internal/clitest"
	"arena/cmd/arena/internal/clitest/inproc"
	"arena/games/bohnenspiel"
)

// An agent written outside this repository, exactly as the README tells a
// student: its example code, `require arena v0.0.0` and a replace to this
// checkout in its go.mod, go mod tidy, go build, then the binary's path to
// play. The module downloads need the Go module proxy (nothing else: the
// proxy also serves the checksum database), as on a student's machine.
func TestAgentOutsideTheModuleAsTheREADMESays(t *testing.T) {
	t.Parallel() // its own module folder and go commands; nothing timed
	if testing.Short() {
		t.Skip("builds a module outside the repository (go mod tidy, go build)")
	}
	readme, err := os.ReadFile(clitest.Path("README.md"))
	if err != nil {
		t.Fatal(err)
	}
	// The README's own words: its example agent and its go.mod lines.
	code := regexp.MustCompile("(?s)```go\n(.*?sdk\\.Serve.*?)```").FindSubmatch(readme)
	require := regexp.MustCompile("`(require arena v[^`]+)`").FindSubmatch(readme)
	replace := regexp.MustCompile("`(replace arena => )[^`]+`").FindSubmatch(readme)
	if code == nil || require == nil || replace == nil || !strings.Contains(string(readme), "go mod tidy") {
		t.Fatalf("the README no longer shows the example agent, the require and replace lines and go mod tidy; update it and this test together")
	}
	root := clitest.Root()

	dir := t.TempDir() // outside the module
	gocmd := func(args ...string) {
		t.Helper()
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		// A go.work above the temporary directory must not join the
		// agent's module to anything. No DWARF (-w): a third of the link,
		// and nothing here debugs the program; the user's GOFLAGS stay.
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS="+strings.TrimSpace(os.Getenv("GOFLAGS")+" -ldflags=-w"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			hint := ""
			if strings.Contains(string(out), "dial tcp") || strings.Contains(string(out), "no such host") {
				hint = "\n(this step needs the Go module proxy, as it does for a student)"
			}
			t.Fatalf("go %s: %v\n%s%s", strings.Join(args, " "), err, out, hint)
		}
	}
	gocmd("mod", "init", "mybot")
	gomod := filepath.Join(dir, "go.mod")
	body, err := os.ReadFile(gomod)
	if err != nil {
		t.Fatal(err)
	}
	body = append(body, []byte("\n"+string(require[1])+"\n\n"+string(replace[1])+root+"\n")...)
	if err := os.WriteFile(gomod, body, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), code[1], 0o644); err != nil {
		t.Fatal(err)
	}
	gocmd("mod", "tidy")
	bin := filepath.Join(dir, "mybot")
	gocmd("build", "-o", bin, ".")

	// Entered by path, as the README says.
	e, out, errb := inproc.Env(t)
	if err := inproc.Run(t, e, "play", "bohnenspiel", bin, "random", "--games", "2"); err != nil {
		t.Fatalf("play: %v\n%s\n%s", err, out, errb)
	}
	if !strings.Contains(out.String(), "mybot") {
		t.Fatalf("play output does not name the agent:\n%s", out)
	}

	// And it really plays: every one of its moves is its own and is the
	// first legal move, as its code says.
	prof, err := bohnenspiel.Game{}.Profile(nil)
	if err != nil {
		t.Fatal(err)
	}
	prof.FirstMoveLimit = 30 * time.Second // process warm-up on a busy machine
	prof.MoveLimit = 10 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	rec, err := (&referee.Referee{Launch: referee.HostLauncher(e.Launcher)}).Play(ctx, referee.Match{
		ID: "external", Game: bohnenspiel.Game{}, Profile: prof, Seed: 1,
		Players: [2]referee.Player{{Name: "mybot", Ref: bin}, {Name: "random", Ref: "builtin:random"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Events) != 0 || rec.Result.Forfeit != "" {
		t.Fatalf("events %+v, result %+v", rec.Events, rec.Result)
	}
	st, _ := bohnenspiel.Game{}.NewState(nil)
	mine := 0
	for _, m := range rec.Moves {
		if m.Seat == 0 {
			first := st.FormatMove(st.LegalMoves(nil)[0])
			if m.Source != record.SourceAgent || m.Text != first {
				t.Fatalf("ply %d: the agent's move %q (%s), want its own first legal move %q", m.Ply, m.Text, m.Source, first)
			}
			mine++
		}
		mv, err := st.ParseMove(m.Text)
		if err != nil {
			t.Fatalf("ply %d: %v", m.Ply, err)
		}
		st.Apply(mv)
	}
	if mine == 0 || !st.Terminal() {
		t.Fatalf("%d moves by the agent; final position terminal: %v", mine, st.Terminal())
	}
}
