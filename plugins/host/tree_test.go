package host_test

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"arena/internal/forksafe"
	"arena/plugins/host"
	"arena/plugins/host/proctree"
	"arena/plugins/protocol"
)

// spawnChild is the spawner agent's move: it starts a long sleep, as an
// agent might start a helper, and answers with the child's pid.
func spawnChild() (string, error) {
	cmd := exec.Command("sleep", "300")
	if err := cmd.Start(); err != nil {
		return "", err
	}
	return fmt.Sprint(cmd.Process.Pid), nil
}

// Kill ends every process of the agent — the agent and the child it
// started — checked by their pids: a check on the process group alone
// passes when the agent is not a group leader at all.
func TestKillEndsTheAgentsWholeTree(t *testing.T) {
	t.Parallel() // its own agents; mostly waiting on them
	if err := proctree.Available(); err != nil {
		t.Skip(err)
	}
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skipf("the spawner agent starts the sleep command: %v", err)
	}
	p := launch(t, "spawner", host.Options{})
	defer p.Kill()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := p.Agent.Move(ctx, protocol.MoveRequest{}); err != nil {
		t.Fatal(err)
	}
	// The child's pid as the agent sees it may be another namespace's;
	// the tree is read from this side.
	tree, err := proctree.Tree(p.Pid())
	if err != nil {
		t.Fatal(err)
	}
	sleeping := 0
	for _, pr := range tree {
		if strings.Contains(pr.Name, "sleep") {
			sleeping++
		}
	}
	if len(tree) < 2 || sleeping != 1 {
		t.Fatalf("agent tree %v, want the agent and its sleep child", tree)
	}
	p.Kill()
	alive, err := proctree.WaitGone(tree, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(alive) > 0 {
		for _, pr := range alive {
			_ = syscall.Kill(pr.Pid, syscall.SIGKILL) // leave no leak behind
		}
		t.Fatalf("after Kill, still running: %v", alive)
	}
}

// slowStart is how long the slowstart agent waits before its handshake.
const slowStart = 6 * time.Second

// A start-up timeout is honoured: an agent slower to start than its
// timeout is refused at the timeout, not at some default.
func TestStartTimeoutIsHonoured(t *testing.T) {
	t.Parallel() // its own agent processes; the refusal has 5 s of margin
	longRunning(t)
	start := time.Now()
	p, err := launcher().Launch(context.Background(), "slowstart", host.Options{StartTimeout: time.Second})
	took := time.Since(start)
	if err == nil {
		p.Kill()
		t.Fatalf("an agent that starts in %v was accepted with a 1 s start-up timeout (after %v)", slowStart, took)
	}
	if took >= slowStart {
		t.Fatalf("refused only after %v: the 1 s timeout was not applied (%v)", took, err)
	}
	// And one that is given long enough starts.
	p, err = launcher().Launch(context.Background(), "slowstart", host.Options{StartTimeout: slowStart + 30*time.Second})
	if err != nil {
		t.Fatalf("with time enough: %v", err)
	}
	p.Kill()
}

// A program that fails before the handshake is refused with the end of
// what it wrote to stderr, which is usually why.
func TestLaunchErrorCarriesStderr(t *testing.T) {
	t.Parallel() // its own agents; mostly waiting on them
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skipf("needs sh: %v", err)
	}
	script := filepath.Join(t.TempDir(), "broken-agent")
	body := "#!" + sh + "\necho 'cannot open model weights' >&2\nexit 3\n"
	if err := forksafe.WriteFile(script, []byte(body)); err != nil {
		t.Fatal(err)
	}
	_, err = launcher().Launch(context.Background(), script, host.Options{StartTimeout: 30 * time.Second})
	if err == nil || !strings.Contains(err.Error(), "agent stderr:") || !strings.Contains(err.Error(), "cannot open model weights") {
		t.Fatalf("error %v, want the agent's stderr in it", err)
	}
}

// A command that cannot even be started leaves nothing to kill: the
// cleanup after the failure must not signal "process group 0", which is
// the caller's own group (this test binary would die).
func TestUnstartableCommandIsRefusedCleanly(t *testing.T) {
	t.Parallel() // its own agents; mostly waiting on them
	c := host.Command{Ref: "ghost", Kind: "binary", Argv: []string{filepath.Join(t.TempDir(), "no-such-agent")}}
	p, err := launcher().Start(context.Background(), c, host.Options{StartTimeout: 30 * time.Second})
	if err == nil {
		p.Kill()
		t.Fatal("a command that does not exist started")
	}
	if !strings.Contains(err.Error(), "ghost") {
		t.Fatalf("error %v does not name the agent", err)
	}
}
