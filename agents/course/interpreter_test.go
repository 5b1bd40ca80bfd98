package course_test

import (
	"os/exec"
	"testing"

	"arena/agents/course"
)

// TestInterpreter: a bench's bare floor starts the binary the agent's own
// start would run, options included, and a reference that is no course
// agent has none.
func TestInterpreter(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on PATH")
	}
	for _, ref := range []string{"course:testdata/comp424/pentago?java=sh", "course:testdata/cachex/team_a?python=sh", "course:testdata/dab/greedy.py?python=sh"} {
		if got, err := course.Interpreter(ref); err != nil || got != sh {
			t.Errorf("Interpreter(%q) = %q, %v; want %q", ref, got, err, sh)
		}
	}
	if got, err := course.Interpreter("course:testdata"); err == nil {
		t.Errorf("Interpreter of a folder that is no agent = %q, want an error", got)
	}
	if f := course.ClientJVMFlags(); len(f) != 2 || f[0] != "-Xms520m" || f[1] != "-Xmx520m" {
		t.Errorf("ClientJVMFlags = %v, want the course heap", f)
	}
}
