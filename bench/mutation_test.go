package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMutationTableKeepsOtherRows: `bench/mutation --table` with the log
// of one package in $MUTATION_OUT rewrites that package's row and
// survivors in docs/testing.md and keeps every other package's, and the
// text outside the markers.
func TestMutationTableKeepsOtherRows(t *testing.T) {
	t.Parallel() // its own folders; the script runs no tests
	root := t.TempDir()
	script, err := os.ReadFile("mutation")
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write("bench/mutation", string(script))
	const keptRow = "| `a/kept` | 50.0% | 1 | 1 | 0 | 0 | 0 | 9s | abc1234 |"
	const keptLived = "a/kept: CONDITIONALS_BOUNDARY at k.go:1:2"
	write("docs/testing.md", strings.Join([]string{
		"# before",
		"<!-- mutation:begin (written by bench/mutation) -->",
		"Command: old",
		"",
		"| package | efficacy | killed | lived | timed out | not covered | not viable | run time | tree |",
		"|---|---|---|---|---|---|---|---|---|",
		keptRow,
		"| `c/redone` | 0.0% | 0 | 2 | 0 | 0 | 0 | 5s | old0000 |",
		"",
		"Lived mutants (file:line:column is relative to the package):",
		"",
		"```",
		keptLived,
		"c/redone: ARITHMETIC_BASE at old.go:3:4",
		"c/redone: ARITHMETIC_BASE at old.go:5:6",
		"```",
		"<!-- mutation:end -->",
		"",
		"a note after the table",
		"",
	}, "\n"))
	out := filepath.Join(root, "out")
	for _, p := range []string{"c/redone", "b/new"} {
		name := strings.ReplaceAll(p, "/", "_")
		write("out/"+name+".row", p+"\t?\t0\t0\t0\t0\t0\t7s\n")
		write("out/"+name+".rev", "def5678\n")
		write("out/"+name+".log", "        KILLED CONDITIONALS_NEGATION at n.go:1:1\n"+
			"        KILLED CONDITIONALS_NEGATION at n.go:2:1\n"+
			"         LIVED INVERT_NEGATIVES at n.go:3:1\n"+
			"   NOT COVERED ARITHMETIC_BASE at n.go:4:1\n")
	}
	cmd := exec.Command("bash", filepath.Join(root, "bench/mutation"), "--table")
	cmd.Env = append(os.Environ(), "MUTATION_OUT="+out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("bench/mutation --table: %v\n%s", err, b)
	}
	doc, err := os.ReadFile(filepath.Join(root, "docs/testing.md"))
	if err != nil {
		t.Fatal(err)
	}
	got := string(doc)
	for _, want := range []string{
		"# before\n<!-- mutation:begin",
		"|---|\n" + keptRow + "\n" +
			"| `b/new` | 66.7% | 2 | 1 | 0 | 1 | 0 | 7s | def5678 |\n" +
			"| `c/redone` | 66.7% | 2 | 1 | 0 | 1 | 0 | 7s | def5678 |\n\n",
		"```\n" + keptLived + "\n" +
			"b/new: INVERT_NEGATIVES at n.go:3:1\n" +
			"c/redone: INVERT_NEGATIVES at n.go:3:1\n```\n",
		"<!-- mutation:end -->\n\na note after the table\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("docs/testing.md lacks\n%s\nin\n%s", want, got)
		}
	}
	if strings.Contains(got, "old.go") || strings.Contains(got, "old0000") {
		t.Errorf("the rewritten package's old row or survivors are still there:\n%s", got)
	}
}
