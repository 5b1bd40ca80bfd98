package course_test

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"testing"

	"arena/agents/course"
	"arena/internal/forksafe"
)

// fakeCompiler is a stand-in javac (javacVersion) that otherwise makes
// the folder given to -d, as a compile that succeeds: what the progress
// writer hears does not depend on what javac writes. Real compiles are
// the other COMP424 tests' (a new fixture's first, through the shared
// cache).
const fakeCompiler = javacVersion + `while [ $# -gt 0 ]; do
  if [ "$1" = -d ]; then mkdir -p "$2"; fi
  shift
done
`

// TestCompileIsTold: the first use of a COMP424 repository compiles it
// with javac for tens of seconds; the progress writer hears when it
// starts and how long it took. A compiled repository is not compiled
// again, and nothing is said.
func TestCompileIsTold(t *testing.T) {
	t.Parallel()
	abs, err := filepath.Abs("testdata/comp424/pentago")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	javac := filepath.Join(dir, "javac")
	if err := forksafe.WriteFile(javac, []byte(fakeCompiler)); err != nil {
		t.Fatal(err)
	}
	ref := "course:" + abs + "?javac=" + javac + "&java=" + javac + "&cache=" + filepath.Join(dir, "cache")
	var out bytes.Buffer
	p := course.Preparer{Progress: &out}
	if err := p.CheckRef(context.Background(), ref, "pentago-twist"); err != nil {
		t.Fatal(err)
	}
	want := regexp.MustCompile(`^compiling course repository ` + regexp.QuoteMeta(abs) + ` \(javac\)…\n` +
		`compiling course repository ` + regexp.QuoteMeta(abs) + ` \(javac\): done in [0-9.]+(ms|s|m[0-9.]+s)\n$`)
	if !want.MatchString(out.String()) {
		t.Fatalf("progress %q", out.String())
	}
	out.Reset()
	if _, _, err := p.Prepare(context.Background(), ref, false); err != nil {
		t.Fatal(err)
	}
	if out.Len() != 0 {
		t.Fatalf("a compiled repository was compiled again: %q", out.String())
	}
}
