package workerbook

import (
	"context"
	"errors"
	"os"
	"reflect"
	"testing"
	"time"
)

// What the coordinator saves the viewer reads back, replaced row by row;
// a league without a cluster has no book.
func TestSaveAndList(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := OpenReadOnly(ctx, dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a league without a book: %v", err)
	}
	b, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	seen := time.Date(2026, 11, 27, 4, 0, 0, 0, time.UTC)
	lab := Worker{Name: "lab07", Host: "lab07.cs", CPU: "EPYC", Cores: 8, Score: 41.5, Class: "standard", Games: 12, InProgress: 2, LastSeen: seen}
	old := Worker{Name: "lab09", Host: "lab09.cs", CPU: "Atom", Cores: 2, Score: 9, Class: "slow", Refusals: 3, LastRefusal: "slow", LastSeen: seen}
	if err := b.Save(ctx, []Worker{lab, old}); err != nil {
		t.Fatal(err)
	}
	lab.Games, lab.InProgress = 13, 1
	if err := b.Save(ctx, []Worker{lab}); err != nil {
		t.Fatal(err)
	}
	r, err := OpenReadOnly(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	got, err := r.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := []Worker{lab, old}; !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
}
