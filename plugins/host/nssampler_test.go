package host

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"testing"

	"arena/plugins/host/proctree"
)

// A /proc listing from the kernel's first process entry has the processes
// and none of the fixed entries; the full listing has both. The sampler's
// shortcut relies on the first, and falls back to the second.
func TestProcListingFromFirstProcessEntry(t *testing.T) {
	d, err := os.Open("/proc")
	if err != nil {
		t.Skip("no /proc:", err)
	}
	defer d.Close()
	s := &nsSampler{dir: d, dents: make([]byte, 8192)}
	short, err := s.listFrom(firstProcessEntry)
	if err != nil {
		t.Fatal(err)
	}
	full, err := s.listFrom(0)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(short, "1") || slices.Contains(short, "meminfo") {
		t.Errorf("listing from %d: %d entries, \"1\" %v, \"meminfo\" %v; want the processes only",
			firstProcessEntry, len(short), slices.Contains(short, "1"), slices.Contains(short, "meminfo"))
	}
	if !slices.Contains(full, "1") || !slices.Contains(full, "meminfo") {
		t.Errorf("full listing lacks \"1\" or \"meminfo\"")
	}
	// list itself: the processes, by either way.
	names, err := s.list()
	if err != nil || !slices.Contains(names, "1") {
		t.Errorf("list: %d names, %v", len(names), err)
	}
}

// The agent's environment: a fixed minimal set, LANG as the arena's (or
// C.UTF-8 without one), the pass-through variables that are set, and the
// launcher's additions, in that order.
func TestAgentEnvironment(t *testing.T) {
	l := &Launcher{PassEnv: []string{"ARENA_TEST_PASS", "ARENA_TEST_UNSET"}, Env: []string{"EXTRA=1"}}
	t.Setenv("ARENA_TEST_PASS", "p")
	os.Unsetenv("ARENA_TEST_UNSET")
	for lang, want := range map[string]string{"": "C.UTF-8", "fr_FR.UTF-8": "fr_FR.UTF-8"} {
		t.Setenv("LANG", lang)
		got := l.env("/d")
		exp := []string{"PATH=" + agentPath, "HOME=/d", "TMPDIR=/d", "LANG=" + want, "PLUGIN_UNIX_SOCKET_DIR=/d", "ARENA_TEST_PASS=p", "EXTRA=1"}
		if !slices.Equal(got, exp) {
			t.Errorf("LANG=%q: env %q, want %q", lang, got, exp)
		}
	}
}

// A launcher with neither an init binary nor a Self command cannot build
// a sandbox, and says so.
func TestInitPathNeedsABinary(t *testing.T) {
	if _, err := (&Launcher{}).initPath(); err == nil || err.Error() != "no sandbox init binary: the launcher has no Self command" {
		t.Errorf("initPath without Init or Self: %v", err)
	}
	p, err := (&Launcher{Self: []string{"/bin/sh", "x"}}).initPath()
	if err != nil || p != "/bin/sh" {
		t.Errorf("initPath with Self: %q, %v", p, err)
	}
}

