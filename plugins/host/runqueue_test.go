package host

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"arena/internal/childcmd"
	"arena/internal/childcmd/childcmdtest"
)

func TestSchedstatDelayIsTheSecondField(t *testing.T) {
	for line, want := range map[string]time.Duration{
		"6570814 40254839 4\n": 40254839,
		"1 2 3":                2,
		"12":                   0,
		"1 x 3":                0,
		"":                     0,
	} {
		if got := schedstatDelay([]byte(line)); got != want {
			t.Errorf("schedstatDelay(%q) = %v, want %v", line, got, want)
		}
	}
}

// startPinned starts a command on cpu alone. The command dies with the
// test binary: a busy loop left behind by a binary killed from outside
// (a timeout, a mutation run stopped by hand) would load the machine for
// every run after it.
func startPinned(t *testing.T, cpu int, name string, args ...string) *exec.Cmd {
	t.Helper()
	cmd, release, err := startWithParent(name, args...)
	if err != nil {
		t.Skipf("start %s: %v", name, err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait(); release() })
	var set unix.CPUSet
	set.Set(cpu)
	if err := unix.SchedSetaffinity(cmd.Process.Pid, &set); err != nil {
		t.Fatalf("pin %s: %v", name, err)
	}
	return cmd
}

// startWithParent starts a command that the kernel kills when this process
// dies (childcmd's parent-death signal). That signal follows the thread
// that forked, not the process, and the runtime ends a thread whose
// goroutine exits locked to it, as hog's do. So the fork is made on a
// thread of its own, kept until release is called, after the command has
// been killed.
func startWithParent(name string, args ...string) (cmd *exec.Cmd, release func(), err error) {
	cmd = childcmd.Command(context.Background(), name, args...)
	started, done := make(chan error), make(chan struct{})
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		started <- cmd.Start()
		<-done
	}()
	if err := <-started; err != nil {
		close(done)
		return nil, nil, err
	}
	return cmd, sync.OnceFunc(func() { close(done) }), nil
}

// The commands startPinned starts (busy loops among them) die with a test
// binary killed from outside, which runs no cleanup.
func TestPinnedCommandDiesWithTheTestBinary(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	parent := exec.Command(os.Args[0], "-test.run=^TestHelperPinnedParent$")
	parent.Env = append(os.Environ(), helperPinnedParentEnv+"=1", childcmdtest.PidFileEnv+"="+pidFile)
	childcmdtest.CheckDiesWithParent(t, parent, pidFile)
}

// helperPinnedParentEnv makes TestHelperPinnedParent the parent
// TestPinnedCommandDiesWithTheTestBinary kills.
const helperPinnedParentEnv = "HOST_TEST_PINNED_PARENT"

// TestHelperPinnedParent is no test: run by
// TestPinnedCommandDiesWithTheTestBinary, it starts a command as
// startPinned does and waits to be killed.
func TestHelperPinnedParent(t *testing.T) {
	if os.Getenv(helperPinnedParentEnv) == "" {
		t.Skip("the parent TestPinnedCommandDiesWithTheTestBinary starts")
	}
	if _, _, err := startWithParent("/bin/sh", "-c", childcmdtest.RecordAndSleep); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Hour)
}

// waitAsleep waits until pid is sleeping in the sleep command: a started
// process is runnable until it has exec'd and gone to sleep.
func waitAsleep(t *testing.T, pid int) {
	t.Helper()
	for end := time.Now().Add(time.Minute); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			t.Fatal(err)
		}
		f, err := statFields(b)
		if err == nil && len(f) > 0 && string(f[0]) == "S" && bytes.Contains(b, []byte("(sleep)")) {
			return
		}
	}
	t.Fatalf("process %d never went to sleep", pid)
}

