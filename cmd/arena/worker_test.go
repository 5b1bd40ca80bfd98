package main

import (
	"bytes"
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// league run --serve-cluster with a worker started before it: the games
// are played by the worker, the standings split by worker name it, and
// replay-late finds nothing to replay.
func TestLeagueOnAWorker(t *testing.T) {
	bin := buildArena(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	dir := t.TempDir()
	file := filepath.Join(dir, "w.yaml")
	if err := os.WriteFile(file, []byte("name: w\ngame: bohnenspiel\ngames_per_pairing: 2\nagents:\n  - name: random\n    agent: random\n  - name: greedy\n    agent: greedy\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")

	worker := exec.CommandContext(ctx, bin, "worker", "--cluster", "nats://127.0.0.1:"+port, "--name", "box1", "--isolation", "off")
	var wout bytes.Buffer
	worker.Stdout, worker.Stderr = &wout, &wout
	if err := worker.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = worker.Process.Kill()
		_ = worker.Wait()
	}()
	r := arena(t, ctx, bin, "league", "run", file, "--output", out, "--serve-cluster", "127.0.0.1:"+port, "--isolation", "off")
	if r.err != nil {
		t.Fatalf("league run: %v\n%s\n%s\nworker:\n%s", r.err, r.stdout, r.stderr, wout.String())
	}
	if !strings.Contains(r.stdout, "2 game(s) played") || !strings.Contains(r.stdout, "on cluster workers") || !strings.Contains(r.stderr, "cluster server on nats://127.0.0.1:"+port) {
		t.Fatalf("league run output:\n%s\n%s", r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "jetstream")); err != nil {
		t.Fatalf("the embedded server keeps no streams in the league directory: %v", err)
	}
	r = arena(t, ctx, bin, "league", "standings", out, "--by-worker")
	if r.err != nil || !strings.Contains(r.stdout, "== worker box1 on ") || !strings.Contains(r.stdout, "2 game(s)") {
		t.Fatalf("standings --by-worker: %v\n%s%s", r.err, r.stdout, r.stderr)
	}
	r = arena(t, ctx, bin, "league", "replay-late", file, "--output", out, "--isolation", "off")
	if r.err != nil || !strings.Contains(r.stdout, "no game has a late move marked possibly contention") || !strings.Contains(r.stdout, "0 game(s) played") {
		t.Fatalf("replay-late: %v\n%s%s", r.err, r.stdout, r.stderr)
	}
}
