package slots

import (
	"os"
	"path/filepath"
	"testing"
)

func TestParseCPUMax(t *testing.T) {
	cases := map[string]struct {
		n  int
		ok bool
	}{
		"max 100000\n":    {0, false},
		"200000 100000\n": {2, true},
		"150000 100000\n": {1, true}, // whole cores, rounded down
		"50000 100000\n":  {1, true}, // at least one
		"garbage\n":       {0, false},
	}
	dir := t.TempDir()
	for body, want := range cases {
		p := filepath.Join(dir, "cpu.max")
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		n, ok := parseCPUMax(p)
		if n != want.n || ok != want.ok {
			t.Errorf("%q: %d %v, want %d %v", body, n, ok, want.n, want.ok)
		}
	}
	if _, ok := parseCPUMax(filepath.Join(dir, "missing")); ok {
		t.Error("a missing cpu.max gave a quota")
	}
}
