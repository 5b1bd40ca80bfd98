package host

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A stat line as the kernel writes it: a command name with a space and a
// parenthesis, then fields 3 to 52. utime..cstime (fields 14-17) are
// 101, 202, 303 and 404 ticks, each different, so a field read one
// place off is seen.
func statLine(fields int) []byte {
	f := []string{"S", "1", "42", "42", "0", "-1", "4194560", "10", "0", "0", "0", "101", "202", "303", "404", "20", "0", "1", "0", "5"}
	for len(f) < fields {
		f = append(f, "0")
	}
	return []byte("42 (a) b (c)) " + strings.Join(f[:fields], " ") + "\n")
}

func TestParseStatTimesReadsFieldsFourteenToSeventeen(t *testing.T) {
	tick := time.Second / clockTicks
	own, children, err := parseStatTimes(statLine(50))
	if err != nil {
		t.Fatal(err)
	}
	if own != (101+202)*tick || children != (303+404)*tick {
		t.Errorf("own %v, children %v; want %v and %v", own, children, (101+202)*tick, (303+404)*tick)
	}
	// Fields up to cstime are enough.
	own, children, err = parseStatTimes(statLine(15))
	if err != nil || own != (101+202)*tick || children != (303+404)*tick {
		t.Errorf("15 fields: own %v, children %v, %v", own, children, err)
	}
	// One fewer is not; a line with no command name is not a stat line.
	if _, _, err := parseStatTimes(statLine(14)); err == nil || !strings.Contains(err.Error(), "14 fields") {
		t.Errorf("14 fields: %v, want the count refused", err)
	}
	if _, _, err := parseStatTimes([]byte("42 a S 1 2 3")); err == nil || !strings.Contains(err.Error(), "no command name") {
		t.Errorf("no name: %v", err)
	}
	// A field that is no count is refused by its number, not read as 0.
	bad := strings.Replace(string(statLine(20)), " 202 ", " 2x2 ", 1)
	if _, _, err := parseStatTimes([]byte(bad)); err == nil || !strings.Contains(err.Error(), `field 15 is "2x2"`) {
		t.Errorf("bad stime: %v, want field 15 refused", err)
	}
	for _, c := range []struct {
		f    string
		want int64
		ok   bool
	}{{"0", 0, true}, {"404", 404, true}, {"999999999999999999", 999999999999999999, true}, {"1000000000000000000", 0, false}, {"", 0, false}, {"-1", 0, false}, {"1.5", 0, false}} {
		if v, ok := decimal([]byte(c.f)); v != c.want || ok != c.ok {
			t.Errorf("decimal(%q) = %d, %v; want %d, %v", c.f, v, ok, c.want, c.ok)
		}
	}
	// The name is cut at its last ')' even when that is the first byte.
	f, err := statFields([]byte(")S 1 2"))
	if err != nil || len(f) != 3 || string(f[0]) != "S" {
		t.Errorf("statFields: %q, %v", f, err)
	}
}

func TestStartTimeoutDefault(t *testing.T) {
	for _, c := range []struct{ set, want time.Duration }{
		{0, DefaultStartTimeout}, {-time.Second, DefaultStartTimeout}, {time.Nanosecond, time.Nanosecond}, {time.Minute, time.Minute},
	} {
		if got := (Options{StartTimeout: c.set}).startTimeout(); got != c.want {
			t.Errorf("StartTimeout %v: %v, want %v", c.set, got, c.want)
		}
	}
	if DefaultStartTimeout != 30*time.Second {
		t.Errorf("default start timeout %v; the docs promise 30 s", DefaultStartTimeout)
	}
}

func TestBreachIsAboveTheLimit(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct {
		peak, limit int64
		want        bool
	}{
		{64 * mb, 64 * mb, false}, {64*mb + 1, 64 * mb, true}, {64*mb - 1, 64 * mb, false},
		{1 << 40, 0, false}, {1 << 40, -mb, false},
	} {
		if got := breach(c.peak, c.limit); got != c.want {
			t.Errorf("breach(%d, %d) = %v, want %v", c.peak, c.limit, got, c.want)
		}
	}
}

