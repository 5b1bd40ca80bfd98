package ratings

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
)

// Bootstrap computes percentile bootstrap intervals for the FitBT ratings.
// Each of the resamples draws len(games) games with replacement and refits
// the model with the same options and anchoring. The returned Elo is the
// FitBT estimate on the full data, SE the standard deviation of the
// resampled ratings, and [Lo, Hi] their (1∓Level)/2 quantiles.
//
// Resample b uses the PCG stream (seed, b), so the result depends only on
// the inputs and seed, not on how resamples are spread over goroutines.
// With NoPrior a resample whose MLE does not exist makes Bootstrap fail
// with an error wrapping ErrNoMLE.
func Bootstrap(n int, games []Game, opt Options, resamples int, seed uint64) ([]Rating, error) {
	if resamples < 2 {
		return nil, fmt.Errorf("ratings: need at least 2 bootstrap resamples, got %d", resamples)
	}
	full, err := FitBT(n, games, opt)
	if err != nil {
		return nil, err
	}
	opt, _ = opt.resolve(n) // already validated by FitBT

	reps := make([]float64, resamples*n) // reps[b*n+i]: agent i in resample b
	workers := min(runtime.GOMAXPROCS(0), resamples)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for wk := range workers {
		wg.Go(func() {
			tab := newTabulator(n)
			ws := newWorkspace(n)
			p := &problem{n: n, prior: opt.Prior}
			for b := wk; b < resamples; b += workers {
				rng := rand.New(rand.NewPCG(seed, uint64(b)))
				tab.reset()
				for range games {
					tab.add(games[rng.IntN(len(games))])
				}
				p.pairs = tab.pairs(p.pairs[:0])
				if p.prior == 0 && !p.stronglyConnected() {
					errs[wk] = fmt.Errorf("ratings: bootstrap resample %d: %w", b, ErrNoMLE)
					return
				}
				ws.maximise(p, opt)
				for i, t := range gauge(ws.theta, opt) {
					reps[b*n+i] = eloPerNat * t
				}
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}

	out := make([]Rating, n)
	col := make([]float64, resamples)
	for i := range n {
		for b := range resamples {
			col[b] = reps[b*n+i]
		}
		slices.Sort(col)
		m := mean(col)
		var ss float64
		for _, v := range col {
			ss += (v - m) * (v - m)
		}
		out[i] = Rating{
			Elo: full.Ratings[i].Elo,
			SE:  math.Sqrt(ss / float64(resamples-1)),
			Lo:  quantile(col, (1-opt.Level)/2),
			Hi:  quantile(col, (1+opt.Level)/2),
		}
	}
	return out, nil
}

// quantile interpolates linearly between order statistics of sorted x
// (the common "type 7" definition).
func quantile(x []float64, q float64) float64 {
	h := q * float64(len(x)-1)
	lo := int(math.Floor(h))
	if lo >= len(x)-1 {
		return x[len(x)-1]
	}
	return x[lo] + (h-float64(lo))*(x[lo+1]-x[lo])
}
