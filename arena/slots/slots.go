// Package slots hands out CPU slots to games so that every agent of a game
// under a wall-clock profile has a core of its own: a slot is one CPU, held
// by one agent for a whole game. Slots are shared host-wide through one
// lock file per CPU (flock, released by the kernel however the holder
// dies), so two arena processes on one machine never give the same core to
// two agents.
package slots

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// DirEnv names the environment variable that overrides the host-wide
// directory of slot lock files (DefaultDir).
const DirEnv = "ARENA_SLOTS_DIR"

// DefaultDir is where every arena process of this machine keeps its slot
// lock files: $ARENA_SLOTS_DIR, else a directory per user under the
// runtime directory (/run/arena for root), else under the temporary
// directory.
func DefaultDir() string {
	if d := os.Getenv(DirEnv); d != "" {
		return d
	}
	if os.Geteuid() == 0 {
		if fi, err := os.Stat("/run"); err == nil && fi.IsDir() {
			return "/run/arena/slots"
		}
	}
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		return filepath.Join(d, "arena", "slots")
	}
	return filepath.Join(os.TempDir(), "arena-slots-"+strconv.Itoa(os.Geteuid()))
}

// UseOwnDir makes a new directory of slot lock files (os.MkdirTemp with
// pattern) and points this process's DefaultDir, and every arena process
// it starts after (the environment), at it, returning it for the caller to
// remove. Those processes share its slots among themselves as the arenas
// of one machine do, but never wait for another arena's on the machine: a
// bench whose league rows would measure other arenas' games, a test
// binary whose leagues a user's league held up (a two-game league took
// from 1 s to 30 s on a shared machine).
func UseOwnDir(pattern string) (string, error) {
	dir, err := os.MkdirTemp("", pattern)
	if err != nil {
		return "", fmt.Errorf("cpu slots: own directory: %w", err)
	}
	if err := os.Setenv(DirEnv, dir); err != nil {
		os.Remove(dir)
		return "", fmt.Errorf("cpu slots: own directory: %w", err)
	}
	return dir, nil
}

// Machine is what Detect found: the CPUs this process may use and how many
// of them it may keep busy.
type Machine struct {
	CPUs []int  // CPUs of the process's affinity mask, ascending
	N    int    // slots: CPUs capped by GOMAXPROCS, the cgroup quota and --cores
	Why  string // which limit decided N, for humans
}

// Detect finds the slots of this process: the CPUs it may run on, capped
// by GOMAXPROCS, by the cgroup v2 CPU quota (cpu.max) and by limit when
// limit > 0 (--cores).
func Detect(limit int) (Machine, error) {
	cpus, err := Affinity(0)
	if err != nil {
		return Machine{}, fmt.Errorf("cpu slots: affinity: %w", err)
	}
	m := Machine{CPUs: cpus}
	m.N, m.Why = len(m.CPUs), fmt.Sprintf("%d CPUs in the affinity mask", len(m.CPUs))
	if g := runtime.GOMAXPROCS(0); g < m.N {
		m.N, m.Why = g, fmt.Sprintf("GOMAXPROCS=%d", g)
	}
	if q, ok := cgroupQuota(); ok && q < m.N {
		m.N, m.Why = q, fmt.Sprintf("cgroup CPU quota of %d core(s)", q)
	}
	if limit > 0 && limit < m.N {
		m.N, m.Why = limit, fmt.Sprintf("--cores %d", limit)
	}
	if m.N < 1 {
		m.N = 1
	}
	return m, nil
}

// cgroupQuota reads this process's cgroup v2 cpu.max: whole cores of
// quota, rounded down (at least 1), or false when unlimited or unknown.
func cgroupQuota() (int, bool) {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return 0, false
	}
	var rel string
	for _, line := range strings.Split(string(b), "\n") {
		if r, ok := strings.CutPrefix(line, "0::"); ok {
			rel = r
		}
	}
	if rel == "" {
		return 0, false
	}
	// The quota of any ancestor caps this cgroup too.
	best, found := 0, false
	for dir := filepath.Join("/sys/fs/cgroup", rel); strings.HasPrefix(dir, "/sys/fs/cgroup"); dir = filepath.Dir(dir) {
		if q, ok := parseCPUMax(filepath.Join(dir, "cpu.max")); ok && (!found || q < best) {
			best, found = q, true
		}
		if dir == "/sys/fs/cgroup" {
			break
		}
	}
	return best, found
}

func parseCPUMax(path string) (int, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(b))
	if len(f) != 2 || f[0] == "max" {
		return 0, false
	}
	quota, err1 := strconv.ParseFloat(f[0], 64)
	period, err2 := strconv.ParseFloat(f[1], 64)
	if err1 != nil || err2 != nil || period <= 0 {
		return 0, false
	}
	return max(1, int(quota/period)), true
}

// Pool hands out the slots of one arena process. Slots held by another
// process (or another Pool) through the same directory are skipped.
type Pool struct {
	dir  string
	cpus []int // the CPUs slots are made of, N of them

	mu    sync.Mutex
	held  map[int]*os.File
	freed chan struct{} // closed and replaced on every release
}

