package cli

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"arena/cmd/arena/internal/clitest"
)

func TestDoctorSaysWhatWorks(t *testing.T) {
	t.Parallel() // its own directories and agents; nothing it asserts is timed
	e, out, _ := testEnv(t)
	if err := run(t, e, "doctor"); err != nil {
		t.Fatal(err)
	}
	want := []string{"agents run: sandboxed", "an agent sees, read-only:", "  /usr\n", "lua      agents also:", "  /etc/hosts, written for it",
		"its private directory (64 MiB) and /dev/shm (64 MiB)", "no System V IPC:", "open files 4096", "agent channel:               plain gRPC on a socket in the agent's private mount"}
	if !e.Launcher.Sandboxed() {
		want = []string{"agents run: not at all", "--isolation off"}
	}
	want = append(want, "cgroups:", "CPU and memory accounting:")
	for _, w := range want {
		if !strings.Contains(out.String(), w) {
			t.Fatalf("doctor lacks %q:\n%s", w, out)
		}
	}
}

// doctor names the cgroup version and controllers agents' trees go in,
// or says that /proc is read and why.
func TestDoctorSaysHowAgentsAreMeasured(t *testing.T) {
	t.Parallel() // its own directories and agents; nothing it asserts is timed
	for _, off := range []bool{false, true} {
		e, out, _ := testEnv(t)
		e.Launcher.NoCgroups = off
		if err := run(t, e, "doctor"); err != nil {
			t.Fatal(err)
		}
		_, line, _ := strings.Cut(out.String(), "CPU and memory accounting:")
		line, _, _ = strings.Cut(strings.TrimSpace(line), "\n")
		cg := regexp.MustCompile(`^cgroup v[12], controllers (cpuacct|cpu)`)
		switch {
		case off && !strings.HasPrefix(line, "/proc readings (no cgroups: turned off)"):
			t.Errorf("without cgroups: %q", line)
		case !off && !cg.MatchString(line) && !strings.HasPrefix(line, "/proc readings (no cgroups: "):
			t.Errorf("with cgroups: %q", line)
		}
	}
}

// play, check and league run refuse to start agents without a sandbox
// (simulated by a sandbox init that does not exist) unless told
// --isolation off, and the refusal names that fix.
func TestNoSandboxRefused(t *testing.T) {
	t.Parallel() // its own directories and agents; nothing it asserts is timed
	for _, args := range [][]string{
		{"play", "bohnenspiel", "random", "random", "--games", "1"},
		{"check", "random", "--game", "bohnenspiel", "--games", "1"},
		{"league", "run", clitest.Path("configs/bohnenspiel.yaml"), "--output", filepath.Join(t.TempDir(), "out")},
	} {
		e, out, _ := testEnv(t)
		e.Launcher.Init = filepath.Join(t.TempDir(), "no-init")
		err := run(t, e, args...)
		if err == nil || !strings.Contains(err.Error(), "--isolation off") {
			t.Fatalf("%s ran without a sandbox: %v\n%s", args[0], err, out)
		}
	}
	e, out, _ := testEnv(t)
	e.Launcher.Init = filepath.Join(t.TempDir(), "no-init")
	if err := run(t, e, "play", "bohnenspiel", "random", "random", "--games", "1", "--isolation", "off"); err != nil {
		t.Fatalf("play --isolation off: %v\n%s", err, out)
	}
}

// A league that requires sandboxes refuses to start where there are none
// (simulated by a sandbox init that does not exist).
func TestLeagueIsolationRequired(t *testing.T) {
	t.Parallel() // its own directories and agents; nothing it asserts is timed
	e, out, _ := testEnv(t)
	e.Launcher.Init = filepath.Join(t.TempDir(), "no-init")
	err := run(t, e, "league", "run", clitest.Path("configs/bohnenspiel.yaml"), "--isolation", "required", "--output", filepath.Join(t.TempDir(), "out"))
	if err == nil || !strings.Contains(err.Error(), "isolation: required") {
		t.Fatalf("league ran without sandboxes: %v\n%s", err, out)
	}
}
