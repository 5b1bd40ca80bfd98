package main

import (
	"context"
	"fmt"
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
// in the course's shape, not taken from a course) with the bare start of
// its interpreter: the floor its start is compared with.
type courseAgent struct {
	name, game, dir string
	bare            []string // the interpreter started to its end and out
}

func courseAgents() []courseAgent {
	return []courseAgent{
		// The course JVM's heap flags, as the comp424 profiles start it.
		{"COMP424 Java agent (pentago-twist repository)", "pentago-twist", "agents/course/testdata/comp424/pentago",
			[]string{"java", "-Xms520m", "-Xmx520m", "-version"}},
		{"COMP30024 Python agent (cachex package)", "cachex", "agents/course/testdata/cachex/team_a",
			[]string{"/usr/bin/python3", "-c", "import numpy"}},
	}
}

// benchCourseStart times a course agent's start (launch, the course
// runtime started and the agent loaded at the game's start, as its
// course did) against a bare start of the same interpreter. An agent
// whose runtime the machine lacks is reported as skipped.
func benchCourseStart(ctx context.Context, o options, b *bins, t *table) error {
	n := max(3, o.starts/4) // a JVM start is a hundred times a Go one
	for _, a := range courseAgents() {
		dir, err := filepath.Abs(a.dir)
		if err != nil {
			return err
		}
		ref := course.Prefix + dir
		if err := course.CheckRef(ctx, ref, a.game); err != nil {
			t.add("start", a.name, "skipped", err.Error(), "")
			continue
		}
		starts, sandboxed, err := courseStarts(ctx, b, ref, a.game, n)
		if err != nil {
			return fmt.Errorf("%s: %w", a.name, err)
		}
		bare, err := bareExec(ctx, n, a.bare)
		if err != nil {
			return fmt.Errorf("%s: bare %v: %w", a.name, a.bare, err)
		}
		what := fmt.Sprintf("%s, sandboxed=%v: launch + game start (runtime up, agent loaded) p50 of %d", a.name, sandboxed, n)
		t.add("start", what, ms(quantile(starts, 0.5)), fmt.Sprintf("bare `%s` %s", shellWords(a.bare), ms(quantile(bare, 0.5))),
			ratio(quantile(starts, 0.5), quantile(bare, 0.5)))
	}
	return nil
}

// courseStarts launches ref n times (after one warm-up), opens a game of
// game on each, and returns the times to the opened game.
func courseStarts(ctx context.Context, b *bins, ref, game string, n int) ([]time.Duration, bool, error) {
	g, err := all.Registry().Lookup(game)
	if err != nil {
		return nil, false, err
	}
	prof, err := g.Profile(engine.Params{})
	if err != nil {
		return nil, false, err
	}
	l := launcher(b.arena)
	l.Prepare = course.Prepare
	info := protocol.StartInfo{GameID: "bench", Game: game, Params: map[string]string{}, Profile: prof.Name,
		Clock: protocol.Clock{Model: "per-move", MoveLimit: time.Minute, FirstMoveLimit: time.Minute}}
	var out []time.Duration
	sandboxed := false
	for i := range n + 1 {
		t0 := time.Now()
		p, err := l.Launch(ctx, ref, host.Options{})
		if err != nil {
			return nil, false, err
		}
		err = p.Agent.Start(ctx, info)
		d := time.Since(t0)
		sandboxed = p.Sandboxed()
		p.Kill()
		if err != nil {
			return nil, false, fmt.Errorf("start: %w (stderr: %s)", err, p.Stderr())
		}
		if i > 0 { // the first start warms the page cache
			out = append(out, d)
		}
	}
	return out, sandboxed, nil
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
