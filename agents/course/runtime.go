package course

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"time"

	"arena/engine"
	"arena/internal/childcmd"
)

// Debian install commands named in errors about a missing runtime.
const (
	aptPython = "apt-get install python3 python3-numpy"
	aptJava   = "apt-get install default-jdk-headless"
)

// python finds the interpreter: the reference's "python" option, then
// $ARENA_PYTHON, then the system's /usr/bin/python3 (where Debian's
// python3-numpy installs), then python3 on PATH.
func python(r Ref) (string, error) {
	if p := r.Params["python"]; p != "" {
		return lookRuntime(p, aptPython)
	}
	if p := os.Getenv("ARENA_PYTHON"); p != "" {
		return lookRuntime(p, aptPython)
	}
	if fi, err := os.Stat("/usr/bin/python3"); err == nil && !fi.IsDir() {
		return "/usr/bin/python3", nil
	}
	return lookRuntime("python3", aptPython)
}

// javaTools finds java and javac (17 or later): the reference's options,
// else PATH.
func javaTools(r Ref) (java, javac string, err error) {
	java, err = lookRuntime(or(r.Params["java"], "java"), aptJava)
	if err != nil {
		return "", "", err
	}
	javac, err = lookRuntime(or(r.Params["javac"], "javac"), aptJava)
	if err != nil {
		return "", "", err
	}
	return java, javac, nil
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func lookRuntime(name, install string) (string, error) {
	p, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%s is not installed or not on PATH (Debian: %s)", name, install)
	}
	return p, nil
}

var javacVersion = regexp.MustCompile(`javac (\d+)`)

// javacJVM are the options of the JVM javac runs on (not of the agents'
// JVM, which runs as the course's did): the client compiler alone and the
// serial collector suit a compile of a few dozen files. The COMP424
// course repositories compiled in half the CPU (2.0 s against 4.0 s for
// kiankd/comp424, 2.5 s against 3.5-4.6 s for pentago_twist, javac 17;
// docs/testing.md). A JVM that knows neither option ignores them.
var javacJVM = []string{"-J-XX:+IgnoreUnrecognizedVMOptions", "-J-XX:TieredStopAtLevel=1", "-J-XX:+UseSerialGC"}

// checkJavac requires javac 17 or later, the version the adapter is
// tested with (the courses' code is Java 8 source, which 17 compiles).
func checkJavac(ctx context.Context, javac string) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	out, err := childcmd.Command(ctx, javac, append([]string{"-version"}, javacJVM...)...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s -version: %v: %s (Debian: %s)", javac, err, bytes.TrimSpace(out), aptJava)
	}
	m := javacVersion.FindSubmatch(out)
	if m == nil {
		return fmt.Errorf("%s -version: cannot read the version in %q", javac, bytes.TrimSpace(out))
	}
	if v, _ := strconv.Atoi(string(m[1])); v < 17 {
		return fmt.Errorf("%s is version %d; the course adapters need 17 or later (Debian: %s)", javac, v, aptJava)
	}
	return nil
}

var noModule = regexp.MustCompile(`No module named '([^'.]+)`)

// moduleHint adds the install command to a Python error about a missing
// module: Debian packages Python modules as python3-<name>.
func moduleHint(python, msg string) string {
	m := noModule.FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	name := strings.ReplaceAll(strings.ToLower(m[1]), "_", "-")
	return fmt.Sprintf("%s (module %s is not found by %s; if it is a library, install it, e.g. on Debian: apt-get install python3-%s)", msg, m[1], python, name)
}

// Interpreter is the runtime binary the course agent ref starts, found as
// its start finds it: java for a COMP424 repository, the Python
// interpreter for a Python file or package. Benches time a bare start of
// it as the floor of the agent's start.
func Interpreter(ref string) (string, error) {
	r, err := ParseRef(ref)
	if err != nil {
		return "", err
	}
	switch Runtime(ref) {
	case engine.RuntimeCourseJVM:
		return lookRuntime(or(r.Params["java"], "java"), aptJava)
	case engine.RuntimeCoursePython:
		return python(r)
	}
	return "", fmt.Errorf("agent %q is neither a COMP424 repository nor a Python agent", ref)
}

// ClientJVMFlags are the flags the client JVM of a COMP424 agent gets
// under its course profile (the course's heap).
func ClientJVMFlags() []string { return jvmHeapFlags(nil) }