// A Process that never started has no pid to read or signal: signalling
// pid 0 would reach the arena's own process group. (Signal 0 only asks,
// so a broken guard is seen without harm.)
func TestUnstartedProcessHasNothingToSignal(t *testing.T) {
	if err := killGroup(0, 0); err == nil {
		t.Error("killGroup(0) signalled a group: kill(2) reads it as the caller's own")
	}
	p := &Process{}
	if p.GroupAlive() {
		t.Error("an unstarted process is alive")
	}
	if pids := p.Pids(); pids != nil {
		t.Errorf("an unstarted process has pids %v", pids)
	}
	if _, err := p.CPUTime(); err == nil {
		t.Error("an unstarted process has a CPU time")
	}
}

// killGroup ends the whole group, the leader's children too.
func TestKillGroupEndsChildren(t *testing.T) {
	cmd := exec.Command("/bin/sh", "-c", "sleep 60 & echo $!; wait")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Skip("no /bin/sh:", err)
	}
	defer cmd.Wait()
	line, err := bufio.NewReader(out).ReadString('\n')
	child, perr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || perr != nil {
		cmd.Process.Kill()
		t.Fatalf("child pid %q: %v %v", line, err, perr)
	}
	if err := killGroup(cmd.Process.Pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// The child is reparented and reaped by init: wait for its /proc entry
	// to go (generously; it is killed at once).
	deadline := time.Now().Add(30 * time.Second)
	for {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(child) + "/stat")
		if err != nil {
			return // gone
		}
		if f, ferr := statFields(b); ferr == nil && len(f) > 0 && string(f[0]) == "Z" {
			return // killed, waiting to be reaped
		}
		if time.Now().After(deadline) {
			syscall.Kill(child, syscall.SIGKILL)
			t.Fatalf("child %d of the group outlived killGroup", child)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A non-root arena cannot map ids, and prepares no sandbox base for it.
func TestProbeAsNonRootPreparesNothing(t *testing.T) {
	l := &Launcher{}
	r := l.probe(1000)
	if r.Unsupported == "" {
		t.Error("a non-root probe found a sandbox")
	}
	if l.base != "" {
		t.Errorf("a non-root probe prepared the sandbox base %s", l.base)
	}
}

func TestStatusMemoryReadsRSSAndPeak(t *testing.T) {
	path := t.TempDir() + "/status"
	status := "Name:\tagent\nVmPeak:\t  999999 kB\nVmHWM:\t    2048 kB\nVmRSS:\t    1536 kB\nThreads:\t5\n"
	if err := os.WriteFile(path, []byte(status), 0o600); err != nil {
		t.Fatal(err)
	}
	rss, peak, err := statusMemory(path)
	if err != nil || rss != 1536<<10 || peak != 2048<<10 {
		t.Errorf("rss %d, peak %d, %v; want %d and %d", rss, peak, err, 1536<<10, 2048<<10)
	}
	// A kernel thread's status has neither; a cut line reads as zero.
	if err := os.WriteFile(path, []byte("Name:\tkthreadd\nVmRSS:\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if rss, peak, err := statusMemory(path); err != nil || rss != 0 || peak != 0 {
		t.Errorf("no memory lines: rss %d, peak %d, %v", rss, peak, err)
	}
	if _, _, err := statusMemory(path + ".gone"); err == nil {
		t.Error("a missing status file read without error")
	}
}

// An unsandboxed agent's reading counts the CPU of the children it reaped:
// here the test process itself, after a child that spun.
func TestTreeSamplerCountsReapedChildren(t *testing.T) {
	if testing.Short() {
		t.Skip("starts agent processes and waits on them: runs without -short")
	}
	spin := exec.Command("/bin/sh", "-c", "i=0; while [ $i -lt 400000 ]; do i=$((i+1)); done")
	if err := spin.Run(); err != nil {
		t.Skip("no /bin/sh:", err)
	}
	var self, kids syscall.Rusage
	s := newTreeSampler(os.Getpid())
	defer s.close()
	u, err := s.sample(reading{})
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	if err != nil {
		t.Fatal(err)
	}
	cpu := func(r syscall.Rusage) time.Duration {
		return time.Duration(r.Utime.Nano() + r.Stime.Nano())
	}
	// /proc counts whole 10 ms ticks of each of four fields.
	want := cpu(self) + cpu(kids)
	if cpu(kids) < 100*time.Millisecond {
		t.Skipf("the child spun only %v; too little to tell", cpu(kids))
	}
	if u.CPU < want-50*time.Millisecond || u.CPU > want+50*time.Millisecond {
		t.Errorf("reading %v; the process and its reaped children used %v (%v of it the children's)", u.CPU, want, cpu(kids))
	}
}

// shellInItsGroup starts /bin/sh running script in a process group of its
// own, killed with the test, and returns it and the pid the script prints
// first.
func shellInItsGroup(t *testing.T, script string) (*exec.Cmd, int) {
	t.Helper()
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Skip("no /bin/sh:", err)
	}
	t.Cleanup(func() {
		killGroup(cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	pid, perr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || perr != nil {
		t.Fatalf("pid %q: %v %v", line, err, perr)
	}
	return cmd, pid
}

// groupPids lists a process group's members (an unsandboxed agent's
// processes): the leader and its child, and no one else.
func TestGroupPidsListsTheGroup(t *testing.T) {
	cmd, child := shellInItsGroup(t, "sleep 60 & echo $!; wait")
	got := groupPids(cmd.Process.Pid)
	slices.Sort(got)
	want := []int{cmd.Process.Pid, child}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("group %d: %v, want %v", cmd.Process.Pid, got, want)
	}
	if pids := groupPids(0x7ffffff0); pids != nil {
		t.Errorf("a group nobody is in: %v", pids)
	}
}

// namespacePids walks the init's tree: a shell's child and grandchild,
// all in the namespace named, are found, and what is in another namespace
// is not. (Here the namespace is the test's own, so the scan of /proc
// would list every process of the machine.)
func TestNamespacePidsWalksTheInitsTree(t *testing.T) {
	ns, err := os.Readlink("/proc/self/ns/pid")
	if err != nil {
		t.Skip("no /proc/self/ns/pid:", err)
	}
	cmd, grandchild := shellInItsGroup(t, "(sleep 60 & echo $!; wait) & wait")
	if !hasChildLists(cmd.Process.Pid) {
		t.Skip("the kernel keeps no children lists: namespacePids scans /proc")
	}
	got := namespacePids(cmd.Process.Pid, ns)
	if len(got) != 3 || got[0] != cmd.Process.Pid || !slices.Contains(got, grandchild) {
		t.Errorf("namespace of %d: %v, want it, its subshell and the grandchild %d", cmd.Process.Pid, got, grandchild)
	}
	for _, pid := range got {
		if !slices.Contains(scanNamespace(ns), pid) {
			t.Errorf("%d is not in the namespace by the scan", pid)
		}
	}
	if pids := namespacePids(cmd.Process.Pid, "pid:[1]"); len(pids) != 0 {
		t.Errorf("processes of another namespace: %v", pids)
	}
}

// openFDs counts the test process's open descriptors.
func openFDs(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(fds)
}

// An unsandboxed reading counts the live descendants' CPU, reads them
// through files it keeps open (a reading opens nothing once the tree is
// known), and lets go of the files of a process that ended and of all of
// them at close.
func TestTreeSamplerKeepsItsFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("starts agent processes and waits on them: runs without -short")
	}
	// sh -> a subshell that spins, then waits for its own sleeping child.
	cmd := exec.Command("/bin/sh", "-c", "(i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; sleep 60; :) & wait")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	before := openFDs(t)
	if err := cmd.Start(); err != nil {
		t.Skip("no /bin/sh:", err)
	}
	defer func() {
		killGroup(cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	}()
	s := newTreeSampler(cmd.Process.Pid)
	var u usage
	deadline := time.Now().Add(30 * time.Second)
	for {
		var err error
		if u, err = s.sample(reading{}); err != nil {
			t.Fatal(err)
		}
		// The third process is the sleep only once it has exec'd: just
		// after the fork it is still a copy of the subshell.
		if len(s.procs) == 3 && sleepAmong(s) != 0 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(s.procs) != 3 {
		t.Fatalf("%d processes read, want 3 (sh, its subshell, the sleep)", len(s.procs))
	}
	if own, err := ownCPU(cmd.Process.Pid); err != nil || u.CPU < 50*time.Millisecond || own > u.CPU/2 {
		t.Fatalf("tree CPU %v (the root's own %v, %v): want the spinning subshell's counted", u.CPU, own, err)
	}
	kept := openFDs(t)
	for range 20 {
		if _, err := s.sample(reading{mem: true}); err != nil {
			t.Fatal(err)
		}
	}
	if n := openFDs(t); n != kept {
		t.Errorf("%d descriptors after 20 readings, %d before: a reading of a known tree opened files", n, kept)
	}
	// The sleep ends: its files go.
	sleep := sleepAmong(s)
	if sleep == 0 {
		t.Fatal("no sleep among the processes read")
	}
	syscall.Kill(sleep, syscall.SIGKILL)
	for time.Now().Before(deadline) && len(s.procs) == 3 {
		if _, err := s.sample(reading{}); err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, ok := s.procs[sleep]; ok || openFDs(t) >= kept {
		t.Errorf("the ended sleep's files are still kept (%d processes, %d descriptors, %d before)", len(s.procs), openFDs(t), kept)
	}
	s.close()
	if _, err := s.sample(reading{}); !errors.Is(err, errSamplerClosed) {
		t.Errorf("a reading after close: %v, want errSamplerClosed", err)
	}
	if n := openFDs(t); n > before+1 { // +1: the child's stdin, /dev/null, until Wait
		t.Errorf("%d descriptors after close, %d before the tree started", n, before)
	}
}

// sleepAmong is the pid of the sampled process named sleep, 0 if none is.
func sleepAmong(s *treeSampler) int {
	for pid := range s.procs {
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid)); err == nil && strings.TrimSpace(string(b)) == "sleep" {
			return pid
		}
	}
	return 0
}

// ownCPU is a process's own CPU time (without its children's), from its
// stat.
func ownCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	own, _, err := parseStatTimes(b)
	return own, err
}

// An agent with more processes than the kept files allow is still read
// whole (the memory of every process summed), the files kept stay within
// the bound, and the others are closed again by the reading that opened
// them.
func TestTreeSamplerKeepsAtMostItsBound(t *testing.T) {
	if testing.Short() {
		t.Skip("starts agent processes and waits on them: runs without -short")
	}
	const n = 200 // processes, two files each: over maxKeptFiles
	cmd := exec.Command("/bin/sh", "-c", fmt.Sprintf("i=0; while [ $i -lt %d ]; do sleep 60 & i=$((i+1)); done; wait", n))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Skip("no /bin/sh:", err)
	}
	defer func() {
		killGroup(cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
	}()
	root := cmd.Process.Pid
	kidsFile := fmt.Sprintf("/proc/%d/task/%d/children", root, root)
	var kids []int
	for deadline := time.Now().Add(30 * time.Second); len(kids) < n && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		b, err := os.ReadFile(kidsFile)
		if err != nil {
			t.Skip("no children lists:", err)
		}
		kids = appendPids(nil, b)
	}
	if len(kids) != n {
		t.Fatalf("%d children started, want %d", len(kids), n)
	}
	// The processes' memory, read one by one: once it stops changing (the
	// sleeps have started and faulted their pages in), a reading sums the
	// same.
	memory := func() int64 {
		var sum int64
		for _, pid := range append([]int{root}, kids...) {
			rss, _, err := statusMemory(fmt.Sprintf("/proc/%d/status", pid))
			if err != nil {
				t.Fatal(err)
			}
			sum += rss
		}
		return sum
	}
	want := memory()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		time.Sleep(100 * time.Millisecond)
		w := memory()
		if w == want {
			break
		}
		want = w
	}
	s := newTreeSampler(root)
	defer s.close()
	u, err := s.sample(reading{mem: true})
	if err != nil {
		t.Fatal(err)
	}
	if after := memory(); u.RSS != want || after != want {
		t.Errorf("the reading's memory %d, the %d processes' %d before it and %d after: not every process was read", u.RSS, n+1, want, after)
	}
	if s.kept > maxKeptFiles || s.kept < maxKeptFiles-2 {
		t.Errorf("%d files kept, want the bound, %d", s.kept, maxKeptFiles)
	}
	fds := openFDs(t)
	for range 5 {
		if _, err := s.sample(reading{}); err != nil {
			t.Fatal(err)
		}
	}
	if got := openFDs(t); got != fds {
		t.Errorf("%d descriptors after 5 readings, %d before: files opened beyond the bound were not closed", got, fds)
	}
}
