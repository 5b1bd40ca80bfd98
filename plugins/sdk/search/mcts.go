package search

import (
	"context"
	"math"
	"math/rand/v2"
	"sync"
	"time"

	"arena/engine"
)

// Policy picks the next move of a playout. buf is scratch space the policy
// may reuse; it returns false when st has no legal move.
type Policy func(st engine.State, rng *rand.Rand, buf []engine.Move) (engine.Move, []engine.Move, bool)

// RandomPolicy plays the state's own random-move shortcut where it has one
// (engine.RandomMover), else a uniformly random legal move.
func RandomPolicy(st engine.State, rng *rand.Rand, buf []engine.Move) (engine.Move, []engine.Move, bool) {
	return engine.SubstituteMove(st, rng, buf)
}

// UniformPolicy plays a uniformly random legal move.
func UniformPolicy(st engine.State, rng *rand.Rand, buf []engine.Move) (engine.Move, []engine.Move, bool) {
	return engine.RandomLegal(st, rng, buf)
}

// MCTS is Monte-Carlo tree search with UCT selection. Keep the value
// between moves of one game: when the new position is in the last search's
// tree (the opponent's reply was explored), that subtree is reused.
type MCTS struct {
	// C is the exploration constant of UCT (0: √2). Rewards are in [0, 1].
	C float64
	// Solver proves wins and losses: a node whose value is known is never
	// explored again, and a proven win is played at once.
	Solver bool
	// Policy plays the playouts (nil: RandomPolicy).
	Policy Policy
	// PlayoutDepth, when positive, stops playouts after that many moves
	// and scores the position with PlayoutEval.
	PlayoutDepth int
	// PlayoutEval gives the reward in [0, 1] for seat 0 of a position where
	// a playout stopped early (nil: 0.5).
	PlayoutEval func(st engine.State) float64
	// Threads runs that many independent trees (root parallelisation) and
	// adds up their root statistics. Use more than one only where wall time
	// is what counts.
	Threads int
	// MaxNodes caps each tree (0: 1<<20 nodes, roughly 80 MiB); at the cap
	// the tree stops growing and playouts continue from its leaves.
	MaxNodes int
	// Seed seeds the searcher's generators.
	Seed uint64
	// NoReuse starts every search from a fresh tree.
	NoReuse bool

	trees []*tree
	calls uint64
}

type node struct {
	move     engine.Move
	mover    int8 // the seat that played move; -1 at a root
	solved   bool
	value    int8 // when solved: +1 win, 0 draw, -1 loss, for mover
	terminal bool
	expanded bool
	visits   float64
	reward   float64 // the sum of mover's rewards
	children []*node
}

type tree struct {
	root      *node
	rootState engine.State
	nodes     int
	rng       *rand.Rand
	cur       engine.State
	copier    bool
	buf       []engine.Move
	path      []*node
}

// Search runs playouts from st until the limits stop it and returns the
// most visited move (a proven win at once).
func (m *MCTS) Search(ctx context.Context, st engine.State, lim Limits) Result {
	start := time.Now()
	if st.Terminal() {
		return Result{}
	}
	threads := max(m.Threads, 1)
	m.calls++
	for len(m.trees) < threads {
		i := uint64(len(m.trees))
		m.trees = append(m.trees, &tree{rng: rand.New(rand.NewPCG(m.Seed+i*0x9e3779b97f4a7c15, m.Seed^0x5bd1e995+i))})
	}
	m.trees = m.trees[:threads]
	clk := newClock(ctx, lim)
	var wg sync.WaitGroup
	counts := make([]int64, threads)
	for i, t := range m.trees {
		t.reroot(st, m)
		if len(t.root.children) == 1 {
			counts[i] = 0
			continue
		}
		wg.Add(1)
		go func(i int, t *tree) {
			defer wg.Done()
			counts[i] = t.run(m, clk, lim.MaxNodes/int64(threads))
		}(i, t)
	}
	wg.Wait()
	res := m.pick()
	for _, c := range counts {
		res.Nodes += c
	}
	res.Elapsed = time.Since(start)
	return res
}

