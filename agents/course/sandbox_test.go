package course_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"arena/agents"
	"arena/agents/builtin"
	"arena/agents/course"
	"arena/engine"
	"arena/internal/forksafe"
	"arena/plugins/host"
)

// hidden copies testdata files into a folder other users cannot enter
// (t.TempDir is mode 0700, as a user's home is), so a sandboxed agent
// reaches them only through what the arena shows it.
func hidden(t *testing.T, dst string, srcs ...string) string {
	t.Helper()
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, s := range srcs {
		if out, err := exec.Command("cp", "-r", s, dst).CombinedOutput(); err != nil {
			t.Fatalf("cp %s: %v %s", s, err, out)
		}
	}
	return dst
}

// sandboxed says whether this machine runs agents in sandboxes, so the
// test's log tells which way it ran (both ways must pass).
func sandboxed(t *testing.T) {
	t.Helper()
	l := &host.Launcher{Self: []string{os.Args[0], agents.HostArg}, Builtins: builtin.Names()}
	if !l.Sandboxed() {
		t.Logf("agents run unsandboxed here: %s", l.Support().Unsupported)
	}
}

// TestCourseAgentsOutOfReachPlay: agents of every course whose files lie
// where the agent's unprivileged id cannot go play clean games: the
// arena shows each its folder as its course had it (the script's folder
// with the course's client library, the package's parent with a sibling
// package it imports, the bot's folder with its helper module, the
// repository root with the data file its player reads and its classes
// compiled into a cache that is out of reach too).
func TestCourseAgentsOutOfReachPlay(t *testing.T) {
	longRunning(t)
	t.Parallel() // its own folders, cache and processes; nothing timed
	needPython(t)
	sandboxed(t)
	top := t.TempDir()
	cases := []struct {
		name, game, ref string
		params          engine.Params
		java            bool
	}{
		{name: "dots", game: "dots-and-boxes",
			ref: hidden(t, filepath.Join(top, "dab"), "testdata/dab/greedy.py", "testdata/dab/helpers.py") + "/greedy.py"},
		{name: "hex", game: "hex-crossout", params: engine.Params{"free": "20", "seed": "5"},
			ref: hidden(t, filepath.Join(top, "hex"), "testdata/hex/agent.py", "testdata/hex/STcpClient_1.py", "testdata/hex/common.py") + "/agent.py"},
		{name: "cachex", game: "cachex", params: engine.Params{"n": "5"},
			ref: cachexSibling(t, hidden(t, filepath.Join(top, "bots"), "testdata/cachex/team_a"))},
		{name: "comp424", game: "pentago-twist", java: true,
			ref: hidden(t, filepath.Join(top, "repos"), "testdata/comp424/pentago") + "/pentago"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ref := "course:" + c.ref
			var cache string
			if c.java {
				needJava(t)
				// A cache of its own (named in the reference, so the test
				// can run beside others), to count what the arena compiled;
				// the check compiles it, so a compile problem shows here.
				cache = t.TempDir()
				ref += "?cache=" + cache
				if err := course.CheckRef(context.Background(), ref, c.game); err != nil {
					t.Fatal(err)
				}
			}
			for seat := range 2 {
				refs := [2]string{"builtin:random", "builtin:random"}
				refs[seat] = ref
				rec := play(t, match{game: c.game, params: c.params, refs: refs, seed: uint64(3 + seat), tune: slowStart})
				if len(rec.Events) > 0 || rec.Result.Forfeit != "" {
					t.Fatalf("seat %d: want a clean game:\n%s", seat, events(rec))
				}
				if agentMoves(rec, seat) < 2 {
					t.Fatalf("seat %d: the agent made %d moves", seat, agentMoves(rec, seat))
				}
			}
			if c.java {
				// The arena compiled the repository into the shared
				// cache once; the sandboxed JVM only read it.
				oks, _ := filepath.Glob(filepath.Join(cache, "*", "ok"))
				if len(oks) != 1 {
					t.Fatalf("cache %s holds %d compiled repositories, want 1", cache, len(oks))
				}
			}
		})
	}
}

