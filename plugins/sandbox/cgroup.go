package sandbox

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"arena/internal/pidsweep"
)

// The controllers an agent's group needs: exact CPU time of the whole
// tree, a memory limit the kernel enforces, and a bound on its tasks.
// cgroup v1 names CPU accounting cpuacct; v2 puts it in cpu.
var (
	controllersV1 = []string{"cpuacct", "memory", "pids"}
	controllersV2 = []string{"cpu", "memory", "pids"}
)

// groupPrefix starts the name of every group the arena makes; the arena's
// pid follows, so a later arena can tell the groups of a dead one.
const groupPrefix = "arena-"

// CgroupRoot is where this arena makes its agents' groups: per
// controller (v1) or once (v2), the arena's own group in each hierarchy.
type CgroupRoot struct {
	Version int
	parent  map[string]string // controller -> the arena's own group, where agent groups are made
	names   []string          // the controllers, in the order said
	seq     atomic.Int64
}

// FindCgroups chooses the cgroup hierarchies agents' groups go in:
// cgroup v2 where its unified hierarchy offers cpu, memory and pids to
// groups made under the arena's own, else v1 where cpuacct, memory and
// pids are mounted, each writable. self is /proc/self/cgroup. The error
// says why neither is usable; CPU and memory are then read from /proc.
func FindCgroups(hs []Hierarchy, self []byte) (*CgroupRoot, error) {
	own := ownGroups(self)
	var why []string
	for _, h := range hs {
		if h.Version != 2 {
			continue
		}
		r, err := findV2(h, own[""])
		if err == nil {
			return r, nil
		}
		why = append(why, err.Error())
	}
	r, err := findV1(hs, own)
	if err == nil {
		return r, nil
	}
	why = append(why, err.Error())
	return nil, errors.New(strings.Join(why, "; "))
}

// MachineCgroupRoot is FindCgroups of this process's mounts and groups.
func MachineCgroupRoot() (*CgroupRoot, error) {
	self, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return nil, fmt.Errorf("cgroups: %w", err)
	}
	return FindCgroups(MachineCgroups(), self)
}

// ownGroups reads /proc/self/cgroup ("4:memory:/a/b", "0::/c"): each v1
// controller's group, and under "" the v2 group. On v1 the file is read
// from the main thread's groups, and the main thread may be the one that
// joined an agent's group to start it (JoinThread): an agent's group is
// never the arena's own, so trailing arena groups are left out, or agents'
// groups would be made inside another agent's.
func ownGroups(self []byte) map[string]string {
	out := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(self))
	for sc.Scan() {
		f := strings.SplitN(sc.Text(), ":", 3)
		if len(f) != 3 {
			continue
		}
		path := outsideArenaGroups(f[2])
		if f[1] == "" {
			out[""] = path
			continue
		}
		for _, c := range strings.Split(f[1], ",") {
			out[c] = path
		}
	}
	return out
}

func findV1(hs []Hierarchy, own map[string]string) (*CgroupRoot, error) {
	r := &CgroupRoot{Version: 1, parent: map[string]string{}, names: controllersV1}
	for _, c := range controllersV1 {
		var h *Hierarchy
		for i := range hs {
			if hs[i].Version == 1 && contains(hs[i].Controllers, c) {
				h = &hs[i]
			}
		}
		if h == nil {
			return nil, fmt.Errorf("cgroup v1: no %s hierarchy mounted", c)
		}
		path, ok := own[c]
		if !ok {
			return nil, fmt.Errorf("cgroup v1: this process's %s group is not in /proc/self/cgroup", c)
		}
		r.parent[c] = filepath.Join(h.Path, path)
	}
	if err := r.check(); err != nil {
		return nil, fmt.Errorf("cgroup v1: %w", err)
	}
	return r, nil
}

func findV2(h Hierarchy, own string) (*CgroupRoot, error) {
	dir := filepath.Join(h.Path, own)
	r := &CgroupRoot{Version: 2, parent: map[string]string{}, names: controllersV2}
	for _, c := range controllersV2 {
		r.parent[c] = dir
	}
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.subtree_control"))
	if err != nil {
		return nil, fmt.Errorf("cgroup v2 %s: %w", dir, err)
	}
	on := strings.Fields(string(b))
	var want []string
	for _, c := range controllersV2 {
		if !contains(on, c) {
			want = append(want, "+"+c)
		}
	}
	if len(want) > 0 {
		// Possible only where the arena's group holds no process itself
		// (or is the root): v2 puts processes in leaves only.
		if err := os.WriteFile(filepath.Join(dir, "cgroup.subtree_control"), []byte(strings.Join(want, " ")), 0); err != nil {
			return nil, fmt.Errorf("cgroup v2 %s: controllers %s not delegated to groups below this process's: %w", dir, strings.Join(want, " "), err)
		}
	}
	if err := r.check(); err != nil {
		return nil, fmt.Errorf("cgroup v2 %s: %w", dir, err)
	}
	return r, nil
}

