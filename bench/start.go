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

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"arena/agents"
	"arena/plugins/host"
	pb "arena/plugins/proto"
)

// agentKind is one way of starting an agent.
type agentKind struct {
	name string
	self string // agent host binary
	init string // sandbox init binary ("": the agent host)
	ref  string
	bare []string // the same binary, started to main and straight out
	off  bool     // without a sandbox (process group only), to show its share
	noCg bool     // without cgroups (read through /proc), to show theirs
}

// kinds are the agent kinds and host set-ups timed: the README's build
// (the lean host and arena-init beside the arena), and what it replaced.
func kinds(b *bins) []agentKind {
	lean := []string{b.lean, agents.HostArg}
	return []agentKind{
		{name: "builtin:random, arena binary as host and init (no arena-agent or arena-init beside it)", self: b.arena, ref: "builtin:random", bare: []string{b.arena, agents.HostArg}},
		{name: "builtin:random, lean arena-agent + arena-init (the README's build)", self: b.lean, init: b.init, ref: "builtin:random", bare: lean},
		{name: "builtin:random, lean arena-agent as its own init (no arena-init)", self: b.lean, ref: "builtin:random", bare: lean},
		{name: "builtin:random, lean arena-agent + arena-init, no cgroups", self: b.lean, init: b.init, ref: "builtin:random", bare: lean, noCg: true},
		{name: "lua script, arena binary as host and init", self: b.arena, ref: "lua:" + b.lua, bare: []string{b.arena, agents.HostArg}},
		{name: "lua script, lean arena-agent + arena-init", self: b.lean, init: b.init, ref: "lua:" + b.lua, bare: lean},
		{name: "lua script, lean arena-agent + arena-init, no cgroups", self: b.lean, init: b.init, ref: "lua:" + b.lua, bare: lean, noCg: true},
		{name: "SDK binary, arena-init", self: b.lean, init: b.init, ref: b.timed, bare: []string{b.timed}},
		{name: "builtin:random, lean arena-agent, isolation off", self: b.lean, ref: "builtin:random", bare: lean, off: true},
	}
}

// bareExec is fork/exec/wait of argv, which runs to main and exits.
func bareExec(ctx context.Context, n int, argv []string) ([]time.Duration, error) {
	return timeCalls(n, startWarmUp, func() error { return runBare(ctx, argv) })
}

// runBare runs argv to its end once.
func runBare(ctx context.Context, argv []string) error {
	err := exec.CommandContext(ctx, argv[0], argv[1:]...).Run()
	if _, ok := err.(*exec.ExitError); ok {
		return nil // a usage exit is still a complete start
	}
	return err
}

func benchStart(ctx context.Context, o options, b *bins, t *table) error {
	minExec, err := bareExec(ctx, o.starts, []string{b.pingpong, "exit"})
	if err != nil {
		return err
	}
	t.add("start", "minimal Go program, fork/exec/exit p50", ms(quantile(minExec, 0.5)), "", "")
	grpcExec, err := bareExec(ctx, o.starts, []string{b.mingrpc, "exit"})
	if err != nil {
		return err
	}
	t.add("start", "minimal gRPC binary, fork/exec/exit p50", ms(quantile(grpcExec, 0.5)), "", "")
	grpcStart, err := minGRPCStart(ctx, o.starts, b)
	if err != nil {
		return err
	}
	t.add("start", "minimal gRPC server, exec to first reply p50", ms(quantile(grpcStart, 0.5)), "", "")
	for _, k := range kinds(b) {
		launch, total, bare, sandboxed, err := kindStarts(ctx, o.starts, k)
		if err != nil {
			return fmt.Errorf("%s: %w", k.name, err)
		}
		what := fmt.Sprintf("%s, sandboxed=%v: launch+handshake p50", k.name, sandboxed)
		floor, r := "", ""
		if k.bare != nil {
			floor, r = "bare exec of same binary, in turns "+ms(quantile(bare, 0.5)), ratio(quantile(launch, 0.5), quantile(bare, 0.5))
		}
		t.add("start", what, ms(quantile(launch, 0.5)), floor, r)
		t.add("start", k.name+": launch+kill p50", ms(quantile(total, 0.5)), "", "")
	}
	return benchCourseStart(ctx, o, b, t)
}

