package courseref_test

import (
	"os"
	"path/filepath"
	"testing"

	"arena/agents/course/courseref"
)

// TestHashCoversWhatTheAgentRuns: a change to a bot's helper module or to
// any file of a package changes the agent's hash; an unrelated file beside
// a bot and the runtime's caches do not.
func TestHashCoversWhatTheAgentRuns(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	hash := func(p string) string {
		t.Helper()
		h, err := courseref.Hash(filepath.Join(dir, p))
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	write("bot.py", "import helpers\n")
	write("helpers.py", "X = 1\n")
	write("notes.txt", "a\n")
	write("pkg/__init__.py", "from .player import Player\n")
	write("pkg/player.py", "class Player: pass\n")
	bot, pkg := hash("bot.py"), hash("pkg")
	write("notes.txt", "b\n")
	write("pkg/__pycache__/player.cpython-311.pyc", "cache")
	if hash("bot.py") != bot || hash("pkg") != pkg {
		t.Fatal("an unrelated file or a cache changed the hash")
	}
	write("helpers.py", "X = 2\n")
	write("pkg/player.py", "class Player: x = 1\n")
	if hash("bot.py") == bot {
		t.Error("a changed helper module left the bot's hash unchanged")
	}
	if hash("pkg") == pkg {
		t.Error("a changed package file left the package's hash unchanged")
	}
}
