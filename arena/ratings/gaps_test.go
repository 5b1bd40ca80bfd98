package ratings

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// asymmetric is a strongly connected set of results between three agents
// with no symmetry to hide a sign or an index error.
func asymmetric() []Game {
	var g []Game
	add := func(a, b int, wins, draws, losses int) {
		for range wins {
			g = append(g, Game{A: a, B: b, ScoreA: 1})
		}
		for range draws {
			g = append(g, Game{A: a, B: b, ScoreA: 0.5})
		}
		for range losses {
			g = append(g, Game{A: b, B: a, ScoreA: 1}) // listed from the winner's side
		}
	}
	add(0, 1, 7, 2, 3)
	add(1, 2, 5, 1, 4)
	add(2, 0, 2, 3, 6)
	return g
}

// At the maximum-likelihood ratings every agent's expected score equals
// its actual score (the likelihood's gradient is zero): a property of the
// answer, whatever the algorithm.
func TestMLEMatchesExpectedScores(t *testing.T) {
	games := asymmetric()
	f, err := FitBT(3, games, Options{NoPrior: true})
	if err != nil {
		t.Fatal(err)
	}
	var actual, expected [3]float64
	for _, g := range games {
		d := (f.Ratings[g.A].Elo - f.Ratings[g.B].Elo) / eloPerNat
		p := 1 / (1 + math.Exp(-d))
		actual[g.A] += g.ScoreA
		actual[g.B] += 1 - g.ScoreA
		expected[g.A] += p
		expected[g.B] += 1 - p
	}
	for i := range 3 {
		if math.Abs(actual[i]-expected[i]) > 1e-6 {
			t.Errorf("agent %d: expected score %.6f at the fit, actual %.1f", i, expected[i], actual[i])
		}
	}
	if m := (f.Ratings[0].Elo + f.Ratings[1].Elo + f.Ratings[2].Elo) / 3; math.Abs(m) > 1e-9 {
		t.Errorf("mean rating %v, want 0", m)
	}
}

// Anchoring changes where the scale sits, not the differences or their
// errors; the anchored agent has no error of its own.
func TestAnchorIsOnlyAGauge(t *testing.T) {
	games := asymmetric()
	free, err := FitBT(3, games, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for a := range 3 {
		pinned, err := FitBT(3, games, Options{Anchor: &Anchor{Agent: a, Elo: 1500}})
		if err != nil {
			t.Fatal(err)
		}
		if pinned.Ratings[a].Elo != 1500 || pinned.Ratings[a].SE > 1e-9 || pinned.Cov(a, a) > 1e-6 {
			t.Errorf("anchor %d: %+v, want 1500 with no error", a, pinned.Ratings[a])
		}
		for i := range 3 {
			for j := range 3 {
				d1, se1 := free.Diff(i, j)
				d2, se2 := pinned.Diff(i, j)
				if math.Abs(d1-d2) > 1e-6 || math.Abs(se1-se2) > 1e-6 {
					t.Errorf("anchor %d: Diff(%d,%d) = %.4f±%.4f, free fit %.4f±%.4f", a, i, j, d2, se2, d1, se1)
				}
			}
		}
	}
}

func TestOptionAndGameBoundaries(t *testing.T) {
	if _, err := FitBT(2, []Game{{A: 0, B: 1, ScoreA: 1}}, Options{Level: 1}); err == nil || !strings.Contains(err.Error(), "level") {
		t.Errorf("level 1 accepted: %v", err)
	}
	if _, err := FitBT(2, []Game{{A: 0, B: 1, ScoreA: 1}}, Options{Level: 0.999}); err != nil {
		t.Errorf("level 0.999 refused: %v", err)
	}
	for _, g := range []Game{{A: 2, B: 0, ScoreA: 1}, {A: 0, B: 2, ScoreA: 1}, {A: -1, B: 0}, {A: 0, B: -1}} {
		if _, err := FitBT(2, []Game{g}, Options{}); err == nil {
			t.Errorf("game %+v between 2 agents accepted", g)
		}
	}
	if _, err := Bootstrap(2, []Game{{A: 0, B: 1, ScoreA: 1}}, Options{}, 1, 1); err == nil {
		t.Error("one bootstrap resample accepted")
	}
	if _, err := FitBT(2, nil, Options{NoPrior: true}); !errors.Is(err, ErrNoMLE) {
		t.Errorf("no games without a prior: %v, want ErrNoMLE", err)
	}
}

// With two resamples the bootstrap's error and interval are fixed by the
// two resampled ratings x0 < x1: SE = (x1-x0)/√2 (sample deviation), and
// the type-7 quantiles put Lo and Hi at 2.5% and 97.5% of the way from x0
// to x1, so Hi-Lo = 0.95 (x1-x0), centred on their mean.
func TestBootstrapTwoResamples(t *testing.T) {
	games := asymmetric()
	var rs []Rating
	for seed := uint64(1); seed < 50; seed++ {
		var err error
		rs, err = Bootstrap(3, games, Options{}, 2, seed)
		if err != nil {
			t.Fatal(err)
		}
		if rs[0].Hi-rs[0].Lo > 1 {
			break // two resamples that differ
		}
	}
	full, _ := FitBT(3, games, Options{})
	for i, r := range rs {
		spread := (r.Hi - r.Lo) / 0.95
		if spread <= 0 {
			t.Fatalf("agent %d: two equal resamples for every seed tried", i)
		}
		if math.Abs(r.SE-spread/math.Sqrt2) > 1e-6 {
			t.Errorf("agent %d: SE %.6f, want (x1-x0)/√2 = %.6f", i, r.SE, spread/math.Sqrt2)
		}
		if r.Elo != full.Ratings[i].Elo {
			t.Errorf("agent %d: Elo %v, want the full fit's %v", i, r.Elo, full.Ratings[i].Elo)
		}
	}
}