// kindStarts launches and kills an agent of kind k n times, after
// startWarmUp starts not timed, with a bare exec of the same binary after
// each start (where the kind has one): the two take turns, so a change in
// the machine's speed during the run moves both, not the ratio alone.
func kindStarts(ctx context.Context, n int, k agentKind) (launch, total, bare []time.Duration, sandboxed bool, err error) {
	l := launcher(k.self)
	if k.off {
		l.Isolation = host.IsolationOff
	}
	l.NoCgroups = k.noCg
	l.Init = k.init
	for i := range n + startWarmUp {
		t0 := time.Now()
		p, err := l.Launch(ctx, k.ref, host.Options{})
		if err != nil {
			return nil, nil, nil, false, err
		}
		t1 := time.Now()
		p.Kill()
		t2 := time.Now()
		sandboxed = p.Sandboxed()
		var b time.Duration
		if k.bare != nil {
			if err := runBare(ctx, k.bare); err != nil {
				return nil, nil, nil, false, fmt.Errorf("bare %v: %w", k.bare, err)
			}
			b = time.Since(t2)
		}
		if i >= startWarmUp {
			launch = append(launch, t1.Sub(t0))
			total = append(total, t2.Sub(t0))
			if k.bare != nil {
				bare = append(bare, b)
			}
		}
	}
	return launch, total, bare, sandboxed, nil
}

// minGRPCStart times exec of the minimal gRPC server to its first reply.
func minGRPCStart(ctx context.Context, n int, b *bins) ([]time.Duration, error) {
	dir, err := os.MkdirTemp("", "arena-bench-sock-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	i := 0
	return timeCalls(n, startWarmUp, func() error {
		i++
		sock := filepath.Join(dir, strconv.Itoa(i)+".sock")
		cmd, err := startServer(ctx, b.mingrpc, sock)
		if err != nil {
			return err
		}
		defer stop(cmd)
		conn, err := grpc.DialContext(ctx, "unix://"+sock, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			return err
		}
		defer conn.Close()
		_, err = pb.NewAgentClient(conn).StartGame(ctx, &pb.StartRequest{})
		return err
	})
}

// rssKiB reads a process's resident set size.
func rssKiB(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			f := strings.Fields(v)
			if len(f) > 0 {
				n, _ := strconv.ParseInt(f[0], 10, 64)
				return n
			}
		}
	}
	return 0
}

func mib(kib int64) string { return fmt.Sprintf("%.1f MiB", float64(kib)/1024) }

func benchRSS(ctx context.Context, o options, b *bins, t *table) error {
	req, info, err := midgame()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "arena-bench-sock-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	sock := filepath.Join(dir, "grpc.sock")
	gs, err := startServer(ctx, b.mingrpc, sock)
	if err != nil {
		return err
	}
	defer stop(gs)
	conn, err := grpc.DialContext(ctx, "unix://"+sock, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := pb.NewAgentClient(conn).Move(ctx, wire(req)); err != nil {
		return err
	}
	floor := rssKiB(gs.Process.Pid)
	t.add("rss", "minimal gRPC server after one move", mib(floor), "", "")
	for _, k := range kinds(b) {
		if k.off {
			continue
		}
		l := launcher(k.self)
		l.Init = k.init
		p, err := l.Launch(ctx, k.ref, host.Options{})
		if err != nil {
			return fmt.Errorf("%s: %w", k.name, err)
		}
		err = p.Agent.Start(ctx, info)
		if err == nil {
			_, err = p.Agent.Move(ctx, req)
		}
		if err != nil {
			p.Kill()
			return fmt.Errorf("%s: %w", k.name, err)
		}
		// A sandbox's init becomes the agent (plugins/sandbox): the
		// agent's processes are all there is to count.
		var agent int64
		for _, pid := range p.Pids() {
			agent += rssKiB(pid)
		}
		p.Kill()
		what := k.name + ": agent process"
		if p.Sandboxed() {
			what += " (the sandbox's init, become the agent)"
		}
		t.add("rss", what, mib(agent), "minimal gRPC "+mib(floor), fmt.Sprintf("%.2f×", float64(agent)/float64(floor)))
	}
	return nil
}
