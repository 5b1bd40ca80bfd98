package slots_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"arena/arena/slots"
)

func machine(n int) slots.Machine {
	m := slots.Machine{N: n, Why: "test"}
	for c := range n {
		m.CPUs = append(m.CPUs, c)
	}
	return m
}

func pool(t *testing.T, dir string, n int) *slots.Pool {
	t.Helper()
	p, err := slots.New(dir, machine(n))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestDetectHonoursTheCoresLimit(t *testing.T) {
	all, err := slots.Detect(0)
	if err != nil {
		t.Fatal(err)
	}
	if all.N < 1 || all.N > len(all.CPUs) {
		t.Fatalf("%d slots of %d CPUs", all.N, len(all.CPUs))
	}
	one, err := slots.Detect(1)
	if err != nil {
		t.Fatal(err)
	}
	if one.N != 1 || one.Why == "" {
		t.Fatalf("--cores 1 gave %d slots (%q)", one.N, one.Why)
	}
}

// Leases are all or nothing, distinct, and a lease of more slots than the
// pool has is refused at once rather than waited for forever.
func TestAcquireAllOrNothing(t *testing.T) {
	ctx := context.Background()
	p := pool(t, t.TempDir(), 3)
	a, err := p.Acquire(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	if c := a.CPUs(); len(c) != 2 || c[0] == c[1] {
		t.Fatalf("lease of 2 got %v", c)
	}
	if f := p.Free(); f != 1 {
		t.Fatalf("%d free after leasing 2 of 3", f)
	}
	short, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	if _, err := p.Acquire(short, 2); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a lease of 2 with 1 free: %v, want to wait until the deadline", err)
	}
	if f := p.Free(); f != 1 {
		t.Fatalf("a failed lease kept slots: %d free", f)
	}
	if _, err := p.Acquire(ctx, 4); !errors.Is(err, slots.ErrTooMany) {
		t.Fatalf("a lease of 4 of 3: %v", err)
	}
	a.Release()
	a.Release()
	if f := p.Free(); f != 3 {
		t.Fatalf("%d free after release", f)
	}
}

// Two pools on the same directory — two arena processes on one machine —
// never hold the same CPU at once, and both make progress.
func TestPoolsShareSlotsHostWide(t *testing.T) {
	dir := t.TempDir()
	pools := []*slots.Pool{pool(t, dir, 2), pool(t, dir, 2)}
	var busy [2]atomic.Int32
	var overlaps atomic.Int32
	done := make([]int, 2)
	var wg sync.WaitGroup
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	for i, p := range pools {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 10 {
				l, err := p.Acquire(ctx, 2)
				if err != nil {
					t.Error(err)
					return
				}
				for _, c := range l.CPUs() {
					if busy[c].Add(1) != 1 {
						overlaps.Add(1)
					}
				}
				time.Sleep(3 * time.Millisecond)
				for _, c := range l.CPUs() {
					busy[c].Add(-1)
				}
				l.Release()
				done[i]++
			}
		}()
	}
	wg.Wait()
	if n := overlaps.Load(); n != 0 {
		t.Fatalf("%d time(s) a CPU was held by both pools", n)
	}
	if done[0] != 10 || done[1] != 10 {
		t.Fatalf("leases done: %v", done)
	}
}

// A held slot is seen as taken by any other pool through its lock file,
// and as free again once released.
func TestLocksAreFiles(t *testing.T) {
	dir := t.TempDir()
	p := pool(t, dir, 1)
	l, err := p.Acquire(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "cpu0.lock")); err != nil {
		t.Fatal(err)
	}
	if pool(t, dir, 1).Free() != 0 {
		t.Fatal("another pool sees the held slot as free")
	}
	l.Release()
	if pool(t, dir, 1).Free() != 1 {
		t.Fatal("released slot not free")
	}
}

func TestLoad(t *testing.T) {
	l, err := slots.Load()
	if err != nil {
		t.Fatal(err)
	}
	if l < 0 {
		t.Fatalf("load %v", l)
	}
	r, err := slots.Running()
	if err != nil || r < 1 {
		t.Fatalf("running %d, %v (the reader itself runs)", r, err)
	}
}

// UseOwnDir makes a directory of its own, and leagues (DefaultDir) and the
// arena processes started after it (the environment) use it.
func TestUseOwnDir(t *testing.T) {
	t.Setenv(slots.DirEnv, "")
	before := slots.DefaultDir()
	dir, err := slots.UseOwnDir("arena-slots-test-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Fatalf("slot folder %s: %v", dir, err)
	}
	if dir == before || slots.DefaultDir() != dir || os.Getenv(slots.DirEnv) != dir {
		t.Fatalf("DefaultDir %s, %s=%q, want the new folder %s (before: %s)", slots.DefaultDir(), slots.DirEnv, os.Getenv(slots.DirEnv), dir, before)
	}
	p, err := slots.New(slots.DefaultDir(), slots.Machine{CPUs: []int{0}, N: 1})
	if err != nil {
		t.Fatal(err)
	}
	if p.Dir() != dir || p.Free() != 1 {
		t.Fatalf("pool in %s with %d free, want %s with 1", p.Dir(), p.Free(), dir)
	}
}
