package course

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"arena/engine"
)

// Runtime tells which course runtime runs the agent ref, for the
// profile's memory rule (engine.Profile.MemoryFor): a COMP424 repository
// runs in a JVM, a Python file or package in the arena's Python host;
// anything else, or a course path that is not there, is native (the
// start will report what is wrong).
func Runtime(ref string) engine.Runtime {
	if !strings.HasPrefix(ref, Prefix) {
		return engine.RuntimeNative
	}
	r, err := ParseRef(ref)
	if err != nil {
		return engine.RuntimeNative
	}
	fi, err := os.Stat(r.Path)
	switch {
	case err != nil:
		return engine.RuntimeNative
	case !fi.IsDir(), isFile(filepath.Join(r.Path, "__init__.py")):
		return engine.RuntimeCoursePython
	case isFile(filepath.Join(r.Path, "src", "boardgame", "Client.java")),
		isFile(filepath.Join(r.Path, "bin", "boardgame", "Client.class")):
		return engine.RuntimeCourseJVM
	}
	return engine.RuntimeNative
}

// courseHeapMB is the heap COMP424's launcher gave every client JVM.
const courseHeapMB = 520

// jvmHeapFlags are the heap flags of the client JVM: the course's unless
// the referee passed the profile's (engine.OptionJVMHeapMB).
func jvmHeapFlags(options map[string]string) []string {
	mb := courseHeapMB
	if n, err := strconv.Atoi(options[engine.OptionJVMHeapMB]); err == nil && n > 0 {
		mb = n
	}
	return []string{"-Xms" + strconv.Itoa(mb) + "m", "-Xmx" + strconv.Itoa(mb) + "m"}
}
