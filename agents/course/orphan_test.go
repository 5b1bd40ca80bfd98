package course_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"arena/internal/childcmd/childcmdtest"
)

// checkRefEnv makes the test binary a process that checks (compiles) the
// course reference it names, as an arena or a cluster worker does.
const checkRefEnv = "ARENA_TEST_CHECK_REF"

// javacVersion starts a stand-in javac: it answers -version as javac 17,
// which the course adapters require, and needs no JDK.
const javacVersion = `#!/bin/sh
if [ "$1" = -version ]; then echo "javac 17.0.9"; exit 0; fi
`

// fakeJavac otherwise records its pid and compiles for ever.
const fakeJavac = javacVersion + childcmdtest.RecordAndSleep

// TestCompilerDiesWithTheArena: javac, started to fill the compiled
// cache, is killed when the process that started it dies. A cluster
// worker killed mid-compile (a crash, a chaos run's SIGKILL) left javac
// writing class files into the worker's cache after it was gone.
func TestCompilerDiesWithTheArena(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	javac := childcmdtest.StandIn(t, dir, "javac", fakeJavac)
	ref := fmt.Sprintf("%s?javac=%s&java=%s&cache=%s", repo, javac, javac, filepath.Join(dir, "cache"))
	childcmdtest.CheckTestBinaryChild(t, dir, checkRefEnv+"="+ref)
}
