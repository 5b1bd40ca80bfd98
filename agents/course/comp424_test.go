package course_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"arena/agents/course"
	"arena/arena/record"
	"arena/engine"
)

// javacMissing asks javac for its version once per test binary run: each
// ask starts a JVM (0.6 s of CPU), and a dozen tests need the answer.
var javacMissing = sync.OnceValue(func() error { return exec.Command("javac", "-version").Run() })

// needJava skips where the machine has no JDK (CI installs one: .ci/run).
func needJava(t *testing.T) {
	t.Helper()
	if err := javacMissing(); err != nil {
		t.Skipf("no javac (%v): apt-get install default-jdk-headless", err)
	}
}

const repo = "course:testdata/comp424/pentago"

// TestComp424StudentPlaysFullGames: a StudentPlayer in a course-shaped
// repository (its own stand-in framework, speaking the course's line
// protocol) plays whole games from both seats. The player reads
// data/weights.txt relative to the working directory and plays a
// visibly illegal move without it, and it tracks the board only through
// the move lines the server sends, so a clean game shows the working
// directory, the broadcasts and the PLAY requests were the course's. The
// framework's sample player that needs a deleted helper is not compiled.
func TestComp424StudentPlaysFullGames(t *testing.T) {
	longRunning(t)
	t.Parallel()
	needJava(t)
	needJavaCompile(t)
	cleanFromBothSeats(t, "pentago-twist", repo, 21, 3, "> PLAY Player-")
}

// needJavaCompile compiles the test repository once per test, so a
// compile problem fails here with javac's message rather than as a
// start-up failure inside a game.
func needJavaCompile(t *testing.T) {
	t.Helper()
	if err := course.CheckRef(context.Background(), repo, "pentago-twist"); err != nil {
		t.Fatal(err)
	}
}

// TestComp424BrokenPlayers: each failure mode gets the comp424-2021
// verdict. The client replaces an exception or a null with a random move
// of its own (no penalty: the arena sees a move); a reply inside the
// cushion is replaced by a random move; silence past the cushion loses; a
// JVM that exits gets random moves for the rest of the game; a class that
// does not exist never starts (random moves for the whole game).
func TestComp424BrokenPlayers(t *testing.T) {
	longRunning(t)
	t.Parallel()
	needJava(t)
	needJavaCompile(t)
	cases := []struct {
		class, kind, penalty, stderr string
	}{
		{"Throws", "", "", "ATTENTION: Exception in chooseMove(). Playing random move."},
		{"ReturnsNull", "", "", "ATTENTION: Player didn't return a move."},
		{"Prints", "", "", "searching 288 moves"},
		{"Late", string(engine.FailLate), string(engine.RandomMove), ""},
		{"Hangs", string(engine.FailTimeout), string(engine.Loss), ""},
		{"Exits", string(engine.FailDead), string(engine.RandomMove), "the client JVM"},
		{"Nope", string(engine.FailNoShow), string(engine.Loss), ""}, // no such class: never opens its game
	}
	for _, c := range cases {
		t.Run(c.class, func(t *testing.T) {
			t.Parallel()
			ref := repo + "?class=student_player." + c.class
			rec := play(t, match{game: "pentago-twist", refs: [2]string{ref, "builtin:random"}, seed: 5,
				tune: func(p *engine.Profile) {
					p.MoveLimit, p.Cushion = 3*time.Second, 6*time.Second
					if c.class == "Hangs" {
						// Its one move after the first (which has the
						// course's 30 s) is the one it never returns from:
						// short limits only shorten the wait for its verdict.
						p.MoveLimit, p.Cushion = time.Second, time.Second
					}
				}})
			ev := firstEvent(rec, 0)
			if c.kind == "" {
				if ev != nil || rec.Result.Forfeit != "" {
					t.Fatalf("want no penalty:\n%s", events(rec))
				}
			} else if ev == nil || ev.Kind != c.kind || ev.Penalty != c.penalty {
				t.Fatalf("want %s/%s:\n%s", c.kind, c.penalty, events(rec))
			}
			if !strings.Contains(rec.Stderr[0], c.stderr) {
				t.Fatalf("want %q in the stderr log: %q", c.stderr, rec.Stderr[0])
			}
			switch c.kind {
			case string(engine.FailTimeout):
				if rec.Result.Winner != 1 || rec.Result.Reason != "TIMEOUT" {
					t.Fatalf("result %+v, want a TIMEOUT loss", rec.Result)
				}
			case string(engine.FailDead):
				for _, m := range rec.Moves {
					if m.Seat == 0 && m.Ply > ev.Ply && m.Source != record.SourceRandom {
						t.Fatalf("ply %d: a dead client moved itself", m.Ply)
					}
				}
				if c.class == "Nope" && !strings.Contains(ev.Detail, "no source file for the player class student_player.Nope") {
					t.Fatalf("detail %q", ev.Detail)
				}
			}
		})
	}
}

// TestComp424CompileErrorNamesTheFile: a repository whose student code
// does not compile is reported with the file and line, before any game.
func TestComp424CompileErrorNamesTheFile(t *testing.T) {
	longRunning(t)
	t.Parallel()
	needJava(t)
	dir := t.TempDir()
	if err := exec.Command("cp", "-r", "testdata/comp424/pentago/.", dir).Run(); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "src", "student_player", "tools", "Broken.java")
	if err := os.WriteFile(bad, []byte("package student_player.tools;\n\npublic class Broken {\n    int x = missing.Thing.value();\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := course.CheckRef(context.Background(), "course:"+dir, "pentago-twist")
	if err == nil || !strings.Contains(err.Error(), "src/student_player/tools/Broken.java:4: does not compile") {
		t.Fatalf("error %v, want the failing file and line", err)
	}
}

// TestComp424BohnenspielRepository: a Bohnenspiel repository whose sample
// greedy player calls a deleted student helper compiles (the sample is
// left out) and its student plays whole games, SKIP lines and the
// GAMEOVER line with scores included.
func TestComp424BohnenspielRepository(t *testing.T) {
	longRunning(t)
	t.Parallel()
	needJava(t)
	ref := "course:testdata/comp424/bohnenspiel"
	if err := course.CheckRef(context.Background(), ref, "bohnenspiel"); err != nil {
		t.Fatal(err)
	}
	cleanFromBothSeats(t, "bohnenspiel", ref, 31, 3, "Player-0 score: ")
}