// reroot finds st in the last tree (at most four plies below its root) or
// starts a new one.
func (t *tree) reroot(st engine.State, m *MCTS) {
	if !m.NoReuse && t.root != nil && t.rootState != nil {
		if n := t.find(st); n != nil {
			t.root = n
			t.root.mover = -1
			t.rootState = st.Clone()
			t.nodes = count(n)
			t.expand(t.root, t.rootState, m)
			return
		}
	}
	t.rootState = st.Clone()
	t.root = &node{mover: -1}
	t.nodes = 1
	_, t.copier = st.(engine.Copier)
	t.cur = st.Clone()
	t.expand(t.root, t.rootState, m)
}

func (t *tree) find(st engine.State) *node {
	h, ply := st.Hash(), st.Ply()
	var walk func(n *node, s engine.State, depth int) *node
	walk = func(n *node, s engine.State, depth int) *node {
		if s.Ply() == ply {
			if s.Hash() == h && s.Text() == st.Text() {
				return n
			}
			return nil
		}
		if depth == 0 || s.Ply() > ply {
			return nil
		}
		for _, c := range n.children {
			if c.visits == 0 {
				continue
			}
			cs := s.Clone()
			cs.Apply(c.move)
			if r := walk(c, cs, depth-1); r != nil {
				return r
			}
		}
		return nil
	}
	return walk(t.root, t.rootState, 4)
}

func count(n *node) int {
	c := 1
	for _, ch := range n.children {
		c += count(ch)
	}
	return c
}

func (t *tree) expand(n *node, s engine.State, m *MCTS) {
	if n.expanded || n.terminal {
		return
	}
	if s.Terminal() {
		n.terminal = true
		return
	}
	t.buf = s.LegalMoves(t.buf[:0])
	mover := int8(s.ToMove())
	n.children = make([]*node, len(t.buf))
	block := make([]node, len(t.buf))
	for i, mv := range t.buf {
		block[i] = node{move: mv, mover: mover}
		n.children[i] = &block[i]
	}
	// Unvisited children are tried in a random order.
	t.rng.Shuffle(len(n.children), func(i, j int) { n.children[i], n.children[j] = n.children[j], n.children[i] })
	n.expanded = true
	t.nodes += len(n.children)
}

func (t *tree) run(m *MCTS, clk *clock, maxPlayouts int64) int64 {
	c := m.C
	if c <= 0 {
		c = math.Sqrt2
	}
	maxNodes := m.MaxNodes
	if maxNodes <= 0 {
		maxNodes = 1 << 20
	}
	policy := m.Policy
	if policy == nil {
		policy = RandomPolicy
	}
	var done int64
	for {
		if done&7 == 0 && clk.expired() {
			break
		}
		if maxPlayouts > 0 && done >= maxPlayouts {
			break
		}
		if m.Solver && t.root.solved {
			break
		}
		t.iterate(m, c, maxNodes, policy)
		done++
	}
	return done
}

func (t *tree) load(src engine.State) {
	if t.copier {
		t.cur.(engine.Copier).CopyFrom(src)
	} else {
		t.cur = src.Clone()
	}
}

