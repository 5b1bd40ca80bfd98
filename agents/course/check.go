package course

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"arena/internal/childcmd"
)

// CheckRef is the arena's pre-flight for course references: it finds the
// course's runtime, checks that the agent's files are where its course
// kept them, and, without running any of the agent's code, that its
// Python sources parse and the modules they import are installed (or, for
// COMP424, that the repository compiles). Other references pass.
func CheckRef(ctx context.Context, ref, game string) error {
	return checkRef(ctx, ref, game, nil)
}

func checkRef(ctx context.Context, ref, game string, progress io.Writer) error {
	if !strings.HasPrefix(ref, Prefix) {
		return nil
	}
	r, err := ParseRef(ref)
	if err != nil {
		return err
	}
	switch game {
	case "dots-and-boxes":
		file, err := dotsModule(r.Path)
		if err != nil {
			return err
		}
		return checkPython(ctx, r, file, filepath.Dir(file))
	case "cachex":
		pkg, err := cachexPackage(r.Path)
		if err != nil {
			return err
		}
		return checkPython(ctx, r, filepath.Join(pkg, "__init__.py"), filepath.Dir(pkg))
	case "hex-crossout":
		script, err := hexScript(r.Path)
		if err != nil {
			return err
		}
		// The course's client library builds numpy arrays.
		if err := checkPython(ctx, r, script, filepath.Dir(script)); err != nil {
			return err
		}
		return checkNumpy(ctx, r)
	case "pentago-twist", "bohnenspiel":
		// Compiling fills the cache the games will use.
		_, err := buildJava(ctx, r, or(r.Params["class"], defaultStudentClass), progress)
		return err
	}
	if _, ok := Games[game]; !ok {
		return fmt.Errorf("course agents cannot play %s", game)
	}
	return nil
}

// pyCheck is the Python host's pre-flight report.
type pyCheck struct {
	Errors  []string `json:"errors"`
	Missing []string `json:"missing"`
}

// checkPython runs the host's static check of entry (roots hold the
// agent's own modules).
func checkPython(ctx context.Context, r Ref, entry string, roots ...string) error {
	py, err := python(r)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := childcmd.Command(ctx, py, append([]string{"-", "check", entry}, roots...)...)
	cmd.Stdin = strings.NewReader(pyHost)
	cmd.Dir = "/"
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = strings.TrimSpace(string(ee.Stderr))
		}
		return fmt.Errorf("%s cannot check %s: %v %s (Debian: %s)", py, entry, err, msg, aptPython)
	}
	var rep pyCheck
	if err := json.Unmarshal(out, &rep); err != nil {
		return fmt.Errorf("check of %s: %q: %w", entry, out, err)
	}
	var msgs []string
	msgs = append(msgs, rep.Errors...)
	for _, m := range rep.Missing {
		msgs = append(msgs, fmt.Sprintf("module %s, imported by the agent, is not installed for %s (if it is a library: Debian apt-get install python3-%s)", m, py, strings.ReplaceAll(strings.ToLower(m), "_", "-")))
	}
	if len(msgs) > 0 {
		return fmt.Errorf("%s", strings.Join(msgs, "; "))
	}
	return nil
}

// checkNumpy requires numpy, which the NYCU client library needs.
func checkNumpy(ctx context.Context, r Ref) error {
	py, err := python(r)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if out, err := childcmd.Command(ctx, py, "-c", "import numpy").CombinedOutput(); err != nil {
		return fmt.Errorf("%s cannot import numpy: %s (Debian: %s)", py, strings.TrimSpace(string(out)), aptPython)
	}
	return nil
}