// cachexSibling adds, beside team_a, a package whose Player comes from
// its sibling team_a: it imports only with the packages' parent on the
// import path, as the course referee had it.
func cachexSibling(t *testing.T, bots string) string {
	t.Helper()
	pkg := filepath.Join(bots, "team_s")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	src := "from team_a.player import Player as _Base\n\n\nclass Player(_Base):\n    pass\n"
	if err := os.WriteFile(filepath.Join(pkg, "__init__.py"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return pkg
}

// TestPrepareShowsTheCoursesFolders: what each course shape is shown,
// and settings of the arena's environment carried into the reference.
func TestPrepareShowsTheCoursesFolders(t *testing.T) {
	needPython(t)
	td, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("ARENA_PYTHON", "/usr/bin/python3")
	cases := []struct{ path, want string }{
		{td + "/dab/greedy.py", td + "/dab"},
		{td + "/hex/agent.py", td + "/hex"},
		{td + "/cachex/team_a", td + "/cachex"},
	}
	for _, c := range cases {
		ref, trees, err := course.Prepare(context.Background(), "course:"+c.path, true)
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		if len(trees) != 1 || trees[0] != c.want {
			t.Errorf("%s: shown %v, want [%s]", c.path, trees, c.want)
		}
		r, err := course.ParseRef(ref)
		if err != nil || r.Path != c.path || r.Params["python"] != "/usr/bin/python3" {
			t.Errorf("%s: reference %q (%v), want the path and python=/usr/bin/python3", c.path, ref, err)
		}
	}
}

// TestPrepareRefusesAnInterpreterOutOfReach: an interpreter the agent's
// id could not run (a pyenv shim under /root) is refused before the game,
// naming it and a system one; unsandboxed it is accepted.
func TestPrepareRefusesAnInterpreterOutOfReach(t *testing.T) {
	t.Parallel()
	needPython(t)
	dir := t.TempDir() // 0700
	py := filepath.Join(dir, "shims", "python3")
	if err := os.MkdirAll(filepath.Dir(py), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := forksafe.WriteFile(py, []byte("#!/bin/sh\nexec /usr/bin/python3 \"$@\"\n")); err != nil {
		t.Fatal(err)
	}
	td, err := filepath.Abs("testdata/dab/greedy.py")
	if err != nil {
		t.Fatal(err)
	}
	ref := "course:" + td + "?python=" + py
	_, _, err = course.Prepare(context.Background(), ref, true)
	if err == nil || !strings.Contains(err.Error(), py) || !strings.Contains(err.Error(), "/usr/bin/python3") {
		t.Fatalf("error %v, want the interpreter named and a system one suggested", err)
	}
	if _, _, err := course.Prepare(context.Background(), ref, false); err != nil {
		t.Fatalf("unsandboxed: %v", err)
	}
}

// TestCourseBotSeesOnlyItsFolder: a course Python bot that tries, at
// import, to read a sibling entrant's folder and bot, the league's store,
// records and league file, /root and /home finds none of them, under a
// readable (0755) and a private (0700) layout, and still plays from its
// own folder (its helper module beside it).
func TestCourseBotSeesOnlyItsFolder(t *testing.T) {
	longRunning(t)
	t.Parallel() // its own folders and processes; nothing timed
	l := &host.Launcher{Self: []string{os.Args[0], agents.HostArg}, Builtins: builtin.Names()}
	if !l.Sandboxed() {
		t.Skipf("agents cannot be sandboxed here: %s", l.Support().Unsupported)
	}
	for _, mode := range []os.FileMode{0o755, 0o700} {
		t.Run(mode.String(), func(t *testing.T) {
			t.Parallel()
			top := t.TempDir()
			write := func(rel, body string) string {
				p := filepath.Join(top, rel)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
				return p
			}
			secrets := []string{
				filepath.Join(top, "entrants", "bob"), write("entrants/bob/bot.py", "# bob's bot\n"),
				write("results/results.db", "store"), write("results/records.jsonl", "{}\n"),
				write("league.yaml", "game: dots-and-boxes\n"), "/root", "/home",
			}
			quoted := make([]string, len(secrets))
			for i, s := range secrets {
				quoted[i] = strconv.Quote(s)
			}
			write("entrants/alice/helpers.py", "def find_legal_moves(gamestate):\n    return [[l[0], l[1]] for l in gamestate[\"Grid\"] if l[2] == -1]\n")
			bot := write("entrants/alice/bot.py", `import os
from helpers import find_legal_moves

seen = []
for p in [`+strings.Join(quoted, ", ")+`]:
    try:
        if os.path.isdir(p):
            os.listdir(p)
        else:
            open(p).read()
        seen.append(p)
    except OSError:
        pass


def calculate_move(gamestate):
    if seen:
        raise RuntimeError("read " + ", ".join(seen))
    return find_legal_moves(gamestate)[0]
`)
			if err := os.Chmod(top, mode); err != nil {
				t.Fatal(err)
			}
			rec := play(t, match{game: "dots-and-boxes", refs: [2]string{"course:" + bot, "builtin:random"}, seed: 5, tune: slowStart})
			if len(rec.Events) > 0 || rec.Result.Forfeit != "" {
				t.Fatalf("want a clean game:\n%s\nstderr: %s", events(rec), rec.Stderr[0])
			}
			if agentMoves(rec, 0) < 2 {
				t.Fatalf("the bot made %d moves", agentMoves(rec, 0))
			}
		})
	}
}
