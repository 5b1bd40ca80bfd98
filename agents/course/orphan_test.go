package course_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// checkRefEnv makes the test binary a process that checks (compiles) the
// course reference it names, as an arena or a cluster worker does.
const checkRefEnv = "ARENA_TEST_CHECK_REF"

// fakeJavac answers -version as javac 17 and otherwise records its pid and
// compiles for ever; it needs no JDK.
const fakeJavac = `#!/bin/sh
if [ "$1" = -version ]; then echo "javac 17.0.9"; exit 0; fi
echo $$ > "$PIDFILE.tmp" && mv "$PIDFILE.tmp" "$PIDFILE"
exec sleep 300
`

// TestCompilerDiesWithTheArena: javac, started to fill the compiled
// cache, is killed when the process that started it dies. A cluster
// worker killed mid-compile (a crash, a chaos run's SIGKILL) left javac
// writing class files into the worker's cache after it was gone.
func TestCompilerDiesWithTheArena(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	javac := filepath.Join(dir, "javac")
	if err := os.WriteFile(javac, []byte(fakeJavac), 0o755); err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(dir, "pid")
	ref := fmt.Sprintf("%s?javac=%s&java=%s&cache=%s", repo, javac, javac, filepath.Join(dir, "cache"))
	var stderr bytes.Buffer
	arena := exec.Command(os.Args[0])
	arena.Env = append(os.Environ(), checkRefEnv+"="+ref, "PIDFILE="+pidFile)
	arena.Stderr = &stderr
	if err := arena.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- arena.Wait() }()
	pid := waitForPid(t, pidFile, done, &stderr)
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	_ = arena.Process.Kill()
	<-done
	// The kernel kills the compiler as its parent exits; the bound only
	// has to outlast a loaded machine's scheduling, not the 300 s sleep.
	for deadline := time.Now().Add(60 * time.Second); alive(pid); {
		if time.Now().After(deadline) {
			t.Fatalf("javac (pid %d) still runs a minute after the arena that started it was killed", pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitForPid waits for the fake compiler to say it runs.
func waitForPid(t *testing.T, file string, done <-chan error, stderr *bytes.Buffer) int {
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
			t.Fatalf("the check ended (%v) before it ran the compiler: %s", err, stderr.Bytes())
		default:
		}
	}
	t.Fatal("the compiler did not start in 2 minutes")
	return 0
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
