package engine_test

import (
	"strings"
	"testing"

	"arena/engine"
)

func comp424() engine.Profile {
	return engine.Profile{Name: "comp424-2021", Time: engine.PerMove, MoveLimit: 1, FirstMoveLimit: 1,
		MemoryMB: 520, JVMHeapMB: 520, JVMHeadroomMB: 1024}
}

// A course JVM is held by its own heap: the tree limit is only a ceiling
// heap + headroom above it, so a JVM whose heap stays under -Xmx is
// never killed for its resident size. Other agents keep MemoryMB.
func TestMemoryRuleByRuntime(t *testing.T) {
	p := comp424()
	jvm := p.MemoryFor(engine.RuntimeCourseJVM)
	if jvm.TreeMB != 1544 || jvm.JVMHeapMB != 520 || jvm.PythonPeakMB != 0 {
		t.Fatalf("course JVM rule %+v", jvm)
	}
	if got := jvm.Options()[engine.OptionJVMHeapMB]; got != "520" {
		t.Fatalf("JVM heap option %q", got)
	}
	if !strings.Contains(jvm.Breach(), "1544 MiB safety ceiling") {
		t.Fatalf("breach text %q", jvm.Breach())
	}
	for _, rt := range []engine.Runtime{engine.RuntimeNative, engine.RuntimeCoursePython} {
		if r := p.MemoryFor(rt); r != (engine.MemoryRule{TreeMB: 520}) || r.Options() != nil {
			t.Fatalf("%q under comp424: %+v", rt, r)
		}
	}
	// A profile without a JVM rule treats a JVM like any agent.
	p.JVMHeapMB = 0
	if r := p.MemoryFor(engine.RuntimeCourseJVM); r != (engine.MemoryRule{TreeMB: 520}) {
		t.Fatalf("no JVM rule: %+v", r)
	}

	cx := engine.Profile{MemoryMB: 100, PythonPeakMB: 200, PythonCeilingMB: 2048}
	py := cx.MemoryFor(engine.RuntimeCoursePython)
	if py.TreeMB != 2048 || py.PythonPeakMB != 200 || py.Options()[engine.OptionPythonPeakMB] != "200" {
		t.Fatalf("course Python rule %+v", py)
	}
	if r := cx.MemoryFor(engine.RuntimeNative); r.TreeMB != 100 || r.PythonPeakMB != 0 {
		t.Fatalf("SDK agent under cachex: %+v", r)
	}
}

// The ceiling and the course values are settings, shown as overrides.
func TestMemorySettings(t *testing.T) {
	p := comp424()
	o, err := p.Apply("jvm-headroom-mb", "2048")
	if err != nil || o.From != "1024" || o.To != "2048" {
		t.Fatalf("override %v, %v", o, err)
	}
	if r := p.MemoryFor(engine.RuntimeCourseJVM); r.TreeMB != 520+2048 {
		t.Fatalf("ceiling after the override: %+v", r)
	}
	if _, err := p.Apply("jvm-heap-mb", "256"); err != nil || p.MemoryFor(engine.RuntimeCourseJVM).JVMHeapMB != 256 {
		t.Fatalf("jvm-heap-mb: %v", err)
	}
	for _, bad := range [][2]string{{"jvm-heap-mb", "8"}, {"python-peak-mb", "-1"}, {"python-ceiling-mb", "lots"}} {
		if _, err := p.Apply(bad[0], bad[1]); err == nil {
			t.Errorf("%s=%s accepted", bad[0], bad[1])
		}
	}
	p.PythonCeilingMB = -1
	if err := p.Validate(); err == nil || !strings.Contains(err.Error(), "python-ceiling-mb") {
		t.Fatalf("negative ceiling: %v", err)
	}
}

// The memory settings' bounds: 0 switches a rule off, a JVM heap may be
// as small as 16 MiB and no smaller.
func TestMemorySettingBounds(t *testing.T) {
	for _, c := range []struct {
		setting, value string
		ok             bool
	}{
		{"jvm-heap-mb", "0", true},
		{"jvm-heap-mb", "15", false},
		{"jvm-heap-mb", "16", true},
		{"memory-mb", "0", true},
		{"python-peak-mb", "0", true},
		{"python-ceiling-mb", "1048576", true},
		{"python-ceiling-mb", "1048577", false},
	} {
		p := comp424()
		_, err := p.Apply(c.setting, c.value)
		if (err == nil) != c.ok {
			t.Errorf("%s=%s: %v, want accepted %v", c.setting, c.value, err, c.ok)
		}
	}
}
