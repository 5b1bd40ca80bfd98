package dotsboxes

import (
	"math/bits"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// components splits a chain position (no safe line, nothing to capture)
// into its chains and loops, by length. ok is false when some box has
// fewer than two sides drawn: then the pieces branch, and the simple
// chain arithmetic does not apply.
func (p *pos) components() (chains, loops []int, ok bool) {
	g := p.g
	seen := make([]bool, len(g.boxLines))
	for b := range g.boxLines {
		s := p.sides(b)
		if s == 4 {
			seen[b] = true
			continue
		}
		if s != 2 {
			return nil, nil, false
		}
	}
	for b := range g.boxLines {
		if seen[b] {
			continue
		}
		size, ground := 0, 0
		stack := []int{b}
		seen[b] = true
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			size++
			for free := g.boxLines[x] &^ p.drawn; free != 0; free &= free - 1 {
				l := bits.TrailingZeros64(free)
				nb := g.lineBoxes[l]
				if len(nb) == 1 {
					ground++
					continue
				}
				for _, y := range nb {
					if y != x && !seen[y] {
						seen[y] = true
						stack = append(stack, y)
					}
				}
			}
		}
		if ground > 0 {
			chains = append(chains, size)
		} else {
			loops = append(loops, size)
		}
	}
	return chains, loops, true
}

// chainSolver values chain positions exactly: the player to move must
// open a chain or a loop; the opponent then takes it all and moves on, or
// takes all but two boxes of a chain (four of a loop) and hands them back
// with a double-cross, keeping control. Chains of one or two boxes are
// opened so that no double-cross is possible.
type chainSolver struct {
	mu   sync.Mutex
	memo map[string]float64
}

func newChainSolver() *chainSolver { return &chainSolver{memo: map[string]float64{}} }

func key(chains, loops []int) string {
	var b strings.Builder
	for _, c := range chains {
		b.WriteString(strconv.Itoa(c))
		b.WriteByte(',')
	}
	b.WriteByte('|')
	for _, l := range loops {
		b.WriteString(strconv.Itoa(l))
		b.WriteByte(',')
	}
	return b.String()
}

// value is the net boxes the player to move gets from the rest.
func (cs *chainSolver) value(chains, loops []int) float64 {
	sort.Ints(chains)
	sort.Ints(loops)
	return cs.solve(chains, loops)
}

func (cs *chainSolver) solve(chains, loops []int) float64 {
	if len(chains) == 0 && len(loops) == 0 {
		return 0
	}
	k := key(chains, loops)
	cs.mu.Lock()
	v, ok := cs.memo[k]
	cs.mu.Unlock()
	if ok {
		return v
	}
	best := -1e9
	for i, c := range chains {
		if i > 0 && chains[i-1] == c {
			continue
		}
		rest := append(append([]int{}, chains[:i]...), chains[i+1:]...)
		r := cs.solve(rest, loops)
		var val float64
		switch {
		case c <= 2:
			val = -float64(c) - r
		default:
			val = min(-float64(c)-r, r+4-float64(c))
		}
		best = max(best, val)
	}
	for i, l := range loops {
		if i > 0 && loops[i-1] == l {
			continue
		}
		rest := append(append([]int{}, loops[:i]...), loops[i+1:]...)
		r := cs.solve(chains, rest)
		best = max(best, min(-float64(l)-r, r+8-float64(l)))
	}
	cs.mu.Lock()
	cs.memo[k] = best
	cs.mu.Unlock()
	return best
}