// A sandbox is alive while its init is, whatever else shares its namespace
// id: the id of a namespace that ended may already name another's.
func TestSandboxAliveFollowsItsInit(t *testing.T) {
	ns, err := os.Readlink("/proc/self/ns/pid")
	if err != nil {
		t.Skip("no /proc:", err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	init, ok, err := proctree.Of(cmd.Process.Pid)
	if err != nil || !ok {
		t.Fatalf("reading the child: %v %v", ok, err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	// The namespace id is this test's own, which lives on: only the init
	// says the sandbox is gone.
	gone := &Process{pid: init.Pid, sandboxed: true, ns: ns, init: &init}
	if gone.GroupAlive() {
		t.Error("a sandbox whose init was reaped reads as alive")
	}
	self, _, err := proctree.Of(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	live := &Process{pid: self.Pid, sandboxed: true, ns: ns, init: &self}
	if !live.GroupAlive() {
		t.Error("a sandbox whose init runs reads as gone")
	}
}

// A kept stat or status file of a process that has ended reads nothing;
// statOf and statusOf then try a new one, and report the process gone
// rather than handing back an empty file.
func TestStatOfAnEndedProcess(t *testing.T) {
	s := hostProcSampler(t)
	kinds := []struct {
		name string
		read func(string) ([]byte, error)
		kept map[string]*os.File
		want string // in the file of a live sleep
	}{
		{"stat", s.statOf, s.stats, "(sleep)"},
		{"status", s.statusOf, s.status, "Name:\tsleep"},
	}
	for _, k := range kinds {
		cmd := exec.Command("sleep", "60")
		if err := cmd.Start(); err != nil {
			t.Skip("no sleep:", err)
		}
		n := strconv.Itoa(cmd.Process.Pid)
		b, err := k.read(n)
		if err != nil || !bytes.Contains(b, []byte(k.want)) {
			t.Fatalf("%s of a live process: %q, %v", k.name, b, err)
		}
		if k.kept[n] == nil {
			t.Fatalf("the %s file of a live process was not kept", k.name)
		}
		cmd.Process.Kill()
		cmd.Wait()
		if b, err := k.read(n); err == nil {
			t.Fatalf("%s of an ended process: %q and no error", k.name, b)
		}
		if k.kept[n] != nil {
			t.Errorf("the %s file of an ended process is still kept", k.name)
		}
	}
}

// A process's status file, which the memory readings use, is kept like its
// stat file while it lives, read afresh each time, and closed with the
// sampler (dropped once its process has ended: TestStatOfAnEndedProcess).
func TestStatusOfKeptWhileTheProcessLives(t *testing.T) {
	s := hostProcSampler(t)
	self := strconv.Itoa(os.Getpid())
	b, err := s.statusOf(self)
	if err != nil || !bytes.Contains(b, []byte("VmHWM:")) {
		t.Fatalf("status of the test process: %q, %v", b, err)
	}
	kept := s.status[self]
	if kept == nil {
		t.Fatal("the status file of a live process was not kept")
	}
	// Grow and touch 64 MiB: the next reading through the kept file
	// shows it.
	before, _ := parseStatusMemory(b)
	ballast := make([]byte, 64<<20)
	for i := range ballast {
		ballast[i] = 1
	}
	b, err = s.statusOf(self)
	after, _ := parseStatusMemory(b)
	if err != nil || after < before+32<<20 || s.status[self] != kept {
		t.Errorf("status after 64 MiB more: VmRSS %d, before %d (%v); the same file kept: %v", after, before, err, s.status[self] == kept)
	}
	runtime.KeepAlive(ballast)
	s.close()
	if len(s.status) != 0 {
		t.Errorf("%d status files kept after close", len(s.status))
	}
}

// Once maxKeptFiles stat files are kept, another process's is read and
// closed again, not kept.
func TestStatOfBeyondTheBound(t *testing.T) {
	s := hostProcSampler(t)
	for i := range maxKeptFiles {
		f, err := os.Open(os.DevNull)
		if err != nil {
			t.Fatal(err)
		}
		s.stats[fmt.Sprint("kept-", i)] = f
	}
	before := openFDs(t)
	self := strconv.Itoa(os.Getpid())
	b, err := s.statOf(self)
	if err != nil || !bytes.HasPrefix(b, []byte(self+" (")) {
		t.Fatalf("stat of the test process: %q, %v", b, err)
	}
	if s.stats[self] != nil || len(s.stats) != maxKeptFiles {
		t.Errorf("%d files kept, the new one among them: %v; want the bound, %d, without it", len(s.stats), s.stats[self] != nil, maxKeptFiles)
	}
	if n := openFDs(t); n != before {
		t.Errorf("%d descriptors after the read, %d before", n, before)
	}
}

// hostProcSampler is an nsSampler reading the host's /proc, for statOf.
func hostProcSampler(t *testing.T) *nsSampler {
	t.Helper()
	d, err := os.Open("/proc")
	if err != nil {
		t.Skip("no /proc:", err)
	}
	s := newNSSampler(0)
	s.dir = d
	t.Cleanup(s.close)
	return s
}

// BenchmarkStatusReading times one process's memory reading as the
// sandbox's sampler takes it every 20 ms, through its kept status file,
// against opening the file through the init's root for each read (how it
// was read before; docs/security.md has both). The test process stands in
// for the init and the process read.
func BenchmarkStatusReading(b *testing.B) {
	d, err := os.Open("/proc")
	if err != nil {
		b.Skip("no /proc:", err)
	}
	s := newNSSampler(os.Getpid())
	s.dir = d
	defer s.close()
	n := strconv.Itoa(os.Getpid())
	b.Run("kept", func(b *testing.B) {
		for range b.N {
			st, err := s.statusOf(n)
			if err != nil {
				b.Fatal(err)
			}
			parseStatusMemory(st)
		}
	})
	b.Run("opened", func(b *testing.B) {
		for range b.N {
			if _, _, err := statusMemory("/proc/" + n + "/root/proc/" + n + "/status"); err != nil {
				b.Fatal(err)
			}
		}
	})
}
