package gobuild

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"arena/internal/childcmd/childcmdtest"
	"arena/internal/pidsweep"
)

// A killed build's leftovers on this host go at the next build: go's
// work folder and the binary's temporary file, named by a pid that no
// longer runs. Those of a running build (this process's) and of another
// host's stay.
func TestKilledBuildsLeftoversSwept(t *testing.T) {
	cache := t.TempDir()
	root := filepath.Join(cache, "gotmp") // not workRoot: the user's GOTMPDIR stays untouched
	dead := strconv.Itoa(childcmdtest.EndedPid(t))
	own := strconv.Itoa(os.Getpid())
	h := host()
	deadWork := workPrefix + h + "-" + dead + "-123"
	work := map[string]bool{ // name: swept
		deadWork:                                 true,
		workPrefix + h + "-" + own + "-456":      false,
		workPrefix + "elsewhere-" + dead + "-78": false,
		workPrefix + h + "-" + dead + "x-9":      false, // not a pid
		"go-build42":                             false, // not the arena's
	}
	for name := range work {
		if err := os.MkdirAll(filepath.Join(root, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// What go had written when it was killed.
	if err := os.MkdirAll(filepath.Join(root, deadWork, "go-build1", "b001"), 0o755); err != nil {
		t.Fatal(err)
	}
	d, err := newWorkDir(root)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(d) != root {
		t.Fatalf("work folder %s, want one in %s", d, root)
	}
	for name, swept := range work {
		if _, err := os.Stat(filepath.Join(root, name)); (err == nil) == swept {
			t.Errorf("%s: present %v, want swept %v", name, err == nil, swept)
		}
	}

	key := filepath.Join(cache, "0123456789abcdef0123456789abcdef")
	if err := os.MkdirAll(key, 0o755); err != nil {
		t.Fatal(err)
	}
	bins := map[string]bool{
		"agent.tmp-" + h + "-" + dead: true,
		"agent.tmp-" + h + "-" + own:  false,
		"agent.tmp-elsewhere-" + dead: false,
		"agent":                       false,
	}
	for name := range bins {
		if err := os.WriteFile(filepath.Join(key, name), []byte("x"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	pidsweep.Dir(key, "agent.tmp-"+h+"-", "", false)
	for name, swept := range bins {
		if _, err := os.Stat(filepath.Join(key, name)); (err == nil) == swept {
			t.Errorf("%s: present %v, want swept %v", name, err == nil, swept)
		}
	}
}

// A build gives go a work folder of its own, removes it when it ends, and
// sweeps a killed build's leftovers first.
func TestBuildSweepsLeftovers(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	t.Setenv("GOTMPDIR", "")
	dir, cache := t.TempDir(), t.TempDir()
	for name, body := range map[string]string{"go.mod": "module tiny\n\ngo 1.22\n", "main.go": "package main\n\nfunc main() {}\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Where go would work without GOTMPDIR: nowhere, so the build
	// fails unless it works in the folder the build gives it.
	t.Setenv("TMPDIR", filepath.Join(cache, "no-such-folder"))
	ctx := t.Context()
	bin, err := Package(ctx, dir, cache, nil)
	if err != nil {
		t.Fatal(err)
	}
	root := workRoot(cache)
	if left, err := os.ReadDir(root); err != nil || len(left) != 0 {
		t.Fatalf("go's work folders after the build: %v (%v), want none", left, err)
	}
	// A build of the same agent killed since: its binary's temporary
	// file, and go's work folder.
	dead := strconv.Itoa(childcmdtest.EndedPid(t))
	tmp := bin + ".tmp-" + host() + "-" + dead
	work := filepath.Join(root, workPrefix+host()+"-"+dead+"-1", "go-build2")
	if err := os.WriteFile(tmp, []byte("half a binary"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(bin); err != nil { // so that the agent is built again
		t.Fatal(err)
	}
	if _, err := Package(ctx, dir, cache, nil); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{tmp, filepath.Dir(work)} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s left after the next build", p)
		}
	}
	if left, err := os.ReadDir(root); err != nil || len(left) != 0 {
		t.Fatalf("go's work folders after the second build: %v (%v), want none", left, err)
	}
}
