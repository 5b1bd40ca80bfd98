package pidsweep

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"arena/internal/childcmd/childcmdtest"
)

func TestGone(t *testing.T) {
	if Gone(os.Getpid()) || Gone(os.Getppid()) || Gone(0) || Gone(-1) {
		t.Fatal("this process, its parent or no pid taken for gone")
	}
	if !Gone(childcmdtest.EndedPid(t)) {
		t.Fatal("an ended process not taken for gone")
	}
}

// Only entries named prefix, a gone pid and end go; with dirsOnly, only
// folders.
func TestDir(t *testing.T) {
	dead, own := strconv.Itoa(childcmdtest.EndedPid(t)), strconv.Itoa(os.Getpid())
	for _, c := range []struct {
		end      string
		dirsOnly bool
		entries  map[string]bool // name: removed
	}{
		{"-", true, map[string]bool{
			"x-" + dead + "-1": true, "x-" + own + "-1": false, "x-" + dead: false,
			"x-" + dead + "z-1": false, "y-" + dead + "-1": false, "x-" + dead + "-file": false,
		}},
		{"", false, map[string]bool{
			"x-" + dead: true, "x-" + own: false, "x-" + dead + "-1": false, "x-0": false,
		}},
	} {
		dir := t.TempDir()
		for name := range c.entries {
			p := filepath.Join(dir, name)
			var err error
			if name == "x-"+dead+"-file" || !c.dirsOnly {
				err = os.WriteFile(p, nil, 0o644)
			} else {
				err = os.MkdirAll(filepath.Join(p, "inside"), 0o755)
			}
			if err != nil {
				t.Fatal(err)
			}
		}
		want := 0
		for _, removed := range c.entries {
			if removed {
				want++
			}
		}
		if n := Dir(dir, "x-", c.end, c.dirsOnly); n != want {
			t.Errorf("end %q: %d removed, want %d", c.end, n, want)
		}
		for name, removed := range c.entries {
			if _, err := os.Stat(filepath.Join(dir, name)); (err != nil) != removed {
				t.Errorf("end %q: %s: removed %v, want %v", c.end, name, err != nil, removed)
			}
		}
	}
}
