package classleague

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/cmd/arena/internal/clitest"
)

// league run --serve-cluster prints a join token; a worker started with
// it plays the games, the standings split by worker name them, and
// replay-late finds nothing to replay. `league token` issues another
// worker's token and revokes it.
func TestLeagueOnAWorker(t *testing.T) {
	t.Parallel() // its own processes and directories; mostly waiting on them
	bin := clitest.BuildArena(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	file := filepath.Join(dir, "w.yaml")
	if err := os.WriteFile(file, []byte("name: w\ngame: bohnenspiel\ngames_per_pairing: 2\nagents:\n  - name: random\n    agent: random\n  - name: greedy\n    agent: greedy\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")

	coord := startCoordinator(t, ctx, bin, "", "league", "run", file, "--output", out, "--serve-cluster", "127.0.0.1:0", "--isolation", "off")
	run, tok := coord.cmd, coord.wait(t, ctx, "token")
	rout, rerr := &coord.out, &coord.err
	if r := clitest.Arena(t, ctx, bin, "worker", "--join", "nats://127.0.0.1:4222", "--isolation", "off"); r.Err == nil || !strings.Contains(r.Stderr, "join token") {
		t.Fatalf("a worker joined without a token: %v\n%s%s", r.Err, r.Stdout, r.Stderr)
	}
	worker := exec.CommandContext(ctx, bin, "worker", "--isolation", "off")
	worker.Env = append(os.Environ(), "ARENA_JOIN="+tok)
	var wout bytes.Buffer
	worker.Stdout, worker.Stderr = &wout, &wout
	if err := worker.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = worker.Process.Kill()
		_ = worker.Wait()
	}()
	if err := run.Wait(); err != nil {
		t.Fatalf("league run: %v\n%s\n%s\nworker:\n%s", err, rout.String(), rerr.String(), wout.String())
	}
	if !strings.Contains(rout.String(), "2 game(s) played") || !strings.Contains(rout.String(), "on cluster workers") || !strings.Contains(rerr.String(), "cluster server on nats://127.0.0.1:") {
		t.Fatalf("league run output:\n%s\n%s", rout.String(), rerr.String())
	}
	for _, sub := range []string{"jetstream", "cluster/ca.pem", "cluster/accounts.json"} {
		if _, err := os.Stat(filepath.Join(out, sub)); err != nil {
			t.Fatalf("the league directory lacks %s: %v", sub, err)
		}
	}
	r := clitest.Arena(t, ctx, bin, "league", "standings", out, "--by-worker")
	if r.Err != nil || !strings.Contains(r.Stdout, "== worker worker1 on ") || !strings.Contains(r.Stdout, "2 game(s)") {
		t.Fatalf("standings --by-worker: %v\n%s%s", r.Err, r.Stdout, r.Stderr)
	}
	// The class depends on this machine's load when the worker joined:
	// only that there is one is checked.
	r = clitest.Arena(t, ctx, bin, "league", "standings", out, "--by-class")
	if r.Err != nil || !strings.Contains(r.Stdout, "== worker class ") || !strings.Contains(r.Stdout, "2 game(s)") {
		t.Fatalf("standings --by-class: %v\n%s%s", r.Err, r.Stdout, r.Stderr)
	}
	r = clitest.Arena(t, ctx, bin, "league", "replay-late", file, "--output", out, "--isolation", "off")
	if r.Err != nil || !strings.Contains(r.Stdout, "no game has a late move marked possibly contention") || !strings.Contains(r.Stdout, "0 game(s) played") {
		t.Fatalf("replay-late: %v\n%s%s", r.Err, r.Stdout, r.Stderr)
	}
	r = clitest.Arena(t, ctx, bin, "league", "token", out, "lab-2")
	if r.Err != nil || !strings.Contains(r.Stdout, "arena worker --join arena-join-1.") {
		t.Fatalf("league token: %v\n%s%s", r.Err, r.Stdout, r.Stderr)
	}
	if r = clitest.Arena(t, ctx, bin, "league", "token", out, "lab-2", "--revoke"); r.Err != nil {
		t.Fatalf("league token --revoke: %v\n%s%s", r.Err, r.Stdout, r.Stderr)
	}
	if r = clitest.Arena(t, ctx, bin, "league", "token", out, "lab-2"); r.Err == nil {
		t.Fatalf("a revoked worker was given a token again:\n%s", r.Stdout)
	}
}

// A worker that cannot see the coordinator's files plays a league of an
// SDK binary, two Lua scripts both called bot.lua and (with
// /usr/bin/python3) a course Python bot with a helper module: it runs in
// another folder with its own cache and no --agent-dir, and the
// coordinator's agent folder is renamed once the coordinator has shipped
// the agents. Every entrant plays every game it is due.
func TestWorkerFetchesAgentsItCannotSee(t *testing.T) {
	t.Parallel() // its own processes and directories; mostly waiting on them
	bin := clitest.BuildArena(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	coordDir, workerDir := t.TempDir(), t.TempDir()
	agents := filepath.Join(coordDir, "agents")
	if err := os.MkdirAll(filepath.Join(agents, "sdk"), 0o755); err != nil {
		t.Fatal(err)
	}
	clitest.BuiltCopy(t, clitest.SDKAgentPkg, filepath.Join(agents, "sdk", "agent"))
	lua, err := os.ReadFile(clitest.Path("agents/lua/examples/dots-and-boxes.lua"))
	if err != nil {
		t.Fatal(err)
	}
	write := func(rel, body string) {
		p := filepath.Join(agents, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("alice/bot.lua", string(lua))
	write("bob/bot.lua", string(lua)+"\n-- bob's copy\n")
	entrants := "  - {name: sdk, agent: agents/sdk/agent}\n  - {name: alice, agent: \"lua:agents/alice/bot.lua\"}\n  - {name: bob, agent: \"lua:agents/bob/bot.lua\"}\n  - {name: random, agent: random}\n"
	games := 12
	if _, err := os.Stat("/usr/bin/python3"); err == nil {
		write("carol/bot.py", "from helper import first_free\n\ndef calculate_move(gamestate):\n    return first_free(gamestate)\n")
		write("carol/helper.py", "def first_free(gamestate):\n    for line in gamestate[\"Grid\"]:\n        if line[2] == -1:\n            return [line[0], line[1]]\n")
		entrants += "  - {name: carol, agent: \"course:agents/carol/bot.py?python=/usr/bin/python3\"}\n"
		games = 20
	} else {
		t.Log("no /usr/bin/python3: the league has no course agent")
	}
	file := filepath.Join(coordDir, "ship.yaml")
	if err := os.WriteFile(file, []byte("name: ship\ngame: dots-and-boxes\ngames_per_pairing: 2\nagents:\n"+entrants), 0o644); err != nil {
		t.Fatal(err)
	}

	coord := startCoordinator(t, ctx, bin, coordDir, "league", "run", file, "--output", filepath.Join(coordDir, "out"), "--serve-cluster", "127.0.0.1:0", "--isolation", "off")
	run, tok := coord.cmd, coord.wait(t, ctx, "token")
	coord.wait(t, ctx, "shipped")
	rout, rerr := &coord.out, &coord.err
	if err := os.Rename(agents, filepath.Join(coordDir, "gone")); err != nil {
		t.Fatal(err)
	}
	worker := exec.CommandContext(ctx, bin, "worker", "--isolation", "off", "--agent-cache", filepath.Join(workerDir, "cache"))
	worker.Dir = workerDir
	worker.Env = append(os.Environ(), "ARENA_JOIN="+tok, "HOME="+workerDir, "XDG_CACHE_HOME="+filepath.Join(workerDir, "xdg"))
	var wout bytes.Buffer
	worker.Stdout, worker.Stderr = &wout, &wout
	if err := worker.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = worker.Process.Kill()
		_ = worker.Wait()
	}()
	if err := run.Wait(); err != nil {
		t.Fatalf("league run: %v\n%s\n%s\nworker:\n%s", err, rout.String(), rerr.String(), wout.String())
	}
	if want := fmt.Sprintf("%d game(s) played", games); !strings.Contains(rout.String(), want) {
		t.Fatalf("want %s:\n%s\n%s\nworker:\n%s", want, rout.String(), rerr.String(), wout.String())
	}
	if strings.Contains(wout.String(), "refused match") {
		t.Fatalf("the worker refused games:\n%s", wout.String())
	}
	entries, err := os.ReadDir(filepath.Join(workerDir, "cache"))
	if err != nil {
		t.Fatal(err)
	}
	// One folder per agent; the folder's lock file (arena/cacheage) is
	// not an agent.
	var cached []string
	for _, e := range entries {
		if e.IsDir() {
			cached = append(cached, e.Name())
		}
	}
	if want := strings.Count(entrants, "agents/"); len(cached) != want {
		t.Fatalf("%d agent(s) in the worker's cache (%v), want %d (one per content hash)", len(cached), cached, want)
	}
}

// coordinator is `arena league run --serve-cluster` running, its console
// watched for the join token and the agents shipped.
type coordinator struct {
	cmd      *exec.Cmd
	out, err bytes.Buffer
	said     map[string]chan string
}

func startCoordinator(t *testing.T, ctx context.Context, bin, dir string, args ...string) *coordinator {
	t.Helper()
	c := &coordinator{cmd: exec.CommandContext(ctx, bin, args...), said: map[string]chan string{"token": make(chan string, 1), "shipped": make(chan string, 1)}}
	c.cmd.Dir = dir
	c.cmd.Stdout = &c.out
	stderr, err := c.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(io.TeeReader(stderr, &c.err))
		for sc.Scan() {
			if _, tok, ok := strings.Cut(sc.Text(), "arena worker --join "); ok {
				clitest.Say(c.said["token"], tok)
			}
			if strings.Contains(sc.Text(), "shipped to the cluster's object store") {
				clitest.Say(c.said["shipped"], sc.Text())
			}
		}
	}()
	return c
}

// wait returns what the coordinator said of what ("token", "shipped").
func (c *coordinator) wait(t *testing.T, ctx context.Context, what string) string {
	t.Helper()
	select {
	case s := <-c.said[what]:
		return s
	case <-ctx.Done():
		t.Fatalf("the coordinator said no %s", what)
	}
	return ""
}
