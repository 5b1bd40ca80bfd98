// Package proctree lists the processes descended from a process, from
// Linux /proc, and tells whether they still run. Tests use it to check that
// every process of an agent — the agent and anything it started — is gone
// after its game, by the pids themselves: a check on the agent's process
// group alone says "gone" whenever the agent is not a group leader, and
// does not see a child that left the group.
package proctree

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// Proc is one process: its pid and its start time (clock ticks after boot),
// which tells it apart from a later process given the same pid.
type Proc struct {
	Pid   int
	Start uint64
	Name  string
}

func (p Proc) String() string { return fmt.Sprintf("%d (%s)", p.Pid, p.Name) }

// Available says why this package cannot work here, or nil: it needs a
// Linux /proc.
func Available() error {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		return fmt.Errorf("process checks need Linux /proc: %w", err)
	}
	return nil
}

type stat struct {
	ppid   int
	state  byte
	start  uint64
	name   string
	exists bool
}

// readStat reads fields 2 (comm), 3 (state), 4 (ppid) and 22 (starttime)
// of /proc/<pid>/stat.
func readStat(pid int) (stat, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		// A process that is exiting can fail the read with ESRCH.
		if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ESRCH) {
			return stat{}, nil
		}
		return stat{}, err
	}
	// The command name is in parentheses and may contain spaces.
	open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || end < open {
		return stat{}, fmt.Errorf("parse /proc/%d/stat", pid)
	}
	f := bytes.Fields(b[end+1:])
	if len(f) < 20 {
		return stat{}, fmt.Errorf("parse /proc/%d/stat: %d fields", pid, len(f))
	}
	ppid, err := strconv.Atoi(string(f[1]))
	if err != nil {
		return stat{}, fmt.Errorf("parse /proc/%d/stat ppid: %w", pid, err)
	}
	start, err := strconv.ParseUint(string(f[19]), 10, 64)
	if err != nil {
		return stat{}, fmt.Errorf("parse /proc/%d/stat starttime: %w", pid, err)
	}
	return stat{ppid: ppid, state: f[0][0], start: start, name: string(b[open+1 : end]), exists: true}, nil
}

// Tree returns root and every process descended from it that runs now
// (zombies are dead and left out), root first, then breadth first. It is
// empty when root is gone. It follows the kernel's per-thread children
// lists: a few reads per process of the tree, where a scan of /proc
// (treeByScan, for a kernel built without the lists) reads every process
// of the machine; arena/referee's tests, which watch their agents' trees
// every 10 ms, spent half their CPU on those scans.
func Tree(root int) ([]Proc, error) {
	out, err := treeByLists(root)
	if errors.Is(err, errNoChildLists) {
		return treeByScan(root)
	}
	return out, err
}

// treeByLists is Tree through the children lists. A listed child counts
// only while its parent is the one that listed it: the lists may name a
// child that has just been re-parented away. A pid is visited once, so a
// pid reused while the tree is read cannot make the walk go round.
func treeByLists(root int) ([]Proc, error) {
	type node struct{ pid, parent int }
	var out []Proc
	queue := []node{{root, -1}}
	seen := map[int]bool{root: true}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		s, err := readStat(n.pid)
		if err != nil {
			return nil, err
		}
		if !s.exists || n.parent >= 0 && s.ppid != n.parent {
			continue
		}
		if s.state != 'Z' {
			out = append(out, Proc{Pid: n.pid, Start: s.start, Name: s.name})
		}
		kids, err := ChildPids(n.pid)
		if err != nil {
			return nil, err
		}
		for _, k := range kids {
			if !seen[k] {
				seen[k] = true
				queue = append(queue, node{k, n.pid})
			}
		}
	}
	return out, nil
}

// treeByScan is Tree by reading every process of /proc and following
// their parents.
func treeByScan(root int) ([]Proc, error) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil, fmt.Errorf("list /proc: %w", err)
	}
	children := map[int][]int{}
	stats := map[int]stat{}
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		s, err := readStat(pid)
		if err != nil {
			return nil, err
		}
		if !s.exists {
			continue // ended while /proc was read
		}
		stats[pid] = s
		children[s.ppid] = append(children[s.ppid], pid)
	}
	var out []Proc
	queue := []int{root}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		s, ok := stats[pid]
		if !ok {
			continue
		}
		if s.state != 'Z' {
			out = append(out, Proc{Pid: pid, Start: s.start, Name: s.name})
		}
		queue = append(queue, children[pid]...)
	}
	return out, nil
}

// Of returns the process that has pid now; ok is false when there is none.
func Of(pid int) (p Proc, ok bool, err error) {
	s, err := readStat(pid)
	if err != nil || !s.exists {
		return Proc{}, false, err
	}
	return Proc{Pid: pid, Start: s.start, Name: s.name}, true, nil
}

// Alive reports whether p still runs: its pid exists with the same start
// time and is not a zombie.
func Alive(p Proc) (bool, error) {
	s, err := readStat(p.Pid)
	if err != nil {
		return false, err
	}
	return s.exists && s.start == p.Start && s.state != 'Z', nil
}