// hog busy-loops n threads at the test's priority on cpu until stop; it
// returns once every thread is pinned and spinning. Each thread gets the
// process's CPUs back before it ends: a thread the runtime has not yet
// ended must not look pinned to the tests that follow.
func hog(t *testing.T, cpu, n int, stop *atomic.Bool) {
	t.Helper()
	var all unix.CPUSet
	if err := unix.SchedGetaffinity(0, &all); err != nil {
		t.Fatal(err)
	}
	pinned := make(chan error, n)
	var wg sync.WaitGroup
	t.Cleanup(func() { stop.Store(true); wg.Wait() })
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread() // never unlocked: the pinned thread ends with the goroutine
			var set unix.CPUSet
			set.Set(cpu)
			err := unix.SchedSetaffinity(0, &set)
			pinned <- err
			if err != nil {
				return
			}
			for !stop.Load() {
			}
			_ = unix.SchedSetaffinity(0, &all)
		}()
	}
	for range n {
		if err := <-pinned; err != nil {
			stop.Store(true)
			t.Fatalf("pin a hog to CPU %d: %v", cpu, err)
		}
	}
}

// A busy agent on a CPU shared with three busy threads (and here a second
// busy agent, read by the sandbox's reader) waits on the run
// queue most of the time; a sleeping agent on the same CPU
// waits for nothing. (The kernel adds a wait to schedstat when the thread
// gets the CPU, so the starved agent is given an equal share, not a nice
// 19 one: it then runs every few milliseconds and its waits are counted.) The check is on the delays relative to each other and to
// the wall time, with margins no machine load can close: a sleeper is
// never runnable, so no load gives it a delay, and more load only delays
// the starved agent more.
func TestUsageSeesAStarvedAgentWaitNotASleepingOne(t *testing.T) {
	cpu := firstCPU(t)
	starvedPid := strconv.Itoa(startPinned(t, cpu, "sh", "-c", "while :; do :; done").Process.Pid)
	starved := newTreeSampler(startPinned(t, cpu, "sh", "-c", "while :; do :; done").Process.Pid)
	defer starved.close()
	// The sandbox's reader, through a /proc (here the host's) by pid.
	ns := hostProcSampler(t)
	sleepCmd := startPinned(t, cpu, "sleep", "60")
	sleeper := newTreeSampler(sleepCmd.Process.Pid)
	defer sleeper.close()
	waitAsleep(t, sleepCmd.Process.Pid) // its start-up, before the hogs, is not its sleep

	var stop atomic.Bool
	defer stop.Store(true)
	read := func(s *treeSampler) time.Duration {
		u, err := s.sample(reading{delay: true})
		if err != nil {
			t.Fatal(err)
		}
		return u.RunQueue
	}
	s0, z0, n0 := read(starved), read(sleeper), ns.delay(starvedPid)
	start := time.Now()
	hog(t, cpu, 3, &stop)
	time.Sleep(time.Second)
	s1, z1, n1 := read(starved), read(sleeper), ns.delay(starvedPid)
	wall := time.Since(start)
	stop.Store(true)

	gotStarved, gotSleeper := s1-s0, z1-z0
	t.Logf("over %v: starved agent waited %v on the run queue, sleeping agent %v", wall, gotStarved, gotSleeper)
	if gotStarved < wall/4 {
		t.Fatalf("starved agent waited %v of %v", gotStarved, wall)
	}
	if n1-n0 < wall/4 {
		t.Fatalf("through the sandbox's reader, starved agent waited %v of %v", n1-n0, wall)
	}
	if gotSleeper > gotStarved/10 {
		t.Fatalf("sleeping agent waited %v, starved %v", gotSleeper, gotStarved)
	}
}

// The cost of a move's reading with and without the run-queue delay, on
// this test process (a Go program's handful of threads).
func BenchmarkTreeSamplerReading(b *testing.B) {
	for _, r := range []struct {
		name string
		r    reading
	}{{"cpu", reading{}}, {"cpu+runqueue", reading{delay: true}}} {
		b.Run(r.name, func(b *testing.B) {
			s := newTreeSampler(os.Getpid())
			defer s.close()
			for b.Loop() {
				if _, err := s.sample(r.r); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// firstCPU is the first CPU of this process's affinity; the test is
// skipped where there is none to read.
func firstCPU(t *testing.T) int {
	t.Helper()
	var cur unix.CPUSet
	if err := unix.SchedGetaffinity(0, &cur); err != nil {
		t.Skip(err)
	}
	for c := range 1024 {
		if cur.IsSet(c) {
			return c
		}
	}
	t.Skip("no CPU in this process's affinity")
	return -1
}
