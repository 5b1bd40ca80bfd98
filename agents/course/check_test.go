package course_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/agents/course"
)

// TestCheckRefReportsMissingPieces: the pre-flight names a missing module
// with its install command, a syntax error with file and line, and a
// missing interpreter with the Debian packages, without running the agent.
func TestCheckRefReportsMissingPieces(t *testing.T) {
	longRunning(t)
	t.Parallel()
	needPython(t)
	dir := t.TempDir()
	bad := filepath.Join(dir, "bot.py")
	if err := os.WriteFile(bad, []byte("import os\n\ndef calculate_move(gs)\n    return None\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A bot whose import would run code (it writes a file): the check must
	// not import it.
	touch := filepath.Join(dir, "touched")
	side := filepath.Join(dir, "side.py")
	if err := os.WriteFile(side, []byte("open("+quote(touch)+", 'w').close()\ntry:\n    import optional_thing\nexcept ImportError:\n    pass\ndef calculate_move(gs):\n    return [[0,0],[0,1]]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A hex script without the client library the course shipped beside it.
	lonely := filepath.Join(dir, "lonely.py")
	if err := os.WriteFile(lonely, []byte("import STcpClient_1 as STcpClient\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	cases := []struct {
		ref, game, want string
	}{
		{"course:testdata/dab/missing.py", "dots-and-boxes", "module notthere_arena_test_module, imported by the agent, is not installed for /usr/bin/python3 (if it is a library: Debian apt-get install python3-notthere-arena-test-module)"},
		{"course:" + bad, "dots-and-boxes", bad + ":3: SyntaxError"},
		{"course:testdata/dab/greedy.py?python=/no/such/python3", "dots-and-boxes", "apt-get install python3 python3-numpy"},
		{"course:testdata/dab/greedy.py?colour=red", "dots-and-boxes", `unknown option "colour"`},
		{"course:testdata/dab", "dots-and-boxes", "is a directory"},
		{"course:testdata/dab/greedy.py", "go", "course agents cannot play go"},
		{"course:testdata/cachex/missing", "cachex", "module notthere_arena_test_module, imported by the agent"},
		{"course:testdata/cachex/team_a/player.py", "cachex", "is not a folder"},
		{"course:testdata/hex/missing.py", "hex-crossout", "module notthere_arena_test_module, imported by the agent"},
		{"course:" + lonely, "hex-crossout", "module STcpClient_1, imported by the agent, is not installed"},
	}
	for _, c := range cases {
		err := course.CheckRef(ctx, c.ref, c.game)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to contain %q", c.ref, err, c.want)
		}
	}
	for _, ok := range [][2]string{
		{"course:testdata/dab/greedy.py", "dots-and-boxes"},
		{"course:" + side, "dots-and-boxes"},
		{"lua:whatever.lua", "dots-and-boxes"},
		// Imports a sibling package of its repository by name.
		{"course:testdata/cachex/exits", "cachex"},
		{"course:testdata/hex/agent.py", "hex-crossout"},
	} {
		if err := course.CheckRef(ctx, ok[0], ok[1]); err != nil {
			t.Errorf("%s: %v", ok[0], err)
		}
	}
	if _, err := os.Stat(touch); err == nil {
		t.Error("the check ran the agent's code")
	}
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `\'`) + "'" }
