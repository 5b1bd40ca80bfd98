package openings

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"arena/engine"
	"arena/plugins/sdk/search"
)

// Bounds of a generated suite: every candidate costs a search, and the
// league generates its suite again at every run.
const (
	MaxCount       = 1000
	MaxRandomPlies = 30
	MaxDepth       = 6
	DefaultDepth   = 3
	// candidatesPer is how many distinct candidates are drawn per opening
	// kept: the suite is the most balanced of them.
	candidatesPer = 3
	// walksPer bounds the random walks per opening kept, for games with few
	// distinct positions K plies in.
	walksPer = 20
	// searchNodes caps each balance search, so a game with many moves
	// costs the same as one with few and the result does not depend on
	// the machine's speed.
	searchNodes = 10_000
)

// Random says how to generate a suite.
type Random struct {
	Plies int    // random legal plies from the start
	Count int    // openings kept
	Seed  uint64 // the walks' seed
	Depth int    // the balance search's depth (0: DefaultDepth)
}

// Check refuses settings outside the documented bounds.
func (r Random) Check() error {
	switch {
	case r.Plies < 1 || r.Plies > MaxRandomPlies:
		return fmt.Errorf("plies %d: want 1 to %d", r.Plies, MaxRandomPlies)
	case r.Count < 1 || r.Count > MaxCount:
		return fmt.Errorf("count %d: want 1 to %d", r.Count, MaxCount)
	case r.Depth < 0 || r.Depth > MaxDepth:
		return fmt.Errorf("depth %d: want 0 (the default, %d) to %d", r.Depth, DefaultDepth, MaxDepth)
	}
	return nil
}

// candidate is one distinct position reached by a random walk.
type candidate struct {
	moves []string
	score float64 // |value| of the balance search: 0 is balanced
}

// Generate makes a suite by the rule docs/leagues.md states: random walks
// of r.Plies uniformly drawn legal moves from the start (seeded by
// r.Seed), each kept when it ends in a position that is not over and not
// seen before, until 3×r.Count candidates (or 20×r.Count walks); each
// candidate is scored by an alpha-beta search of r.Depth plies (at most
// 10,000 nodes) with the game's own evaluation (engine.Evaluator), and a
// position it proves won or lost is dropped; the r.Count candidates whose
// value is nearest 0 are the suite, in the order they were drawn. The
// same settings give the same suite on any machine.
func Generate(ctx context.Context, g engine.Game, params engine.Params, r Random) (*Suite, error) {
	if err := r.Check(); err != nil {
		return nil, err
	}
	if r.Depth == 0 {
		r.Depth = DefaultDepth
	}
	cands, err := walk(g, params, r)
	if err != nil {
		return nil, err
	}
	kept, err := score(ctx, g, params, cands, r.Depth)
	if err != nil {
		return nil, err
	}
	if len(kept) < r.Count {
		return nil, fmt.Errorf("%d plies in, only %d distinct undecided position(s) were found for %d opening(s): lower count or change plies", r.Plies, len(kept), r.Count)
	}
	order := make([]int, len(kept))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmpFloat(kept[a].score, kept[b].score) })
	order = order[:r.Count]
	slices.Sort(order)
	s := &Suite{Source: describe(r)}
	for _, i := range order {
		s.Openings = append(s.Openings, Opening{Moves: kept[i].moves})
	}
	return s, nil
}

// describe is a generated suite's source, as set-up lines name it.
func describe(r Random) string {
	return fmt.Sprintf("random plies=%d count=%d seed=%d depth=%d", r.Plies, r.Count, r.Seed, r.Depth)
}

// score keeps the undecided candidates with their balance scores, in
// their order. The searches are independent, so they run on every core
// the process may use, each its own search: the scores do not depend on
// how they were spread.
func score(ctx context.Context, g engine.Game, params engine.Params, cands []candidate, depth int) ([]candidate, error) {
	open := make([]bool, len(cands))
	errs := make([]error, len(cands))
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				cands[i].score, open[i], errs[i] = balance(ctx, g, params, cands[i].moves, depth)
			}
		}()
	}
	for i := range cands {
		next <- i
	}
	close(next)
	wg.Wait()
	kept := cands[:0]
	for i, c := range cands {
		if errs[i] != nil {
			return nil, errs[i]
		}
		if open[i] {
			kept = append(kept, c)
		}
	}
	return kept, nil
}

// balance scores the position after moves: the absolute value of a
// depth-plies alpha-beta search with the game's evaluation, 0 being
// balanced; open is false when the search proves the game won or lost.
func balance(ctx context.Context, g engine.Game, params engine.Params, moves []string, depth int) (score float64, open bool, err error) {
	if err := ctx.Err(); err != nil {
		return 0, false, err
	}
	st, err := g.NewState(params)
	if err != nil {
		return 0, false, err
	}
	if _, err := Play(st, moves); err != nil {
		return 0, false, fmt.Errorf("generated opening %q: %w", moves, err)
	}
	ab := search.AlphaBeta{NoTT: true}
	res := ab.Search(ctx, st, search.Limits{MaxDepth: depth, MaxNodes: searchNodes})
	if res.Exact && math.Abs(res.Value) >= search.Win/2 {
		return 0, false, nil // decided already: no contest to play
	}
	return math.Abs(res.Value), true, nil
}

// walk draws the distinct candidates.
func walk(g engine.Game, params engine.Params, r Random) ([]candidate, error) {
	rng := rand.New(rand.NewPCG(r.Seed, 0x6f70656e696e6773))
	seen := map[string]bool{}
	var cands []candidate
	var buf []engine.Move
	for w := 0; w < walksPer*r.Count && len(cands) < candidatesPer*r.Count; w++ {
		st, err := g.NewState(params)
		if err != nil {
			return nil, err
		}
		moves := make([]string, 0, r.Plies)
		for range r.Plies {
			if st.Terminal() {
				break
			}
			var m engine.Move
			var ok bool
			m, buf, ok = engine.RandomLegal(st, rng, buf)
			if !ok {
				break
			}
			moves = append(moves, st.FormatMove(m))
			st.Apply(m)
		}
		if len(moves) < r.Plies || st.Terminal() {
			continue
		}
		if key := positionKey(st); !seen[key] {
			seen[key] = true
			cands = append(cands, candidate{moves: moves})
		}
	}
	return cands, nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
