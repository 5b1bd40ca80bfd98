package course_test

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"testing"

	"arena/agents/course"
)

// TestCompileIsTold: the first use of a COMP424 repository compiles it
// with javac for tens of seconds; the progress writer hears when it
// starts and how long it took. A compiled repository is not compiled
// again, and nothing is said.
func TestCompileIsTold(t *testing.T) {
	longRunning(t)
	t.Parallel()
	needJava(t)
	abs, err := filepath.Abs("testdata/comp424/pentago")
	if err != nil {
		t.Fatal(err)
	}
	ref := "course:" + abs + "?cache=" + t.TempDir()
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
