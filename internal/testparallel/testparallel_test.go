package testparallel_test

import (
	"flag"
	"os"
	"testing"

	"arena/internal/testparallel"
)

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(m.Run())
}

// TestDefaultKeepsWhatWasGiven: a -test.parallel on the command line
// stands; without one the default is set.
func TestDefaultKeepsWhatWasGiven(t *testing.T) {
	f := flag.Lookup("test.parallel")
	if f == nil {
		t.Fatal("no test.parallel flag")
	}
	given := false
	flag.Visit(func(g *flag.Flag) { given = given || g.Name == "test.parallel" })
	before := f.Value.String()
	if err := testparallel.Default(37); err != nil {
		t.Fatal(err)
	}
	want := "37"
	if given {
		want = before
	}
	if got := f.Value.String(); got != want {
		t.Fatalf("test.parallel %s after Default(37), want %s (given on the command line: %v)", got, want, given)
	}
}