func (t *tree) iterate(m *MCTS, c float64, maxNodes int, policy Policy) {
	t.load(t.rootState)
	cur := t.cur
	n := t.root
	path := append(t.path[:0], n)
	for !n.terminal {
		if !n.expanded {
			if t.nodes >= maxNodes {
				break
			}
			t.expand(n, cur, m)
			if n.terminal {
				break
			}
		}
		ch := t.selectChild(n, c, m.Solver)
		cur.Apply(ch.move)
		path = append(path, ch)
		n = ch
		if ch.visits == 0 {
			if cur.Terminal() {
				ch.terminal = true
			}
			break
		}
	}
	var r0 float64 // reward for seat 0
	if n.terminal {
		r0 = reward0(cur.Result())
		if m.Solver && !n.solved && n.mover >= 0 {
			n.solved = true
			switch {
			case r0 == 0.5:
				n.value = 0
			case (r0 == 1) == (n.mover == 0):
				n.value = 1
			default:
				n.value = -1
			}
		}
	} else {
		r0 = t.playout(cur, m, policy)
	}
	for i := len(path) - 1; i >= 0; i-- {
		p := path[i]
		p.visits++
		switch p.mover {
		case 0:
			p.reward += r0
		case 1:
			p.reward += 1 - r0
		}
		if m.Solver && i < len(path)-1 {
			prove(p)
		}
	}
	t.path = path
}

func reward0(r engine.Result) float64 {
	switch {
	case r.Draw || r.Winner == engine.NoSeat:
		return 0.5
	case r.Winner == 0:
		return 1
	}
	return 0
}

func (t *tree) playout(cur engine.State, m *MCTS, policy Policy) float64 {
	for k := 0; !cur.Terminal(); k++ {
		if m.PlayoutDepth > 0 && k >= m.PlayoutDepth {
			if m.PlayoutEval != nil {
				return m.PlayoutEval(cur)
			}
			return 0.5
		}
		var mv engine.Move
		var ok bool
		mv, t.buf, ok = policy(cur, t.rng, t.buf)
		if !ok {
			break
		}
		cur.Apply(mv)
	}
	return reward0(cur.Result())
}

// prove marks n solved when its children decide it: one child that wins
// for the player to move, or every child solved.
func prove(n *node) {
	if n.solved || !n.expanded || len(n.children) == 0 {
		return
	}
	toMove := n.children[0].mover
	best, all := int8(-2), true
	for _, c := range n.children {
		if !c.solved {
			all = false
			continue
		}
		best = max(best, c.value)
	}
	if best < 1 && !all {
		return
	}
	n.solved = true
	n.value = best
	if n.mover != toMove {
		n.value = -best
	}
}

func (t *tree) selectChild(n *node, c float64, solver bool) *node {
	var best *node
	bestV := math.Inf(-1)
	logN := math.Log(max(n.visits, 1))
	for _, ch := range n.children {
		var v float64
		switch {
		case solver && ch.solved && ch.value == 1:
			return ch
		case solver && ch.solved && ch.value == -1:
			v = -1e9 + ch.visits // only when nothing else is left
		case ch.visits == 0:
			return ch
		default:
			v = ch.reward/ch.visits + c*math.Sqrt(logN/ch.visits)
		}
		if v > bestV {
			best, bestV = ch, v
		}
	}
	return best
}

// pick adds up the trees' root children by move and chooses.
func (m *MCTS) pick() Result {
	type agg struct {
		visits, reward float64
		win, loss      bool
	}
	byMove := map[engine.Move]*agg{}
	var order []engine.Move
	for _, t := range m.trees {
		for _, c := range t.root.children {
			a := byMove[c.move]
			if a == nil {
				a = &agg{}
				byMove[c.move] = a
				order = append(order, c.move)
			}
			a.visits += c.visits
			a.reward += c.reward
			if c.solved && c.value == 1 {
				a.win = true
			}
			if c.solved && c.value == -1 {
				a.loss = true
			}
		}
	}
	if len(order) == 0 {
		return Result{}
	}
	var res Result
	bestScore := math.Inf(-1)
	for _, mv := range order {
		a := byMove[mv]
		s := a.visits
		switch {
		case a.win:
			s = math.Inf(1)
		case a.loss:
			s = -1e18 + a.visits
		}
		if s > bestScore {
			bestScore = s
			res = Result{Move: mv, OK: true}
			if a.visits > 0 {
				res.Value = a.reward / a.visits
			}
			if a.win {
				res.Value, res.Exact = 1, true
			}
			if a.loss && s < 0 {
				res.Value, res.Exact = 0, true
			}
		}
	}
	return res
}
