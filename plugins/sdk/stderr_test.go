package sdk

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestFirstCallPutsStderrBack: the adapter's first call puts os.Stderr
// back on the file it was given (the process's own standard error), and
// an adapter given none leaves os.Stderr alone.
func TestFirstCallPutsStderrBack(t *testing.T) {
	saved := os.Stderr
	t.Cleanup(func() { os.Stderr = saved })
	own, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer own.Close()

	a := &adapter{stderr: own}
	if os.Stderr == own {
		t.Fatal("os.Stderr already the given file")
	}
	if _, err := a.Describe(context.Background()); err != nil {
		t.Fatal(err)
	}
	if os.Stderr != own {
		t.Errorf("after the first call os.Stderr is %v, want the given file", os.Stderr.Name())
	}

	os.Stderr = saved
	b := &adapter{}
	if _, err := b.Describe(context.Background()); err != nil {
		t.Fatal(err)
	}
	if os.Stderr != saved {
		t.Errorf("an adapter without a file changed os.Stderr to %v", os.Stderr)
	}
}
