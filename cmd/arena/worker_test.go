package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// league run --serve-cluster prints a join token; a worker started with
// it plays the games, the standings split by worker name them, and
// replay-late finds nothing to replay. `league token` issues another
// worker's token and revokes it.
func TestLeagueOnAWorker(t *testing.T) {
	t.Parallel() // its own processes and directories; mostly waiting on them
	bin := buildArena(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dir := t.TempDir()
	file := filepath.Join(dir, "w.yaml")
	if err := os.WriteFile(file, []byte("name: w\ngame: bohnenspiel\ngames_per_pairing: 2\nagents:\n  - name: random\n    agent: random\n  - name: greedy\n    agent: greedy\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")

	run := exec.CommandContext(ctx, bin, "league", "run", file, "--output", out, "--serve-cluster", "127.0.0.1:0", "--isolation", "off")
	var rout bytes.Buffer
	run.Stdout = &rout
	stderr, err := run.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	var rerr bytes.Buffer
	token := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(io.TeeReader(stderr, &rerr))
		for sc.Scan() {
			if _, tok, ok := strings.Cut(sc.Text(), "arena worker --join "); ok {
				select {
				case token <- tok:
				default:
				}
			}
		}
	}()
	var tok string
	select {
	case tok = <-token:
	case <-ctx.Done():
		t.Fatalf("no join token printed:\n%s", rerr.String())
	}
	if r := arena(t, ctx, bin, "worker", "--join", "nats://127.0.0.1:4222", "--isolation", "off"); r.err == nil || !strings.Contains(r.stderr, "join token") {
		t.Fatalf("a worker joined without a token: %v\n%s%s", r.err, r.stdout, r.stderr)
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
	r := arena(t, ctx, bin, "league", "standings", out, "--by-worker")
	if r.err != nil || !strings.Contains(r.stdout, "== worker worker1 on ") || !strings.Contains(r.stdout, "2 game(s)") {
		t.Fatalf("standings --by-worker: %v\n%s%s", r.err, r.stdout, r.stderr)
	}
	r = arena(t, ctx, bin, "league", "replay-late", file, "--output", out, "--isolation", "off")
	if r.err != nil || !strings.Contains(r.stdout, "no game has a late move marked possibly contention") || !strings.Contains(r.stdout, "0 game(s) played") {
		t.Fatalf("replay-late: %v\n%s%s", r.err, r.stdout, r.stderr)
	}
	r = arena(t, ctx, bin, "league", "token", out, "lab-2")
	if r.err != nil || !strings.Contains(r.stdout, "arena worker --join arena-join-1.") {
		t.Fatalf("league token: %v\n%s%s", r.err, r.stdout, r.stderr)
	}
	if r = arena(t, ctx, bin, "league", "token", out, "lab-2", "--revoke"); r.err != nil {
		t.Fatalf("league token --revoke: %v\n%s%s", r.err, r.stdout, r.stderr)
	}
	if r = arena(t, ctx, bin, "league", "token", out, "lab-2"); r.err == nil {
		t.Fatalf("a revoked worker was given a token again:\n%s", r.stdout)
	}
}
