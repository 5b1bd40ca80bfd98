package gobuild_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"arena/arena/league/gobuild"
	"arena/internal/childcmd/childcmdtest"
)

// buildEnv makes the test binary a process that builds the Go package in
// the named folder, as an arena or a cluster worker does.
const buildEnv = "GOBUILD_TEST_PACKAGE"

func TestMain(m *testing.M) {
	if dir := os.Getenv(buildEnv); dir != "" {
		if _, err := gobuild.Package(context.Background(), dir, filepath.Join(dir, "cache"), nil); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// fakeGo stands for the go command: it records its pid and runs for ever,
// as a build of a large agent on a slow machine would.
const fakeGo = "#!/bin/sh\n" + childcmdtest.RecordAndSleep

// The go commands a build runs die with the process that started them: a
// cluster worker killed mid-build left go build running, and writing into
// its cache, after it was gone.
func TestGoCommandDiesWithTheArena(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	childcmdtest.StandIn(t, bin, "go", fakeGo)
	childcmdtest.CheckTestBinaryChild(t, dir, buildEnv+"="+dir, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
}
