package course_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/agents/course"
	"arena/engine"
)

// TestRuntimeOfCourseReferences: a COMP424 repository (sources or only a
// committed bin/) runs in a JVM, a Python file or package in the Python
// host; anything else is native.
func TestRuntimeOfCourseReferences(t *testing.T) {
	t.Parallel()
	binOnly := t.TempDir()
	if err := os.MkdirAll(filepath.Join(binOnly, "bin", "boardgame"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(binOnly, "bin", "boardgame", "Client.class"), []byte{0xca, 0xfe}, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string]engine.Runtime{
		repo:                                    engine.RuntimeCourseJVM,
		repo + "?class=student_player.Exits":    engine.RuntimeCourseJVM,
		"course:" + binOnly:                     engine.RuntimeCourseJVM,
		"course:testdata/cachex/team_a":         engine.RuntimeCoursePython,
		"course:testdata/dab/greedy.py":         engine.RuntimeCoursePython,
		"course:testdata/missing":               engine.RuntimeNative,
		"course:" + t.TempDir():                 engine.RuntimeNative,
		"builtin:random":                        engine.RuntimeNative,
		"lua:testdata/comp424/pentago":          engine.RuntimeNative,
		"course:testdata/comp424/pentago?bad=1": engine.RuntimeNative,
	}
	for ref, want := range cases {
		if got := course.Runtime(ref); got != want {
			t.Errorf("Runtime(%q) = %q, want %q", ref, got, want)
		}
	}
}

// TestComp424HeapUnderTheCapIsNeverKilled: a Java agent that keeps 350 MB
// of heap (inside the course's -Xmx520m) plays clean games. The resident
// rule for other agents is lowered to 200 MiB, far under what its JVM
// holds, so the game shows the JVM was held by its heap and the ceiling
// above it, not by the rule of other agents.
func TestComp424HeapUnderTheCapIsNeverKilled(t *testing.T) {
	longRunning(t)
	t.Parallel()
	needJava(t)
	needJavaCompile(t)
	rec := play(t, match{game: "pentago-twist", refs: [2]string{repo + "?class=student_player.FillsHeap", "builtin:random"}, seed: 8,
		tune: func(p *engine.Profile) { p.MemoryMB = 200 }})
	if len(rec.Events) > 0 || rec.Result.Forfeit != "" {
		t.Fatalf("want a clean game:\n%s", events(rec))
	}
	if !strings.Contains(rec.Stderr[0], "table filled: 350 MB") || agentMoves(rec, 0) < 3 {
		t.Fatalf("the agent did not fill its table and play on (%d moves): %q", agentMoves(rec, 0), rec.Stderr[0])
	}
}

// TestComp424HeapOverTheCapFailsAsTheCourse: a Java agent that outgrows
// its heap dies of the JVM's own OutOfMemoryError, which the client does
// not catch; the profile's rule for a dead client follows (random moves
// for the rest of the game), as in the course, and no memory kill of the
// arena's is involved. The heap is set to 64 MiB (jvm-heap-mb) so the
// test fills it quickly; the flag reaching the JVM is part of the test.
// Its moves get a minute: filling the heap and the JVM's last collections
// took 2.1 s at load average 24, past the course's 2 s, and the move was
// judged late instead of ending with the JVM.
func TestComp424HeapOverTheCapFailsAsTheCourse(t *testing.T) {
	longRunning(t)
	t.Parallel()
	needJava(t)
	needJavaCompile(t)
	rec := play(t, match{game: "pentago-twist", refs: [2]string{repo + "?class=student_player.OverHeap", "builtin:random"}, seed: 9,
		tune: func(p *engine.Profile) {
			p.JVMHeapMB = 64
			p.MoveLimit, p.FirstMoveLimit = time.Minute, time.Minute
		}})
	ev := firstEvent(rec, 0)
	if ev == nil || ev.Kind != string(engine.FailDead) || ev.Penalty != string(engine.RandomMove) {
		t.Fatalf("want the dead client's random moves:\n%s", events(rec))
	}
	for _, e := range rec.Events {
		if e.Kind == string(engine.FailMemory) {
			t.Fatalf("the arena killed the JVM for memory:\n%s", events(rec))
		}
	}
	if !strings.Contains(rec.Stderr[0], "java.lang.OutOfMemoryError") {
		t.Fatalf("no OutOfMemoryError in the client's log: %q", rec.Stderr[0])
	}
}
