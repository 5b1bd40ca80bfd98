package host

import (
	"fmt"
	"slices"
	"syscall"
	"time"

	"arena/plugins/host/proctree"
)

// extrasGrace is how long KillExtras waits for the killed processes to be
// gone; the kernel takes milliseconds, so this only bounds a stuck one.
const extrasGrace = 5 * time.Second

// KillExtras ends every process of the agent's tree but its main process
// (which a sandbox's init became), for a process kept between games: a child it
// started in one game must not run on through games it is not in. An
// error means the tree could not be cleaned (or read): the process must
// not be reused.
func (p *Process) KillExtras() error {
	p.mu.Lock()
	killed := p.killed
	p.mu.Unlock()
	if killed || !p.started() {
		return fmt.Errorf("agent %s: not running", p.Cmd.Ref)
	}
	if p.main == nil {
		return fmt.Errorf("agent %s: its main process is unknown", p.Cmd.Ref)
	}
	if alive, err := proctree.Alive(*p.main); err != nil || !alive {
		return fmt.Errorf("agent %s: its main process %s is gone: %w", p.Cmd.Ref, p.main, err)
	}
	deadline := time.Now().Add(extrasGrace)
	for {
		extras := p.extras()
		if len(extras) == 0 {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("agent %s: processes %v survive SIGKILL", p.Cmd.Ref, extras)
		}
		for _, pid := range extras {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// extras lists the host pids of the agent's processes other than its main
// one, zombies left out.
func (p *Process) extras() []int {
	var pids []int
	if p.sandboxed {
		pids = namespacePids(p.pid, p.ns)
	} else {
		pids = groupPids(p.pid)
		if tree, err := proctree.Tree(p.pid); err == nil {
			for _, t := range tree {
				pids = append(pids, t.Pid)
			}
		}
		slices.Sort(pids)
		pids = slices.Compact(pids)
	}
	var out []int
	for _, pid := range pids {
		if pid == p.pid || pid == p.main.Pid {
			continue
		}
		if pr, ok, err := proctree.Of(pid); err == nil && ok {
			if alive, _ := proctree.Alive(pr); alive {
				out = append(out, pid)
			}
		}
	}
	return out
}
