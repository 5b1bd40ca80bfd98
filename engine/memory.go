package engine

import (
	"fmt"
	"strconv"
)

// Runtime is what runs an agent, as far as a profile's memory rule is
// concerned: the courses limited memory through their own runtimes.
type Runtime string

const (
	// RuntimeNative: agent binaries, built-ins and Lua scripts, under the
	// arena's translation of the course's rule (MemoryMB resident).
	RuntimeNative Runtime = ""
	// RuntimeCourseJVM: a COMP424 repository's client JVM, started with
	// the course launcher's heap flags.
	RuntimeCourseJVM Runtime = "course-jvm"
	// RuntimeCoursePython: a course Python agent in the arena's Python
	// host, measured as the course referee measured it.
	RuntimeCoursePython Runtime = "course-python"
)

// Start options through which the referee tells a course agent's adapter
// the rule it applies inside the agent.
const (
	// OptionJVMHeapMB: the -Xms/-Xmx of a course JVM, MiB.
	OptionJVMHeapMB = "arena.jvm-heap-mb"
	// OptionPythonPeakMB: the course Python agent's limit on its peak
	// virtual size above the size after its imports, MiB.
	OptionPythonPeakMB = "arena.python-peak-mb"
)

// SpaceBreach starts the error a course Python agent's adapter reports
// when the agent's peak passed PythonPeakMB: the referee judges it a
// memory failure, from an agent under that rule only.
const SpaceBreach = "exceeded space limit: "

// MemoryRule is the memory rule applied to one agent.
type MemoryRule struct {
	// TreeMB is the resident ceiling of the agent's whole process tree,
	// enforced by the host's kill; 0 means none.
	TreeMB int
	// JVMHeapMB is the heap given to a course JVM (its own
	// OutOfMemoryError is the course's memory failure); 0 when not a JVM.
	JVMHeapMB int
	// PythonPeakMB limits a course Python agent's VmPeak above its VmSize
	// after imports, checked after each call; 0 when not measured so.
	PythonPeakMB int
}

// MemoryFor returns the rule for an agent run by rt. A course runtime
// gets its course's own rule where the profile has one, with the tree
// limit only a safety ceiling well above what the course let the agent
// use; everything else gets MemoryMB resident.
func (p *Profile) MemoryFor(rt Runtime) MemoryRule {
	switch {
	case rt == RuntimeCourseJVM && p.JVMHeapMB > 0:
		return MemoryRule{TreeMB: p.JVMHeapMB + p.JVMHeadroomMB, JVMHeapMB: p.JVMHeapMB}
	case rt == RuntimeCoursePython && p.PythonPeakMB > 0:
		return MemoryRule{TreeMB: p.PythonCeilingMB, PythonPeakMB: p.PythonPeakMB}
	}
	return MemoryRule{TreeMB: p.MemoryMB}
}

// Options are the start options that carry the rule to the agent's
// adapter (nil when the rule is the host's alone).
func (m MemoryRule) Options() map[string]string {
	o := map[string]string{}
	if m.JVMHeapMB > 0 {
		o[OptionJVMHeapMB] = strconv.Itoa(m.JVMHeapMB)
	}
	if m.PythonPeakMB > 0 {
		o[OptionPythonPeakMB] = strconv.Itoa(m.PythonPeakMB)
	}
	if len(o) == 0 {
		return nil
	}
	return o
}

// Breach describes a kill by the tree limit, for the record.
func (m MemoryRule) Breach() string {
	switch {
	case m.JVMHeapMB > 0:
		return fmt.Sprintf("over the %d MiB safety ceiling of a JVM with a %d MiB heap", m.TreeMB, m.JVMHeapMB)
	case m.PythonPeakMB > 0:
		return fmt.Sprintf("over the %d MiB resident safety ceiling of a course Python agent", m.TreeMB)
	}
	return fmt.Sprintf("over the %d MiB memory limit", m.TreeMB)
}

// memorySettings are the whole-MiB settings Apply accepts, each with the
// field it sets.
func (p *Profile) memorySettings() map[string]*int {
	return map[string]*int{
		"memory-mb":         &p.MemoryMB,
		"jvm-heap-mb":       &p.JVMHeapMB,
		"jvm-headroom-mb":   &p.JVMHeadroomMB,
		"python-peak-mb":    &p.PythonPeakMB,
		"python-ceiling-mb": &p.PythonCeilingMB,
	}
}

// applyMemory sets one of memorySettings.
func (p *Profile) applyMemory(setting, value string, field *int) (Override, error) {
	n, err := strconv.Atoi(value)
	if err != nil || n < 0 {
		return Override{}, fmt.Errorf("profile %s: %s %q: want a whole number of MiB (0 = none)", p.Name, setting, value)
	}
	if n > MaxMemoryMB {
		return Override{}, fmt.Errorf("profile %s: %s %d: at most %d MiB (1 TiB); 0 means no limit", p.Name, setting, n, MaxMemoryMB)
	}
	if setting == "jvm-heap-mb" && n > 0 && n < minJVMHeapMB {
		return Override{}, fmt.Errorf("profile %s: jvm-heap-mb %d: a JVM needs at least %d MiB of heap", p.Name, n, minJVMHeapMB)
	}
	o := Override{Setting: setting, From: strconv.Itoa(*field), To: strconv.Itoa(n)}
	*field = n
	return o, nil
}

// MaxMemoryMB bounds every memory setting: above any machine's memory,
// and far from where a size in bytes (MiB << 20) would overflow and turn
// a limit into its opposite.
const MaxMemoryMB = 1 << 20

// minJVMHeapMB keeps the JVM's own start-up inside its heap.
const minJVMHeapMB = 16
