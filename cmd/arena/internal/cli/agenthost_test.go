package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"arena/agents"
	"arena/internal/forksafe"
)

// fakeHost writes an executable answering the build-id question with id.
func fakeHost(t *testing.T, path, id string) {
	t.Helper()
	script := "#!/bin/sh\n[ \"$1\" = " + agents.BuildIDArg + " ] && echo " + id + "\nexit 0\n"
	if err := forksafe.WriteFile(path, []byte(script)); err != nil {
		t.Fatal(err)
	}
}

func TestAgentHostChoice(t *testing.T) {
	env := func(v string) func(string) string {
		return func(k string) string {
			if k == AgentHostEnv {
				return v
			}
			return ""
		}
	}
	setup := func(t *testing.T, id string) (self, lean string) {
		dir := t.TempDir()
		self = filepath.Join(dir, "arena")
		if err := os.WriteFile(self, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		lean = filepath.Join(dir, LeanHostName)
		if id != "" {
			fakeHost(t, lean, id)
		}
		return self, lean
	}
	t.Run("no lean host beside the arena", func(t *testing.T) {
		self, _ := setup(t, "")
		if got, note := agentHost(self, env("")); got != self || note != "" {
			t.Fatalf("got %s %q, want the arena itself", got, note)
		}
	})
	t.Run("lean host of the same build", func(t *testing.T) {
		self, lean := setup(t, agents.BuildID())
		if got, note := agentHost(self, env("")); got != lean || note != "" {
			t.Fatalf("got %s %q, want %s", got, note, lean)
		}
	})
	t.Run("lean host of another build", func(t *testing.T) {
		self, _ := setup(t, "0123456789abcdef01234567")
		if got, _ := agentHost(self, env("")); got != self {
			t.Fatalf("got %s, want the arena itself", got)
		}
	})
	t.Run("lean host older than the arena", func(t *testing.T) {
		self, lean := setup(t, agents.BuildID())
		old := time.Now().Add(-time.Hour)
		if err := os.Chtimes(lean, old, old); err != nil {
			t.Fatal(err)
		}
		if got, _ := agentHost(self, env("")); got != self {
			t.Fatalf("got %s, want the arena itself", got)
		}
	})
	t.Run("self asked for", func(t *testing.T) {
		self, _ := setup(t, agents.BuildID())
		if got, _ := agentHost(self, env("self")); got != self {
			t.Fatalf("got %s, want the arena itself", got)
		}
	})
	t.Run("explicit host of another build is refused with a note", func(t *testing.T) {
		self, _ := setup(t, "")
		other := filepath.Join(t.TempDir(), "elsewhere")
		fakeHost(t, other, "ffffffffffffffffffffffff")
		got, note := agentHost(self, env(other))
		if got != self || !strings.Contains(note, AgentHostEnv+"="+other) || !strings.Contains(note, "another build") {
			t.Fatalf("got %s %q", got, note)
		}
	})
	t.Run("explicit host of the same build", func(t *testing.T) {
		self, _ := setup(t, "")
		other := filepath.Join(t.TempDir(), "elsewhere")
		fakeHost(t, other, agents.BuildID())
		if got, note := agentHost(self, env(other)); got != other || note != "" {
			t.Fatalf("got %s %q, want %s", got, note, other)
		}
	})
}
