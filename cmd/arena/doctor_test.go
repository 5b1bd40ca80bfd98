package main

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestDoctorSaysWhatWorks(t *testing.T) {
	e, out, _ := testEnv(t)
	if err := run(t, e, "doctor"); err != nil {
		t.Fatal(err)
	}
	want := "agents run: sandboxed"
	if !e.launcher.Sandboxed() {
		want = "agents run: WITHOUT a sandbox"
	}
	if !strings.Contains(out.String(), want) || !strings.Contains(out.String(), "cgroup v2:") {
		t.Fatalf("doctor:\n%s", out)
	}
}

// A league that requires sandboxes refuses to start where there are none
// (simulated by a sandbox init that does not exist).
func TestLeagueIsolationRequired(t *testing.T) {
	e, out, _ := testEnv(t)
	e.launcher.Init = filepath.Join(t.TempDir(), "no-init")
	err := run(t, e, "league", "run", "../../configs/bohnenspiel.yaml", "--isolation", "required", "--output", filepath.Join(t.TempDir(), "out"))
	if err == nil || !strings.Contains(err.Error(), "isolation: required") {
		t.Fatalf("league ran without sandboxes: %v\n%s", err, out)
	}
}