// check makes and removes a group, and finds the files the readings use.
func (r *CgroupRoot) check() error {
	g, err := r.New()
	if err != nil {
		return err
	}
	defer g.Remove(time.Second)
	files := map[int][]string{
		1: {"cpuacct/cpuacct.usage", "memory/memory.limit_in_bytes", "memory/memory.max_usage_in_bytes", "memory/memory.oom_control", "pids/pids.max", "cpuacct/tasks"},
		2: {"cpu/cpu.stat", "memory/memory.max", "memory/memory.events", "pids/pids.max"},
	}[r.Version]
	for _, f := range files {
		c, name, _ := strings.Cut(f, "/")
		if _, err := os.Stat(filepath.Join(g.dirs[c], name)); err != nil {
			return err
		}
	}
	if r.Version == 1 {
		// oom_kill in memory.oom_control (Linux 4.13) is how a memory
		// verdict is told.
		if _, err := g.counter("memory", "memory.oom_control", "oom_kill"); err != nil {
			return err
		}
	}
	return nil
}

// Describe says which cgroup version and controllers agents' groups use.
func (r *CgroupRoot) Describe() string {
	var at []string
	for _, c := range r.names {
		at = append(at, c+" at "+r.parent[c])
	}
	if r.Version == 2 {
		return fmt.Sprintf("cgroup v2, controllers %s at %s", strings.Join(r.names, ", "), r.parent["memory"])
	}
	return "cgroup v1, controllers " + strings.Join(at, ", ")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Group is one agent's cgroup: every process of its tree, from the first,
// is in it.
type Group struct {
	version int
	dirs    map[string]string // controller -> the group's directory
	home    map[string]string // v1: controller -> the arena's own group
	dirFD   *os.File          // v2: the group's directory, for CLONE_INTO_CGROUP

	mu  sync.Mutex
	cpu *os.File // kept open: read around every move; nil once removed
	// kept are the memory files read while the agent runs, opened on
	// first read and then read in place like cpu: opening one walks the
	// group's path, and the arena reads them every 20 ms per agent.
	kept map[keptFile]*os.File
	// peak is the memory file Peak reads, chosen when the group is made
	// ("" for the version's own).
	peak string
}

// keptFile names one of a group's files: its controller and file name.
type keptFile struct{ ctl, name string }

// nameTries bounds how many taken group names New passes over.
const nameTries = 1000

// New makes an empty group for one agent, named after the arena's pid and
// the next number not yet taken. A name may be taken: every CgroupRoot of
// a process numbers its groups (a process running two launchers has two),
// and a killed arena that had this pid may have left its groups (Sweep
// leaves them while the pid lives). Such a group is never shared: an
// agent put in another's group would be charged its CPU and memory, and
// the group would be removed under it.
func (r *CgroupRoot) New() (*Group, error) {
	for range nameTries {
		g, err := r.newNamed(groupName(r.seq.Add(1)))
		if !errors.Is(err, fs.ErrExist) {
			return g, err
		}
	}
	return nil, fmt.Errorf("cgroup: %d group names in a row taken (%s%d-N in %s)", nameTries, groupPrefix, os.Getpid(), r.parent[r.names[0]])
}

// groupName is the name of this arena's seq-th group.
func groupName(seq int64) string {
	return groupPrefix + strconv.Itoa(os.Getpid()) + "-" + strconv.FormatInt(seq, 10)
}

// newNamed makes the group name in every controller; where one holds it
// already, it removes what it made and fails with fs.ErrExist.
func (r *CgroupRoot) newNamed(name string) (*Group, error) {
	g := &Group{version: r.Version, dirs: map[string]string{}, home: r.parent}
	for _, c := range r.names {
		dir := filepath.Join(r.parent[c], name)
		if _, done := g.madeDir(dir); !done {
			if err := os.Mkdir(dir, 0o755); err != nil {
				g.Remove(time.Second)
				return nil, fmt.Errorf("cgroup: make %s: %w", dir, err)
			}
		}
		g.dirs[c] = dir
	}
	var err error
	if r.Version == 2 {
		if g.dirFD, err = os.Open(g.dirs["memory"]); err != nil {
			g.Remove(time.Second)
			return nil, fmt.Errorf("cgroup: %w", err)
		}
	}
	cpuFile := map[int]string{1: "cpuacct.usage", 2: "cpu.stat"}[r.Version]
	cpuCtl := map[int]string{1: "cpuacct", 2: "cpu"}[r.Version]
	if g.cpu, err = os.Open(filepath.Join(g.dirs[cpuCtl], cpuFile)); err != nil {
		g.Remove(time.Second)
		return nil, fmt.Errorf("cgroup: %w", err)
	}
	if r.Version == 2 {
		// memory.peak came with Linux 5.19; before it the current use is
		// the best there is.
		if _, err := os.Stat(filepath.Join(g.dirs["memory"], "memory.peak")); errors.Is(err, fs.ErrNotExist) {
			g.peak = "memory.current"
		}
	}
	return g, nil
}

// madeDir reports whether dir was already made for this group (v2 gives
// every controller the same directory).
func (g *Group) madeDir(dir string) (string, bool) {
	for c, d := range g.dirs {
		if d == dir {
			return c, true
		}
	}
	return "", false
}

// SetLimits bounds the group's memory (bytes; 0 or less: none) and its
// tasks, processes and threads together (0 or less: none). Over the
// memory limit the kernel first reclaims the group's page cache, then
// kills a process of the group (counted by OOMKills); at the task limit
// fork and thread creation fail with EAGAIN.
func (g *Group) SetLimits(memory int64, tasks int) error {
	if memory > 0 {
		file := map[int]string{1: "memory.limit_in_bytes", 2: "memory.max"}[g.version]
		if err := g.write("memory", file, strconv.FormatInt(memory, 10)); err != nil {
			return err
		}
		// Without swap the limit is the agent's memory; a swap file
		// would let it go past (best effort: the files may be absent).
		if g.version == 1 {
			_ = g.write("memory", "memory.swappiness", "0")
		} else {
			_ = g.write("memory", "memory.swap.max", "0")
		}
	}
	if tasks > 0 {
		if err := g.write("pids", "pids.max", strconv.Itoa(tasks)); err != nil {
			return err
		}
	}
	return nil
}

func (g *Group) write(ctl, file, value string) error {
	p := filepath.Join(g.dirs[ctl], file)
	if err := os.WriteFile(p, []byte(value), 0); err != nil {
		return fmt.Errorf("cgroup: write %s to %s: %w", value, p, err)
	}
	return nil
}

// IntoCgroup returns, on v2, the group's directory descriptor for
// syscall.SysProcAttr's CgroupFD (the child starts in the group); on v1,
// -1: a sandbox's init joins by itself (ProcsFiles), an unsandboxed
// agent's starting thread joins for it (JoinThread).
func (g *Group) IntoCgroup() int {
	if g.dirFD == nil {
		return -1
	}
	return int(g.dirFD.Fd())
}

// ProcsFiles opens, on v1, the group's cgroup.procs in every controller
// for writing, for a sandbox's init to write itself into (Config.Join):
// the arena opened them, so the kernel checks the arena's right to move
// a process, and the init, whose own ids could not open them, can use
// them. On v2 there are none (IntoCgroup).
func (g *Group) ProcsFiles() ([]*os.File, error) {
	if g.version != 1 {
		return nil, nil
	}
	var out []*os.File
	for _, c := range controllersV1 {
		f, err := os.OpenFile(filepath.Join(g.dirs[c], "cgroup.procs"), os.O_WRONLY, 0)
		if err != nil {
			for _, o := range out {
				o.Close()
			}
			return nil, fmt.Errorf("cgroup: %w", err)
		}
		out = append(out, f)
	}
	return out, nil
}

// Version is the group's cgroup version, 1 or 2.
func (g *Group) Version() int { return g.version }

// JoinThread moves the calling OS thread into the group (v1, where a
// group holds threads), so that a process it forks starts in the group
// from its first instruction; leave moves it back to the arena's own
// groups. The caller must hold the thread (runtime.LockOSThread) from
// before JoinThread until after leave. On v2 it does nothing (IntoCgroup).
// Only unsandboxed agents need it: a sandbox's init joins by itself.
func (g *Group) JoinThread() (leave func() error, err error) {
	if g.version != 1 {
		return func() error { return nil }, nil
	}
	tid := strconv.Itoa(unix.Gettid())
	move := func(dirs map[string]string) error {
		for _, c := range controllersV1 {
			if err := os.WriteFile(filepath.Join(dirs[c], "tasks"), []byte(tid), 0); err != nil {
				return fmt.Errorf("cgroup: move thread %s to %s: %w", tid, dirs[c], err)
			}
		}
		return nil
	}
	if err := move(g.dirs); err != nil {
		_ = move(g.home)
		return nil, err
	}
	return func() error { return move(g.home) }, nil
}

// CPU is the CPU time (user and system) of every process the group has
// held, those that ended included: one read of one kept file, exact to
// the nanosecond on v1, the microsecond on v2.
func (g *Group) CPU() (time.Duration, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cpu == nil {
		return 0, errors.New("cgroup: the group was removed")
	}
	var buf [512]byte
	n, err := g.cpu.ReadAt(buf[:], 0)
	if n == 0 {
		return 0, fmt.Errorf("cgroup: read %s: %w", g.cpu.Name(), err)
	}
	return parseCPU(g.version, buf[:n])
}

// parseCPU reads cpuacct.usage (v1: nanoseconds) or cpu.stat's
// usage_usec (v2).
func parseCPU(version int, b []byte) (time.Duration, error) {
	if version == 1 {
		v, err := strconv.ParseInt(string(bytes.TrimSpace(b)), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("cgroup: cpuacct.usage %q: %w", b, err)
		}
		return time.Duration(v), nil
	}
	v, err := field(b, "usage_usec")
	if err != nil {
		return 0, fmt.Errorf("cgroup: cpu.stat: %w", err)
	}
	return time.Duration(v) * time.Microsecond, nil
}

// field reads the count after name in a "name value" per line file.
func field(b []byte, name string) (int64, error) {
	for _, line := range bytes.Split(b, []byte{'\n'}) {
		k, v, ok := bytes.Cut(bytes.TrimSpace(line), []byte{' '})
		if ok && string(k) == name {
			return strconv.ParseInt(string(bytes.TrimSpace(v)), 10, 64)
		}
	}
	return 0, fmt.Errorf("no %s in %q", name, b)
}

func (g *Group) counter(ctl, file, name string) (int64, error) {
	var buf [512]byte
	b, err := g.read(keptFile{ctl, file}, buf[:])
	if err != nil {
		return 0, err
	}
	v, err := field(b, name)
	if err != nil {
		return 0, fmt.Errorf("cgroup: %s: %w", file, err)
	}
	return v, nil
}

// read reads the group's file f into buf from its start, opening it on
// first use and keeping it open until Remove.
func (g *Group) read(f keptFile, buf []byte) ([]byte, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cpu == nil {
		return nil, errors.New("cgroup: the group was removed")
	}
	file := g.kept[f]
	if file == nil {
		var err error
		if file, err = os.Open(filepath.Join(g.dirs[f.ctl], f.name)); err != nil {
			return nil, fmt.Errorf("cgroup: %w", err)
		}
		if g.kept == nil {
			g.kept = map[keptFile]*os.File{}
		}
		g.kept[f] = file
	}
	n, err := file.ReadAt(buf, 0)
	if n == 0 {
		return nil, fmt.Errorf("cgroup: read %s: %w", file.Name(), err)
	}
	return buf[:n], nil
}

// Memory is the group's peak memory in bytes (every page charged to it:
// anonymous memory, shared pages once, and the page cache of the files it
// read) and how many of its processes the kernel killed for the limit.
// The kills are read first: a kill between the two reads would otherwise
// come with the peak from before the agent's last allocations, below the
// limit it was killed for.
func (g *Group) Memory() (peak, oomKills int64, err error) {
	if oomKills, err = g.counter("memory", g.eventsFile(), "oom_kill"); err != nil {
		return 0, 0, err
	}
	if peak, err = g.Peak(); err != nil {
		return 0, 0, err
	}
	return peak, oomKills, nil
}

// peakFile is the memory file Peak reads: the one chosen when the group
// was made, else the version's own. On v2, each read through a kept
// memory.peak is the peak since the group was made: only a write to it
// (which nothing here does) would restart that descriptor's peak.
func (g *Group) peakFile() string {
	if g.peak != "" {
		return g.peak
	}
	if g.version == 1 {
		return "memory.max_usage_in_bytes"
	}
	return "memory.peak"
}

// eventsFile is the memory file that counts the group's OOM kills.
func (g *Group) eventsFile() string {
	if g.version == 1 {
		return "memory.oom_control"
	}
	return "memory.events"
}

// Peak is Memory's peak alone, one read of one kept file.
func (g *Group) Peak() (int64, error) {
	name := g.peakFile()
	var buf [64]byte
	b, err := g.read(keptFile{"memory", name}, buf[:])
	if err != nil {
		return 0, err
	}
	peak, err := strconv.ParseInt(string(bytes.TrimSpace(b)), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("cgroup: %s %q: %w", name, b, err)
	}
	return peak, nil
}

// Pids lists the host pids of the group's processes.
func (g *Group) Pids() ([]int, error) {
	ctl := "pids"
	b, err := os.ReadFile(filepath.Join(g.dirs[ctl], "cgroup.procs"))
	if err != nil {
		return nil, fmt.Errorf("cgroup: %w", err)
	}
	var out []int
	for _, f := range strings.Fields(string(b)) {
		if pid, err := strconv.Atoi(f); err == nil {
			out = append(out, pid)
		}
	}
	return out, nil
}

// Kill sends SIGKILL to every process of the group: a setsid'ed or
// double-forked child of an unsandboxed agent cannot leave it.
func (g *Group) Kill() {
	if g.version == 2 {
		if g.write("pids", "cgroup.kill", "1") == nil {
			return
		}
	}
	// A process forking while the list is read is caught next round. On
	// v1 the list names the arena itself while its starting thread is in
	// the group (JoinThread): it is never signalled.
	self := os.Getpid()
	for range 10 {
		pids, err := g.Pids()
		if err != nil || len(pids) == 0 || len(pids) == 1 && pids[0] == self {
			return
		}
		for _, pid := range pids {
			if pid != self {
				_ = syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	}
}

// Remove deletes the group, waiting up to wait for its last processes to
// be gone (a group is removed only empty). Safe to call more than once.
func (g *Group) Remove(wait time.Duration) error {
	g.mu.Lock()
	if g.cpu != nil {
		g.cpu.Close()
		g.cpu = nil
	}
	for _, f := range g.kept {
		f.Close()
	}
	g.kept = nil
	g.mu.Unlock()
	if g.dirFD != nil {
		g.dirFD.Close()
		g.dirFD = nil
	}
	deadline := time.Now().Add(wait)
	var errs []error
	for c, dir := range g.dirs {
		for {
			err := os.Remove(dir)
			if err == nil || errors.Is(err, os.ErrNotExist) {
				delete(g.dirs, c)
				break
			}
			if !errors.Is(err, syscall.EBUSY) || time.Now().After(deadline) {
				errs = append(errs, fmt.Errorf("cgroup: remove %s: %w", dir, err))
				break
			}
			g.Kill()
			time.Sleep(5 * time.Millisecond)
		}
	}
	return errors.Join(errs...)
}

// Sweep removes the groups left by arenas that are gone (killed before
// they could remove them); their processes died with them.
func (r *CgroupRoot) Sweep() {
	seen := map[string]bool{}
	for _, parent := range r.parent {
		if seen[parent] {
			continue
		}
		seen[parent] = true
		entries, _ := os.ReadDir(parent)
		for _, e := range entries {
			pid, ok := arenaPid(e.Name())
			if !ok || !e.IsDir() || !pidsweep.Gone(pid) {
				continue
			}
			removeTree(r.Version, filepath.Join(parent, e.Name()))
		}
	}
}

// removeTree removes a group of a gone arena and, first, the groups made
// inside it (an arena that misread its own group made them there): a
// group with groups inside cannot be removed.
func removeTree(version int, dir string) {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if e.IsDir() {
			removeTree(version, filepath.Join(dir, e.Name()))
		}
	}
	g := &Group{version: version, dirs: map[string]string{"pids": dir}}
	_ = g.Remove(time.Second)
}

// outsideArenaGroups is path without its trailing arena groups.
func outsideArenaGroups(path string) string {
	for path != "/" && path != "." && path != "" {
		if _, ok := arenaPid(filepath.Base(path)); !ok {
			break
		}
		path = filepath.Dir(path)
	}
	return path
}

// arenaPid reads the arena's pid from a group name "arena-PID-N".
func arenaPid(name string) (int, bool) { return pidsweep.Pid(name, groupPrefix, "-") }
