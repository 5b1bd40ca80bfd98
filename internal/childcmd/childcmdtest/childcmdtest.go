// Package childcmdtest checks, in tests, that a program's helper children
// die with it (childcmd.Command).
package childcmdtest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// CheckDiesWithParent starts parent, which must start a child that writes
// its pid to pidFile (a stand-in for a compiler that runs for ever, say),
// kills parent once the pid is there, and fails t unless the child is
// gone within a minute: the kernel kills it as its parent exits, and the
// bound only has to outlast a loaded machine's scheduling. The child is
// killed at the end of the test either way.
func CheckDiesWithParent(t testing.TB, parent *exec.Cmd, pidFile string) {
	t.Helper()
	var stderr bytes.Buffer
	if parent.Stderr == nil {
		parent.Stderr = &stderr
	}
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- parent.Wait() }()
	pid := waitForPid(t, pidFile, done, &stderr)
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	_ = parent.Process.Kill()
	<-done
	for deadline := time.Now().Add(time.Minute); alive(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the child (pid %d) still runs a minute after the process that started it was killed", pid)
		}
	}
}

// PidFileEnv names the file a stand-in's script writes its pid to.
const PidFileEnv = "PIDFILE"

// StandIn writes an executable script name into dir, as a stand-in for a
// program a test's parent starts, and returns its path. The script should
// write its pid to $PIDFILE and run for ever (RecordAndSleep).
func StandIn(t testing.TB, dir, name, script string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// RecordAndSleep is the end of a stand-in's script: it writes its pid to
// $PIDFILE and sleeps for five minutes.
const RecordAndSleep = `echo $$ > "$PIDFILE.tmp" && mv "$PIDFILE.tmp" "$PIDFILE"
exec sleep 300
`

// CheckTestBinaryChild runs the test binary itself as the parent, with
// env added (which makes its TestMain act as the program under test) and
// PidFileEnv set to a file in dir, and checks that the child it starts
// dies with it (CheckDiesWithParent).
func CheckTestBinaryChild(t testing.TB, dir string, env ...string) {
	t.Helper()
	pidFile := filepath.Join(dir, "pid")
	parent := exec.Command(os.Args[0])
	parent.Env = append(append(os.Environ(), env...), PidFileEnv+"="+pidFile)
	CheckDiesWithParent(t, parent, pidFile)
}

// waitForPid waits for the child to say it runs, or the parent to end.
func waitForPid(t testing.TB, file string, done <-chan error, stderr *bytes.Buffer) int {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(file); err == nil {
			pid, err := strconv.Atoi(string(bytes.TrimSpace(b)))
			if err != nil {
				t.Fatalf("pid file %q: %v", b, err)
			}
			return pid
		}
		select {
		case err := <-done:
			t.Fatalf("the parent ended (%v) before its child started: %s", err, stderr.Bytes())
		default:
		}
	}
	t.Fatal("the child did not start in 2 minutes")
	return 0
}

// EndedPid is the pid of a process that has ended (and been reaped), for
// tests of what is left behind by processes that are gone.
func EndedPid(t testing.TB) int {
	t.Helper()
	c := exec.Command("true")
	if err := c.Run(); err != nil {
		t.Fatal(err)
	}
	return c.Process.Pid
}

// alive says whether pid runs (a zombie has ended).
func alive(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	return i < 0 || i+2 >= len(b) || b[i+2] != 'Z'
}
