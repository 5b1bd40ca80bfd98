package entrants_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/entrants"
)

// write makes the files of a submissions folder; a name ending in "*" is
// made executable (without the star).
func write(t *testing.T, root string, files ...string) {
	t.Helper()
	for _, f := range files {
		mode := os.FileMode(0o644)
		if strings.HasSuffix(f, "*") {
			f, mode = strings.TrimSuffix(f, "*"), 0o755
		}
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
}

// Every shape a class submits is recognised and named after its folder or
// file; what cannot be recognised is refused with a fix, not guessed.
func TestFromDirDetectsEveryKind(t *testing.T) {
	root := t.TempDir()
	write(t, root,
		"alice/src/student_player/StudentPlayer.java", "alice/src/boardgame/Board.java", // COMP424
		"bob/__init__.py", "bob/program.py", // Cachex package
		"carol/main.go", "carol/go.mod", // Go package
		"dave.lua",                              // Lua script
		"erin/agent.py", "erin/STcpClient_1.py", // hex script with its client library
		"frank*",                   // SDK binary
		"grace/notes.txt",          // nothing arena knows
		"heidi/a.py", "heidi/b.py", // ambiguous
		".hidden/bot.lua", "README.md", // skipped: hidden; refused: not an agent
	)
	found, err := entrants.FromDir(root)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]struct{ kind, ref string }{
		"alice": {entrants.KindCourse, "course:" + filepath.Join(root, "alice")},
		"bob":   {entrants.KindCourse, "course:" + filepath.Join(root, "bob")},
		"carol": {entrants.KindGo, filepath.Join(root, "carol")},
		"dave":  {entrants.KindLua, "lua:" + filepath.Join(root, "dave.lua")},
		"erin":  {entrants.KindCourse, "course:" + filepath.Join(root, "erin", "agent.py")},
		"frank": {entrants.KindBinary, filepath.Join(root, "frank")},
	}
	got := map[string]entrants.Entrant{}
	for _, e := range found.Entrants {
		got[e.Name] = e
	}
	for name, w := range want {
		e, ok := got[name]
		if !ok {
			t.Errorf("%s not found; entrants %+v", name, found.Entrants)
			continue
		}
		if e.Kind != w.kind || e.Ref != w.ref || e.Why == "" {
			t.Errorf("%s: kind %s ref %s (why %q), want %s %s", name, e.Kind, e.Ref, e.Why, w.kind, w.ref)
		}
	}
	if len(found.Entrants) != len(want) {
		t.Errorf("%d entrants, want %d: %+v", len(found.Entrants), len(want), found.Entrants)
	}
	refused := map[string]entrants.Refusal{}
	for _, r := range found.Refused {
		refused[filepath.Base(r.Source)] = r
	}
	for _, name := range []string{"grace", "heidi", "README.md"} {
		r, ok := refused[name]
		if !ok || r.Reason == "" || r.Fix == "" {
			t.Errorf("%s: refusal %+v, want one with a reason and a fix", name, r)
		}
	}
	if r := refused["heidi"]; !strings.Contains(r.Reason, "a.py") || !strings.Contains(r.Reason, "b.py") || !strings.Contains(r.Fix, entrants.ManifestName) {
		t.Errorf("ambiguous folder refused as %+v: want both files named and the manifest suggested", r)
	}
	if len(found.Refused) != 3 {
		t.Errorf("refused %+v, want grace, heidi and README.md", found.Refused)
	}
}

