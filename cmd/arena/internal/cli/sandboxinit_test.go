package cli

import (
	debugbuildinfo "debug/buildinfo"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/arena/buildinfo"
	"arena/cmd/arena/internal/clitest"
)

// The init beside the arena binary is used only where it is of the same
// build: an executable file, stamped as the arena is, no older than the
// arena by more than a build takes; anything else leaves the agent host
// as the init. Started as the init, it runs a game's agents.
func TestSandboxInitChoice(t *testing.T) {
	clitest.LongRunning(t)
	dir := t.TempDir()
	self := filepath.Join(dir, "arena")
	if err := os.WriteFile(self, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	init := filepath.Join(dir, InitName)
	if got := sandboxInit(self); got != "" {
		t.Fatalf("no init beside the arena, yet chose %q", got)
	}
	clitest.BuiltCopy(t, clitest.InitPkg, init)
	bi, err := debugbuildinfo.ReadFile(init)
	if err != nil {
		t.Fatal(err)
	}
	stamp := buildinfo.FromBuildInfo(bi)
	if err := sameInitBuild(self, init, stamp); err != nil {
		t.Fatalf("an init of the arena's build refused: %v", err)
	}
	other := stamp
	other.Revision = "0123456789abcdef"
	if err := sameInitBuild(self, init, other); err == nil || !strings.Contains(err.Error(), "another build") {
		t.Errorf("an init of another build: %v, want refused", err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(init, old, old); err != nil {
		t.Fatal(err)
	}
	if err := sameInitBuild(self, init, stamp); err == nil || !strings.Contains(err.Error(), "older") {
		t.Errorf("a stale init: %v, want refused", err)
	}
	if err := os.Chtimes(init, time.Now(), time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(init, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := sameInitBuild(self, init, stamp); err == nil || !strings.Contains(err.Error(), "not an executable") {
		t.Errorf("a non-executable init: %v, want refused", err)
	}
	if err := os.Chmod(init, 0o755); err != nil {
		t.Fatal(err)
	}

	e, out, errb := testEnv(t)
	if !e.Launcher.Sandboxed() {
		t.Skip("no sandbox here: the init is not used")
	}
	e.Launcher.Init = init
	if err := run(t, e, "play", "bohnenspiel", "random", "greedy", "--games", "2"); err != nil {
		t.Fatalf("play with %s as the init: %v\n%s%s", InitName, err, out, errb)
	}
	// Without one (testEnv gives every other test the lean init), the
	// agent host is the init.
	e, out, errb = testEnv(t)
	e.Launcher.Init = ""
	if err := run(t, e, "play", "bohnenspiel", "random", "greedy", "--games", "2"); err != nil {
		t.Fatalf("play with the agent host as the init: %v\n%s%s", err, out, errb)
	}
	// The launcher's init is the one started: a program that is none fails.
	e, _, _ = testEnv(t)
	e.Launcher.Init = "/bin/true"
	if err := run(t, e, "play", "bohnenspiel", "random", "greedy", "--games", "1"); err == nil {
		t.Fatal("play with /bin/true as the init succeeded: the init is not the launcher's")
	}
	e, out, _ = testEnv(t)
	e.Launcher.Init = init
	if err := run(t, e, "doctor"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "sandbox init:                "+init) {
		t.Errorf("doctor does not name the init:\n%s", out)
	}
}
