// Package linkcheck holds a package to the dependencies it was written
// without: a test names the packages its package must not link (a
// database engine, the plugin transport), and go list says what the
// package, or its test binary, links. Each such dependency costs every
// program or test binary that carries it a link, and a start, of its own.
package linkcheck

import (
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// Refuse fails t for each of refused that the package in the test's
// directory links, its test binary's dependencies included when test is
// true.
func Refuse(t testing.TB, test bool, refused ...string) {
	t.Helper()
	deps, err := Deps(".", test)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range refused {
		if slices.Contains(deps, r) {
			t.Errorf("%s links %s", deps[len(deps)-1], r)
		}
	}
}

// Deps lists the import paths the package in dir links, the package itself
// last (go list -deps puts a package after its dependencies); with test,
// those of its test binary.
func Deps(dir string, test bool) ([]string, error) {
	args := []string{"list", "-deps"}
	if test {
		args = append(args, "-test")
	}
	cmd := exec.Command("go", append(args, ".")...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -deps in %s: %w", dir, err)
	}
	return strings.Fields(string(out)), nil
}
