package main

import (
	"context"
	"os/exec"
	"strings"
	"testing"
)

// TestJavaFloor: the Java floor compiles its empty class and the JVM runs
// it to a clean exit with the client's heap flags (a missing class would
// exit 1, which the bench's bare run would count as a start). Not under
// -short: javac and a JVM cost more CPU than the rest of the package.
func TestJavaFloor(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles and runs Java")
	}
	java, err := exec.LookPath("java")
	if err != nil {
		t.Skip("no java on PATH")
	}
	if _, err := exec.LookPath("javac"); err != nil {
		t.Skip("no javac on PATH")
	}
	fs, err := javaFloors(context.Background(), java, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 1 || !strings.Contains(fs[0].label, "-Xmx520m -cp DIR Empty") {
		t.Fatalf("floors %+v", fs)
	}
	if out, err := exec.Command(fs[0].argv[0], fs[0].argv[1:]...).CombinedOutput(); err != nil {
		t.Fatalf("%v: %v: %s", fs[0].argv, err, out)
	}
}

// TestPythonFloors: the interpreter's bare start and its numpy import,
// labelled as a shell line.
func TestPythonFloors(t *testing.T) {
	fs, err := pythonFloors(context.Background(), "/usr/bin/python3", "")
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 2 || fs[0].label != "python3 -c pass" || fs[1].label != `python3 -c "import numpy"` {
		t.Errorf("floors %+v", fs)
	}
}
