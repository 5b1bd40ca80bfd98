package lua

import (
	"os"
	"strings"
	"testing"
)

func TestCheckReportsFileAndLine(t *testing.T) {
	cases := []struct{ name, src, want string }{
		{"extra end", "function choose_move(state)\n  return state:legal_moves()[1]\nend end\n", ":3: syntax error near 'end'"},
		{"missing end", "function choose_move(state)\n  return state:legal_moves()[1]\n", ":2: syntax error at the end of the file"},
		{"bad expression", "function choose_move(state)\n  x = = 1\nend\n", ":2: syntax error near '='"},
		{"unterminated string", "function choose_move(state)\n  local s = \"abc\n  return s\nend\n", ":3: unterminated string"},
		{"compile error", "function choose_move(state)\n  local a = ...\nend\n", ":2: cannot use '...' outside a vararg function"},
		{"bytecode", "\x1bLuaQ\x00\x01\x04", ":1: precompiled Lua bytecode is not accepted"},
		{"no choose_move", "function choose(state) end\n", "never defines choose_move"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := writeScript(t, "bad.lua", c.src)
			err := Check(p)
			if err == nil || !strings.HasPrefix(err.Error(), p) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Check: %v; want %q after the path", err, c.want)
			}
		})
	}
	if err := Check("no/such/bot.lua"); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Fatalf("missing file: %v", err)
	}
}

func TestCacheCompilesOncePerContent(t *testing.T) {
	p := writeScript(t, "bot.lua", "function choose_move(s) return s:legal_moves()[1] end\n")
	var c Cache
	a, err := c.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Load(p)
	if err != nil || a != b {
		t.Fatalf("second load compiled again (%p, %p, %v)", a, b, err)
	}
	if err := os.WriteFile(p, []byte("-- edited\nfunction choose_move(s) return s:legal_moves()[2] end\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := c.Load(p)
	if err != nil || d == a || d.Hash == a.Hash {
		t.Fatalf("an edited script must be compiled afresh (%p, %p, %v)", a, d, err)
	}
	// Agents built from one cache share the compiled chunk.
	x, err := New(p, Options{Cache: &c})
	if err != nil || x.script != d {
		t.Fatalf("agent did not use the cached script: %v", err)
	}
}

func TestParseRef(t *testing.T) {
	r, err := ParseRef("lua:bots/a.lua?depth=3&style=fast&mem=64")
	if err != nil {
		t.Fatal(err)
	}
	if r.Path != "bots/a.lua" || r.Params["depth"] != "3" || r.Params["style"] != "fast" || r.MemoryMB != 64 {
		t.Fatalf("%+v", r)
	}
	if r, err := ParseRef("lua:a.lua"); err != nil || r.MemoryMB != DefaultMemoryMB || len(r.Params) != 0 {
		t.Fatalf("%+v %v", r, err)
	}
	for _, bad := range []string{"a.lua", "lua:", "lua:a.lua?mem=lots", "lua:a.lua?mem=1", "lua:a.lua?%zz=1", "lua:a.lua?=3"} {
		if _, err := ParseRef(bad); err == nil {
			t.Errorf("ParseRef(%q) accepted", bad)
		}
	}
	if err := CheckRef("builtin:random"); err != nil {
		t.Errorf("CheckRef must pass other references: %v", err)
	}
	p := writeScript(t, "bad.lua", "function choose_move(\n")
	if err := CheckRef(Prefix + p + "?depth=2"); err == nil || !strings.Contains(err.Error(), p+":1:") {
		t.Errorf("CheckRef: %v", err)
	}
}
