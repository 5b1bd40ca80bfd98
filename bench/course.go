package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"arena/agents/course"
	"arena/engine"
	"arena/games/all"
	"arena/plugins/host"
	"arena/plugins/protocol"
)

// courseAgent is a course agent of the repository's test fixtures (written
// in the course's shape, not taken from a course) with the bare starts of
// its interpreter its start is compared with.
type courseAgent struct {
	name, game, dir string
	// floors are the bare starts of interp, the binary the agent's start
	// runs; tmp is a folder of the bench's own.
	floors func(ctx context.Context, interp, tmp string) ([]floor, error)
}

// floor is a bare start: argv run to its end and out, and how the row
// names it.
type floor struct {
	argv  []string
	label string
}

func courseAgents() []courseAgent {
	return []courseAgent{
		{"COMP424 Java agent (pentago-twist repository)", "pentago-twist", "agents/course/testdata/comp424/pentago", javaFloors},
		{"COMP30024 Python agent (cachex package)", "cachex", "agents/course/testdata/cachex/team_a", pythonFloors},
	}
}

// javaFloors is the JVM with the client's course heap loading a class
// whose main is empty: the JVM's own start, which the agent's start
// cannot go below.
func javaFloors(ctx context.Context, java, tmp string) ([]floor, error) {
	javac, err := exec.LookPath("javac")
	if err != nil {
		return nil, fmt.Errorf("javac for the empty class: %w", err)
	}
	src := filepath.Join(tmp, "Empty.java")
	if err := os.WriteFile(src, []byte("public class Empty { public static void main(String[] args) {} }\n"), 0o644); err != nil {
		return nil, err
	}
	if out, err := exec.CommandContext(ctx, javac, "-d", tmp, src).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("javac Empty.java: %w: %s", err, out)
	}
	flags := course.ClientJVMFlags()
	argv := append(append([]string{java}, flags...), "-cp", tmp, "Empty")
	label := shellWords(append(append([]string{java}, flags...), "-cp", "DIR", "Empty")) + " (an empty main)"
	return []floor{{argv, label}}, nil
}

// pythonFloors is the interpreter started to its end, and started to
// import numpy, which the Cachex agents import.
func pythonFloors(_ context.Context, py, _ string) ([]floor, error) {
	pass := []string{py, "-c", "pass"}
	numpy := []string{py, "-c", "import numpy"}
	return []floor{{pass, shellWords(pass)}, {numpy, shellWords(numpy)}}, nil
}

// benchCourseStart times a course agent's start (launch, the course
// runtime started and the agent loaded at the game's start, as its
// course did) against bare starts of the same interpreter, taken in
// turns with the agent's starts, each ratio printed with its floor. An agent whose runtime the machine
// lacks is reported as skipped, with the reason.
func benchCourseStart(ctx context.Context, o options, b *bins, t *table) error {
	n := max(3, o.starts/4) // a JVM start is a hundred times a Go one
	tmp, err := os.MkdirTemp("", "arena-bench-course-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	for _, a := range courseAgents() {
		dir, err := filepath.Abs(a.dir)
		if err != nil {
			return err
		}
		ref := course.Prefix + dir
		interp, err := course.Interpreter(ref)
		if err == nil {
			err = course.CheckRef(ctx, ref, a.game)
		}
		var floors []floor
		if err == nil {
			floors, err = a.floors(ctx, interp, tmp)
		}
		if err != nil {
			t.add("start", a.name, "skipped", err.Error(), "")
			continue
		}
		starts, bare, sandboxed, err := courseStarts(ctx, b, ref, a.game, n, floors)
		if err != nil {
			return fmt.Errorf("%s: %w", a.name, err)
		}
		what := fmt.Sprintf("%s, sandboxed=%v: launch + game start (runtime up, agent loaded) p50 of %d", a.name, sandboxed, n)
		for k, f := range floors {
			t.add("start", what, ms(quantile(starts, 0.5)), fmt.Sprintf("bare `%s` %s", f.label, ms(quantile(bare[k], 0.5))),
				ratio(quantile(starts, 0.5), quantile(bare[k], 0.5)))
		}
	}
	return nil
}

// courseStarts launches ref n times (after one warm-up), opens a game of
// game on each, and returns the times to the opened game; after each
// start it runs each floor once, so that starts and floors share the
// machine's load of the moment, and returns their times by floor.
func courseStarts(ctx context.Context, b *bins, ref, game string, n int, floors []floor) ([]time.Duration, [][]time.Duration, bool, error) {
	g, err := all.Registry().Lookup(game)
	if err != nil {
		return nil, nil, false, err
	}
	prof, err := g.Profile(engine.Params{})
	if err != nil {
		return nil, nil, false, err
	}
	l := readmeLauncher(b)
	l.Prepare = course.Prepare
	info := protocol.StartInfo{GameID: "bench", Game: game, Params: map[string]string{}, Profile: prof.Name,
		Clock: protocol.Clock{Model: "per-move", MoveLimit: time.Minute, FirstMoveLimit: time.Minute}}
	var out []time.Duration
	bare := make([][]time.Duration, len(floors))
	sandboxed := false
	for i := range n + 1 {
		t0 := time.Now()
		p, err := l.Launch(ctx, ref, host.Options{})
		if err != nil {
			return nil, nil, false, err
		}
		err = p.Agent.Start(ctx, info)
		d := time.Since(t0)
		sandboxed = p.Sandboxed()
		p.Kill()
		if err != nil {
			return nil, nil, false, fmt.Errorf("start: %w (stderr: %s)", err, p.Stderr())
		}
		for k, f := range floors {
			t0 := time.Now()
			if err := runBare(ctx, f.argv); err != nil {
				return nil, nil, false, fmt.Errorf("bare %v: %w", f.argv, err)
			}
			if i > 0 {
				bare[k] = append(bare[k], time.Since(t0))
			}
		}
		if i > 0 { // the first start warms the page cache
			out = append(out, d)
		}
	}
	return out, bare, sandboxed, nil
}

// shellWords writes argv as a shell line (program by its base name),
// quoting the arguments with spaces.
func shellWords(argv []string) string {
	s := filepath.Base(argv[0])
	for _, a := range argv[1:] {
		if strings.ContainsAny(a, " \t") {
			a = strconv.Quote(a)
		}
		s += " " + a
	}
	return s
}
