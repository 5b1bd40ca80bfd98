package linkcheck_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"arena/internal/linkcheck"
)

// recorder keeps the failures Refuse reports instead of failing the test.
type recorder struct {
	testing.TB
	errs []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

// Refuse reports each refused package the package links, naming it, and
// nothing for one it does not; Deps ends with the package itself.
func TestRefuseNamesWhatIsLinked(t *testing.T) {
	deps, err := linkcheck.Deps(".", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(deps) == 0 || deps[len(deps)-1] != "arena/internal/linkcheck" || !slices.Contains(deps, "os/exec") {
		t.Fatalf("deps %v: want os/exec among them and the package last", deps)
	}
	r := &recorder{TB: t}
	linkcheck.Refuse(r, false, "os/exec", "net/http")
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], "arena/internal/linkcheck links os/exec") {
		t.Fatalf("failures %q: want one, for os/exec", r.errs)
	}
	r = &recorder{TB: t}
	linkcheck.Refuse(r, true, "testing")
	if len(r.errs) != 1 || !strings.Contains(r.errs[0], "links testing") {
		t.Fatalf("failures with the test binary %q: want one, for testing", r.errs)
	}
}
