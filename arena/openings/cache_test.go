package openings_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"arena/arena/openings"
	"arena/engine"
)

// A generated suite is kept: the next load reads the same suite from the
// cache (a file that is then edited or spoilt is generated again), other
// settings get their own file, and no folder means no cache.
func TestGenerateCachedKeepsTheSuite(t *testing.T) {
	ctx := context.Background()
	g := game(t, "cachex")
	params := engine.Params{"n": "4"}
	r := openings.Random{Plies: 3, Count: 5, Seed: 11, Depth: 2}
	want, err := openings.Generate(ctx, g, params, r)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "openings")
	first, err := openings.GenerateCached(ctx, g, params, r, dir)
	if err != nil || !reflect.DeepEqual(first.Openings, want.Openings) {
		t.Fatalf("first load: %v, %+v", err, first)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "cachex-*.txt"))
	if len(files) != 1 {
		t.Fatalf("cache files %v, want one", files)
	}
	second, err := openings.GenerateCached(ctx, g, params, r, dir)
	if err != nil || !reflect.DeepEqual(second.Openings, want.Openings) || !strings.Contains(second.Source, "kept in "+files[0]) {
		t.Fatalf("second load: %v, source %q", err, second.Source)
	}
	if second.Hash() != want.Hash() {
		t.Error("the cached suite hashes otherwise than the generated one")
	}
	// A spoilt file is not believed.
	if err := os.WriteFile(files[0], []byte("not a move\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	third, err := openings.GenerateCached(ctx, g, params, r, dir)
	if err != nil || !reflect.DeepEqual(third.Openings, want.Openings) {
		t.Fatalf("after the file was spoilt: %v, %+v", err, third)
	}
	r.Seed = 12
	if _, err := openings.GenerateCached(ctx, g, params, r, dir); err != nil {
		t.Fatal(err)
	}
	if files, _ = filepath.Glob(filepath.Join(dir, "cachex-*.txt")); len(files) != 2 {
		t.Fatalf("another seed: cache files %v, want two", files)
	}
	if s, err := openings.GenerateCached(ctx, g, params, r, ""); err != nil || s.Len() != r.Count {
		t.Fatalf("without a cache: %v", err)
	}
}