// New makes a pool of the first m.N CPUs of m whose lock files live in dir.
func New(dir string, m Machine) (*Pool, error) {
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, fmt.Errorf("cpu slots: %w", err)
	}
	// Every user's arena processes on the machine share the directory.
	_ = os.Chmod(dir, 0o777|os.ModeSticky)
	n := min(m.N, len(m.CPUs))
	if n < 1 {
		return nil, errors.New("cpu slots: no CPU to run agents on")
	}
	return &Pool{dir: dir, cpus: append([]int(nil), m.CPUs[:n]...), held: map[int]*os.File{}, freed: make(chan struct{})}, nil
}

// Size is the number of slots.
func (p *Pool) Size() int { return len(p.cpus) }

// CPUs are the CPUs of the slots.
func (p *Pool) CPUs() []int { return append([]int(nil), p.cpus...) }

// Dir is the directory of the lock files.
func (p *Pool) Dir() string { return p.dir }

// Free counts the slots neither this pool nor another process holds now.
func (p *Pool) Free() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	n := 0
	for _, c := range p.cpus {
		if p.held[c] != nil {
			continue
		}
		if f, err := p.tryLock(c); err == nil {
			unlock(f)
			n++
		}
	}
	return n
}

// Lease is a set of slots held for one game.
type Lease struct {
	p    *Pool
	cpus []int
	once sync.Once
}

// CPUs are the leased CPUs, one per agent.
func (l *Lease) CPUs() []int { return append([]int(nil), l.cpus...) }

// Release gives the slots back; calling it again does nothing.
func (l *Lease) Release() {
	l.once.Do(func() {
		p := l.p
		p.mu.Lock()
		for _, c := range l.cpus {
			if f := p.held[c]; f != nil {
				unlock(f)
				delete(p.held, c)
			}
		}
		close(p.freed)
		p.freed = make(chan struct{})
		p.mu.Unlock()
	})
}

// ErrTooMany refuses a lease of more slots than the pool has.
var ErrTooMany = errors.New("more slots asked than the machine has")

// Acquire waits until n slots are free and holds them, all or none (a
// game never starts with one agent pinned and the other waiting).
// Slots held by other processes are polled for, since their release
// cannot be seen otherwise.
func (p *Pool) Acquire(ctx context.Context, n int) (*Lease, error) {
	if n > len(p.cpus) {
		return nil, fmt.Errorf("cpu slots: %d asked, %d available: %w", n, len(p.cpus), ErrTooMany)
	}
	for {
		p.mu.Lock()
		var got []int
		var files []*os.File
		for _, c := range p.cpus {
			if len(got) == n {
				break
			}
			if p.held[c] != nil {
				continue
			}
			f, err := p.tryLock(c)
			if err != nil {
				continue
			}
			got = append(got, c)
			files = append(files, f)
		}
		if len(got) == n {
			for i, c := range got {
				p.held[c] = files[i]
			}
			p.mu.Unlock()
			return &Lease{p: p, cpus: got}, nil
		}
		for _, f := range files {
			unlock(f)
		}
		freed := p.freed
		p.mu.Unlock()
		// Jitter keeps two processes that each hold half of what the
		// other needs from retrying in lockstep.
		wait := time.Duration(20+rand.IntN(60)) * time.Millisecond
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-freed:
			t.Stop()
		case <-t.C:
		}
	}
}

func (p *Pool) tryLock(cpu int) (*os.File, error) {
	path := filepath.Join(p.dir, fmt.Sprintf("cpu%d.lock", cpu))
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o666)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

func unlock(f *os.File) {
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	f.Close()
}

// Sample is the machine's load at one moment.
type Sample struct {
	Load     float64 // one-minute load average
	Runnable int     // tasks running or ready to run, this reader excluded
	CPUs     int     // CPUs this process may use
}

// Now samples the machine's load; ok is false where /proc/loadavg cannot
// be read.
func Now() (Sample, bool) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return Sample{}, false
	}
	f := strings.Fields(string(b))
	if len(f) < 4 {
		return Sample{}, false
	}
	load, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return Sample{}, false
	}
	r, _, _ := strings.Cut(f[3], "/")
	run, err := strconv.Atoi(r)
	if err != nil {
		return Sample{}, false
	}
	return Sample{Load: load, Runnable: max(0, run-1), CPUs: runtime.NumCPU()}, true
}

// Load is the machine's one-minute load average (/proc/loadavg).
func Load() (float64, error) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return 0, errors.New("/proc/loadavg: empty")
	}
	return strconv.ParseFloat(f[0], 64)
}

// Running is the number of runnable tasks now, from /proc/loadavg's fourth
// field ("2/345"), the instant view of the load the one-minute average
// smooths; it counts the reading process itself.
func Running() (int, error) {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(b))
	if len(f) < 4 {
		return 0, errors.New("/proc/loadavg: short")
	}
	r, _, _ := strings.Cut(f[3], "/")
	return strconv.Atoi(r)
}

// Affinity reads the CPUs a process (or thread) may run on.
func Affinity(pid int) ([]int, error) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(pid, &set); err != nil {
		return nil, err
	}
	var out []int
	for c := 0; len(out) < set.Count(); c++ {
		if set.IsSet(c) {
			out = append(out, c)
		}
	}
	sort.Ints(out)
	return out, nil
}