// A manifest states the kind, the entry, a display name and options; a
// course agent's options travel in its reference. A misspelt key or an
// entry outside the folder is refused naming the file.
func TestManifest(t *testing.T) {
	root := t.TempDir()
	write(t, root, "s1/player/bot.py", "s1/player/helper.py", "s2/x.lua", "s3/x.lua", "s4/x.lua", "s5/x.lua")
	manifests := map[string]string{
		"s1": "kind: course\nname: team-rocket\nentry: player/bot.py\noptions:\n  python: /usr/bin/python3\n  class: Bot\n",
		"s2": "kind: lua\nentry: x.lua\noptions:\n  depth: 3\n",
		"s3": "kind: lua\nentyr: x.lua\n",
		"s4": "kind: lua\nentry: ../s2/x.lua\n",
		"s5": "kind: java\n",
	}
	for dir, m := range manifests {
		if err := os.WriteFile(filepath.Join(root, dir, entrants.ManifestName), []byte(m), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	found, err := entrants.FromDir(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(found.Entrants) != 2 {
		t.Fatalf("entrants %+v, want s1 and s2", found.Entrants)
	}
	s1, s2 := found.Entrants[0], found.Entrants[1]
	if s1.Name != "team-rocket" || s1.Ref != "course:"+filepath.Join(root, "s1", "player", "bot.py")+"?class=Bot&python=%2Fusr%2Fbin%2Fpython3" || s1.Options != nil {
		t.Errorf("s1 = %+v", s1)
	}
	if s2.Name != "s2" || s2.Ref != "lua:"+filepath.Join(root, "s2", "x.lua") || s2.Options["depth"] != "3" {
		t.Errorf("s2 = %+v", s2)
	}
	want := map[string]string{"s3": "entyr", "s4": "outside", "s5": "java"}
	for _, r := range found.Refused {
		w := want[filepath.Base(r.Source)]
		if w == "" || !strings.Contains(r.Reason, w) || !strings.Contains(r.Reason, entrants.ManifestName) {
			t.Errorf("refusal %+v: want it to name %q and the manifest", r, w)
		}
		delete(want, filepath.Base(r.Source))
	}
	if len(want) != 0 {
		t.Errorf("not refused: %v", want)
	}
}

// Two submissions that would share a name stop the scan, naming both.
func TestSameNameIsAnError(t *testing.T) {
	root := t.TempDir()
	write(t, root, "alice.lua", "alice/bot.py")
	_, err := entrants.FromDir(root)
	if err == nil || !strings.Contains(err.Error(), filepath.Join(root, "alice.lua")) || !strings.Contains(err.Error(), filepath.Join(root, "alice")+" ") {
		t.Fatalf("err %v, want both paths named", err)
	}
}

// A pattern names each match after the path element its first wildcard
// matched, so two hundred bot.py files get their students' names.
func TestFromGlob(t *testing.T) {
	root := t.TempDir()
	write(t, root, "subs/ann/bot.py", "subs/ben/bot.py", "subs/ben/other.py", "lua/cy.lua")
	found, err := entrants.FromGlob(filepath.Join(root, "subs", "*", "bot.py"))
	if err != nil {
		t.Fatal(err)
	}
	if len(found.Entrants) != 2 || found.Entrants[0].Name != "ann" || found.Entrants[1].Name != "ben" ||
		found.Entrants[1].Ref != "course:"+filepath.Join(root, "subs", "ben", "bot.py") {
		t.Errorf("entrants %+v", found.Entrants)
	}
	found, err = entrants.FromGlob(filepath.Join(root, "lua", "*.lua"))
	if err != nil || len(found.Entrants) != 1 || found.Entrants[0].Name != "cy" {
		t.Errorf("lua pattern: %+v, %v", found, err)
	}
	if _, err := entrants.FromGlob(filepath.Join(root, "none", "*")); err == nil || !strings.Contains(err.Error(), "matches nothing") {
		t.Errorf("empty pattern: %v", err)
	}
	if _, err := entrants.FromDir(filepath.Join(root, "missing")); err == nil {
		t.Error("a missing folder is not an error")
	}
}

// Classify reports an unreadable path as a refusal, not a failure of the
// whole scan.
func TestClassifyMissingIsRefusal(t *testing.T) {
	_, err := entrants.Classify(filepath.Join(t.TempDir(), "gone"))
	var r *entrants.Refusal
	if !errors.As(err, &r) || r.Fix == "" {
		t.Fatalf("err %v, want a refusal with a fix", err)
	}
}
