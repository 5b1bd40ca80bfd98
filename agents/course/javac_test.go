package course_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"arena/agents/course"
	"arena/internal/childcmd/childcmdtest"
)

// recordingJavac answers -version as javac 17 and writes every call's
// arguments, one per line, to $ARGSFILE; it compiles nothing.
const recordingJavac = `#!/bin/sh
for a in "$@"; do echo "$a"; done >> "$ARGSFILE"
echo "--" >> "$ARGSFILE"
if [ "$1" = -version ]; then echo "javac 17.0.9"; fi
exit 0
`

// TestJavacRunsOnTheClientCompiler: both of the arena's javac runs (the
// version check and the compile) ask its JVM for the client compiler
// alone and the serial collector, which halved the CPU of compiling the
// COMP424 repositories; the version check is still asked first.
func TestJavacRunsOnTheClientCompiler(t *testing.T) {
	dir := t.TempDir()
	javac := childcmdtest.StandIn(t, dir, "javac", recordingJavac)
	args := filepath.Join(dir, "args")
	t.Setenv("ARGSFILE", args)
	ref := fmt.Sprintf("%s?javac=%s&java=%s&cache=%s", repo, javac, javac, filepath.Join(dir, "cache"))
	if err := course.CheckRef(context.Background(), ref, "pentago-twist"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(args)
	if err != nil {
		t.Fatal(err)
	}
	calls := strings.Split(strings.TrimSuffix(string(b), "--\n"), "--\n")
	if len(calls) != 2 || !strings.HasPrefix(calls[0], "-version\n") {
		t.Fatalf("javac calls %q, want the version check, then the compile", calls)
	}
	for _, c := range calls {
		for _, opt := range []string{"-J-XX:+IgnoreUnrecognizedVMOptions", "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"} {
			if !slices.Contains(strings.Split(c, "\n"), opt) {
				t.Errorf("javac %q lacks %s", c, opt)
			}
		}
	}
}