// WaitGone waits up to d for every process in ps to be gone (the kernel
// reaps killed processes shortly after the kill) and returns those that
// still run.
func WaitGone(ps []Proc, d time.Duration) ([]Proc, error) {
	deadline := time.Now().Add(d)
	for {
		var alive []Proc
		for _, p := range ps {
			ok, err := Alive(p)
			if err != nil {
				return nil, err
			}
			if ok {
				alive = append(alive, p)
			}
		}
		if len(alive) == 0 || time.Now().After(deadline) {
			return alive, nil
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Watch records every process seen in the trees of its roots, sampling
// them until Stop, so that a test can check afterwards that all of them
// are gone — including a child that lived only part of the game.
type Watch struct {
	mu    sync.Mutex
	roots []int
	seen  map[Proc]bool
	err   error
	stop  chan struct{}
	done  chan struct{}
}

// NewWatch starts sampling every interval.
func NewWatch(interval time.Duration) *Watch {
	w := &Watch{seen: map[Proc]bool{}, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			w.sample()
			select {
			case <-w.stop:
				return
			case <-t.C:
			}
		}
	}()
	return w
}

// Add watches root's tree from now on, sampling it at once.
func (w *Watch) Add(root int) {
	w.mu.Lock()
	w.roots = append(w.roots, root)
	w.mu.Unlock()
	w.sample()
}

func (w *Watch) sample() {
	w.mu.Lock()
	roots := slices.Clone(w.roots)
	w.mu.Unlock()
	for _, r := range roots {
		ps, err := Tree(r)
		w.mu.Lock()
		if err != nil && w.err == nil {
			w.err = err
		}
		for _, p := range ps {
			w.seen[p] = true
		}
		w.mu.Unlock()
	}
}

// Stop ends sampling (after one last sample) and returns every process
// seen, or the first error reading /proc.
func (w *Watch) Stop() ([]Proc, error) {
	select {
	case <-w.stop:
	default:
		w.sample()
		close(w.stop)
	}
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	out := make([]Proc, 0, len(w.seen))
	for p := range w.seen {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b Proc) int { return a.Pid - b.Pid })
	return out, w.err
}

// Children lists the running children of pid, oldest first (by start
// time, then pid). It reads the kernel's per-thread lists of children,
// which cost a few reads whatever the machine runs; a scan of all of
// /proc (read where the kernel keeps no such lists) cost 1.8 ms with 68
// processes and grows with every process on the machine, and an agent's
// launch waits on it.
func Children(pid int) ([]Proc, error) {
	pids, err := ChildPids(pid)
	if errors.Is(err, errNoChildLists) {
		pids, err = allPids()
	}
	if err != nil {
		return nil, err
	}
	return childrenAmong(pid, pids)
}

// childrenAmong keeps, of the processes pids, the running children of pid
// (the kernel's lists may name a child that has just been re-parented
// away), oldest first.
func childrenAmong(pid int, pids []int) ([]Proc, error) {
	var out []Proc
	for _, child := range pids {
		s, err := readStat(child)
		if err != nil {
			return nil, err
		}
		if s.exists && s.ppid == pid && s.state != 'Z' {
			out = append(out, Proc{Pid: child, Start: s.start, Name: s.name})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Start != out[j].Start {
			return out[i].Start < out[j].Start
		}
		return out[i].Pid < out[j].Pid
	})
	return out, nil
}

// errNoChildLists: the kernel has no /proc/<pid>/task/<tid>/children
// (built without CONFIG_PROC_CHILDREN).
var errNoChildLists = errors.New("no per-thread children lists")

// ChildPids reads pid's children from its threads' children lists, as
// they are listed (a child may be a zombie, or have just been re-parented
// away). A process that is gone has none; a kernel built without the
// lists (CONFIG_PROC_CHILDREN) gives an error.
func ChildPids(pid int) ([]int, error) {
	task := "/proc/" + strconv.Itoa(pid) + "/task"
	tids, err := readNames(task)
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, syscall.ESRCH) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", task, err)
	}
	var out []int
	read := 0
	for _, t := range tids {
		b, err := os.ReadFile(task + "/" + t + "/children")
		if err != nil {
			continue // the thread ended
		}
		read++
		for _, f := range bytes.Fields(b) {
			if c, err := strconv.Atoi(string(f)); err == nil {
				out = append(out, c)
			}
		}
	}
	if read == 0 && len(tids) > 0 {
		if _, err := os.Stat(task + "/" + tids[0]); err == nil {
			return nil, errNoChildLists
		}
	}
	return out, nil
}

// readNames lists a directory's names.
func readNames(dir string) ([]string, error) {
	d, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Readdirnames(-1)
}

// allPids lists every process of the machine, for a scan where the kernel
// keeps no children lists.
func allPids() ([]int, error) {
	names, err := readNames("/proc")
	if err != nil {
		return nil, fmt.Errorf("list /proc: %w", err)
	}
	var out []int
	for _, n := range names {
		if pid, err := strconv.Atoi(n); err == nil {
			out = append(out, pid)
		}
	}
	return out, nil
}
