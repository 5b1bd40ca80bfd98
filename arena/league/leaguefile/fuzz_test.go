package leaguefile_test

import (
	"os"
	"path/filepath"
	"testing"

	"arena/arena/league/leaguefile"
	"arena/games/all"
)

// FuzzLoad: any league file is loaded without a panic; a failure is an
// error naming the file. Seeds are the shipped league files in YAML, and
// small ones in TOML and JSON.
func FuzzLoad(f *testing.F) {
	files, _ := filepath.Glob("../../../configs/*.yaml")
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, uint8(0))
	}
	f.Add([]byte("game = \"bohnenspiel\"\n[[agents]]\nname = \"a\"\nagent = \"random\"\n[[agents]]\nname = \"b\"\nagent = \"greedy\"\n"), uint8(1))
	f.Add([]byte(`{"game":"cachex","params":{"n":5},"penalties":{"dead":"loss"},"agents":[{"name":"a","agent":"random"},{"name":"b","agent":"greedy"}]}`), uint8(2))
	reg := all.Registry()
	f.Fuzz(func(t *testing.T, data []byte, format uint8) {
		ext := []string{".yaml", ".toml", ".json"}[int(format)%3]
		file := filepath.Join(t.TempDir(), "fuzz"+ext)
		if err := os.WriteFile(file, data, 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := leaguefile.Load(file, leaguefile.Options{Registry: reg, Cores: 2})
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an empty error")
			}
			return
		}
		for _, l := range s.Leagues {
			if err := l.Profile.Validate(); err != nil {
				t.Fatalf("league %s loaded with an invalid profile: %v", l.Name, err)
			}
			if len(l.Agents) < 2 {
				t.Fatalf("league %s loaded with %d agents", l.Name, len(l.Agents))
			}
		}
	})
}
