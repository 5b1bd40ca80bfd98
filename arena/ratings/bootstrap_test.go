package ratings

import (
	"errors"
	"math"
	"runtime"
	"slices"
	"testing"
)

func TestBootstrapDeterministic(t *testing.T) {
	g, _ := synth(6, 600, 0.3, 11)
	a, err := Bootstrap(6, g, Options{}, 50, 42)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Bootstrap(6, g, Options{}, 50, 42)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a, b) {
		t.Errorf("same seed, different results:\n%v\n%v", a, b)
	}
	// Resample b always uses stream (seed, b), so one worker gives the same
	// answer as many.
	prev := runtime.GOMAXPROCS(1)
	c, err := Bootstrap(6, g, Options{}, 50, 42)
	runtime.GOMAXPROCS(prev)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a, c) {
		t.Errorf("result depends on GOMAXPROCS:\n%v\n%v", a, c)
	}
	d, err := Bootstrap(6, g, Options{}, 50, 43)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(a, d) {
		t.Error("different seeds, identical results")
	}
}

// Without draws the binomial model is exact, so on a large sample the
// bootstrap SD should agree with the observed-information SE, and the
// percentile interval should bracket the estimate.
func TestBootstrapMatchesAnalytic(t *testing.T) {
	g, _ := synth(8, 4000, 0, 5)
	f, err := FitBT(8, g, Options{})
	if err != nil {
		t.Fatal(err)
	}
	bs, err := Bootstrap(8, g, Options{}, 300, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range bs {
		if r.Elo != f.Ratings[i].Elo {
			t.Errorf("agent %d: bootstrap Elo %v != fit %v", i, r.Elo, f.Ratings[i].Elo)
		}
		if ratio := r.SE / f.Ratings[i].SE; ratio < 0.8 || ratio > 1.25 {
			t.Errorf("agent %d: bootstrap SE %.2f vs analytic %.2f", i, r.SE, f.Ratings[i].SE)
		}
		if !(r.Lo < r.Elo && r.Elo < r.Hi) {
			t.Errorf("agent %d: interval [%v, %v] misses %v", i, r.Lo, r.Hi, r.Elo)
		}
	}
}

func TestBootstrapAnchor(t *testing.T) {
	g, _ := synth(4, 400, 0.3, 9)
	bs, err := Bootstrap(4, g, Options{Anchor: &Anchor{Agent: 2, Elo: 100}}, 20, 3)
	if err != nil {
		t.Fatal(err)
	}
	if r := bs[2]; math.Abs(r.Elo-100) > 1e-9 || r.SE > 1e-9 || math.Abs(r.Lo-100) > 1e-9 || math.Abs(r.Hi-100) > 1e-9 {
		t.Errorf("anchor agent: %+v", r)
	}
}

func TestBootstrapErrors(t *testing.T) {
	g := []Game{{A: 0, B: 1, ScoreA: 1}, {A: 1, B: 0, ScoreA: 1}}
	if _, err := Bootstrap(2, g, Options{}, 1, 0); err == nil {
		t.Error("1 resample accepted")
	}
	if _, err := Bootstrap(2, g, Options{Level: 2}, 10, 0); err == nil {
		t.Error("bad options accepted")
	}
	// Some resamples of one win each way give one agent both games.
	if _, err := Bootstrap(2, g, Options{NoPrior: true}, 20, 0); !errors.Is(err, ErrNoMLE) {
		t.Errorf("NoPrior degenerate resample: err = %v, want ErrNoMLE", err)
	}
}

func TestQuantile(t *testing.T) {
	x := []float64{1, 2, 3, 4, 5}
	near(t, "q0", quantile(x, 0), 1, 0)
	near(t, "q1", quantile(x, 1), 5, 0)
	near(t, "q.5", quantile(x, 0.5), 3, 0)
	near(t, "q.1", quantile(x, 0.1), 1.4, 1e-15)
}
