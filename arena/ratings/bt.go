package ratings

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// eloPerNat converts a difference in natural-log odds into Elo: 400 Elo is
// a factor 10 in odds.
const eloPerNat = 400 / math.Ln10

// Defaults used when the corresponding Options field is zero.
const (
	DefaultPrior   = 2.0  // virtual drawn games per agent against the field mean
	DefaultLevel   = 0.95 // confidence level of intervals
	DefaultTol     = 1e-6 // Elo; Newton stops when no rating moves more
	DefaultMaxIter = 100  // Newton iterations
)

// ErrNoMLE reports that the maximum-likelihood ratings are not finite: some
// group of agents never lost, or never won, against the others (which
// includes disconnected groups). It only occurs with Options.NoPrior.
var ErrNoMLE = errors.New("ratings: maximum-likelihood ratings do not exist " +
	"(some agents never lost or never won against the rest); use the prior")

// Game is one result between agents A and B (indices in [0, n)). ScoreA is
// A's score: 1 win, 0.5 draw, 0 loss; any value in [0, 1] is accepted and
// read as that fraction of a win.
type Game struct {
	A, B   int
	ScoreA float64
}

// Rating is one agent's fitted rating: the estimate, its standard error and
// a two-sided interval [Lo, Hi], all in Elo.
type Rating struct{ Elo, SE, Lo, Hi float64 }

// Anchor pins one agent's rating to a value.
type Anchor struct {
	Agent int
	Elo   float64
}

// Options configure FitBT and Bootstrap. The zero value gives mean-zero
// ratings with the default prior and 95% intervals.
type Options struct {
	// Anchor pins one agent's rating; nil makes the mean rating MeanElo.
	Anchor  *Anchor
	MeanElo float64

	// Prior is the number of virtual games, all draws, each agent plays
	// against an opponent rated at the field mean; 0 means DefaultPrior.
	// NoPrior fits the plain MLE instead (see ErrNoMLE).
	Prior   float64
	NoPrior bool

	Level   float64 // confidence level of intervals; 0 means DefaultLevel
	Tol     float64 // convergence tolerance in Elo; 0 means DefaultTol
	MaxIter int     // Newton iteration limit; 0 means DefaultMaxIter
}

func (o Options) resolve(n int) (Options, error) {
	if o.Anchor != nil && (o.Anchor.Agent < 0 || o.Anchor.Agent >= n) {
		return o, fmt.Errorf("ratings: anchor agent %d out of range [0,%d)", o.Anchor.Agent, n)
	}
	switch {
	case o.NoPrior:
		o.Prior = 0
	case o.Prior == 0:
		o.Prior = DefaultPrior
	case !(o.Prior > 0) || math.IsInf(o.Prior, 1):
		return o, fmt.Errorf("ratings: prior %v must be positive and finite", o.Prior)
	}
	if o.Level == 0 {
		o.Level = DefaultLevel
	}
	if !(o.Level > 0 && o.Level < 1) {
		return o, fmt.Errorf("ratings: level %v not in (0,1)", o.Level)
	}
	if o.Tol == 0 {
		o.Tol = DefaultTol
	}
	if !(o.Tol > 0) {
		return o, fmt.Errorf("ratings: tolerance %v must be positive", o.Tol)
	}
	if o.MaxIter == 0 {
		o.MaxIter = DefaultMaxIter
	}
	if o.MaxIter < 0 {
		return o, fmt.Errorf("ratings: max iterations %d must be positive", o.MaxIter)
	}
	return o, nil
}

// Fit is the result of FitBT.
type Fit struct {
	Ratings    []Rating // indexed by agent
	Iterations int      // Newton iterations used
	Converged  bool     // the last step moved no rating by more than Tol
	LogLik     float64  // log-likelihood of the games (prior excluded)

	// Group labels the connected components of the graph of games played,
	// numbered 0, 1, … in order of their lowest agent. Ratings in different
	// groups are related only through the prior.
	Group  []int
	Groups int

	cov []float64 // n×n covariance in Elo², in the chosen gauge
}

// Cov is the covariance of the ratings of agents i and j in Elo².
func (f Fit) Cov(i, j int) float64 { return f.cov[i*len(f.Ratings)+j] }

// Diff is the rating difference Elo_i - Elo_j and its standard error, which
// does not depend on the anchoring.
func (f Fit) Diff(i, j int) (est, se float64) {
	v := f.Cov(i, i) + f.Cov(j, j) - 2*f.Cov(i, j)
	return f.Ratings[i].Elo - f.Ratings[j].Elo, math.Sqrt(math.Max(v, 0))
}

// FitBT fits Bradley–Terry (logistic Elo) ratings to games between n agents
// and returns ratings with standard errors and Wald intervals from the
// observed information. See the package documentation for the model.
func FitBT(n int, games []Game, opt Options) (Fit, error) {
	if n < 1 {
		return Fit{}, fmt.Errorf("ratings: need at least one agent, got %d", n)
	}
	opt, err := opt.resolve(n)
	if err != nil {
		return Fit{}, err
	}
	if err := checkGames(n, games); err != nil {
		return Fit{}, err
	}
	tab := newTabulator(n)
	for _, g := range games {
		tab.add(g)
	}
	return fitTabulated(n, tab, opt)
}

// Totals are the games agent A played against B and A's points in them:
// all a Bradley–Terry fit needs of those games.
type Totals struct {
	A, B           int
	Games, PointsA float64
}

// FitBTTotals is FitBT over games given as totals per pair of agents, so
// a caller that counts games as they come holds one entry per pair, not
// per game. Totals of the same pair in either order add up.
func FitBTTotals(n int, totals []Totals, opt Options) (Fit, error) {
	if n < 1 {
		return Fit{}, fmt.Errorf("ratings: need at least one agent, got %d", n)
	}
	opt, err := opt.resolve(n)
	if err != nil {
		return Fit{}, err
	}
	tab := newTabulator(n)
	for k, t := range totals {
		switch {
		case t.A < 0 || t.A >= n || t.B < 0 || t.B >= n:
			return Fit{}, fmt.Errorf("ratings: totals %d: agents %d, %d not in [0,%d)", k, t.A, t.B, n)
		case t.A == t.B:
			return Fit{}, fmt.Errorf("ratings: totals %d: agent %d plays itself", k, t.A)
		case !(t.Games >= 0 && t.PointsA >= 0 && t.PointsA <= t.Games):
			return Fit{}, fmt.Errorf("ratings: totals %d: %v points in %v games", k, t.PointsA, t.Games)
		}
		tab.addTotals(t)
	}
	return fitTabulated(n, tab, opt)
}

// fitTabulated fits the games tab holds; opt is resolved.
func fitTabulated(n int, tab *tabulator, opt Options) (Fit, error) {
	p := &problem{n: n, pairs: tab.pairs(nil), prior: opt.Prior}
	if p.prior == 0 && !p.stronglyConnected() {
		return Fit{}, ErrNoMLE
	}
	ws := newWorkspace(n)
	iters, converged := ws.maximise(p, opt)

	f := Fit{
		Ratings:    make([]Rating, n),
		Iterations: iters,
		Converged:  converged,
		LogLik:     p.logLik(ws.theta),
	}
	f.Group, f.Groups = p.components()
	theta := gauge(ws.theta, opt)
	var ok bool
	if f.cov, ok = ws.covariance(p); ok {
		gaugeCov(f.cov, n, opt)
	} else {
		for i := range f.cov {
			f.cov[i] = math.Inf(1)
		}
	}
	z := zValue(opt.Level)
	for i := range f.cov {
		f.cov[i] *= eloPerNat * eloPerNat
	}
	for i := range n {
		se := math.Sqrt(math.Max(f.Cov(i, i), 0))
		e := eloPerNat * theta[i]
		f.Ratings[i] = Rating{Elo: e, SE: se, Lo: e - z*se, Hi: e + z*se}
	}
	return f, nil
}

func checkGames(n int, games []Game) error {
	for k, g := range games {
		if g.A < 0 || g.A >= n || g.B < 0 || g.B >= n {
			return fmt.Errorf("ratings: game %d: agents %d, %d not in [0,%d)", k, g.A, g.B, n)
		}
		if g.A == g.B {
			return fmt.Errorf("ratings: game %d: agent %d plays itself", k, g.A)
		}
		if !(g.ScoreA >= 0 && g.ScoreA <= 1) {
			return fmt.Errorf("ratings: game %d: score %v not in [0,1]", k, g.ScoreA)
		}
	}
	return nil
}

// gauge shifts strengths (natural units) to the chosen anchoring.
func gauge(theta []float64, opt Options) []float64 {
	var shift float64
	if opt.Anchor != nil {
		shift = opt.Anchor.Elo/eloPerNat - theta[opt.Anchor.Agent]
	} else {
		var m float64
		for _, t := range theta {
			m += t
		}
		shift = opt.MeanElo/eloPerNat - m/float64(len(theta))
	}
	out := make([]float64, len(theta))
	for i, t := range theta {
		out[i] = t + shift
	}
	return out
}

// gaugeCov maps, in place, a covariance of strengths to the covariance of
// the gauged strengths θ' = Gθ, i.e. G·C·Gᵀ: for an anchor a,
// θ'_i = θ_i - θ_a; for the mean gauge, θ'_i = θ_i - mean(θ).
func gaugeCov(c []float64, n int, opt Options) {
	if opt.Anchor != nil {
		a := opt.Anchor.Agent
		col := make([]float64, n)
		for i := range n {
			col[i] = c[i*n+a]
		}
		caa := c[a*n+a]
		for i := range n {
			for j := range n {
				c[i*n+j] += caa - col[i] - col[j]
			}
		}
		return
	}
	row := make([]float64, n)
	var tot float64
	for i := range n {
		for j := range n {
			row[i] += c[i*n+j]
		}
		tot += row[i]
		row[i] /= float64(n)
	}
	tot /= float64(n * n)
	for i := range n {
		for j := range n {
			c[i*n+j] += tot - row[i] - row[j]
		}
	}
}

// tabulator accumulates games into dense per-pair totals; i < j is stored.
type tabulator struct {
	n            int
	games, score []float64
}

func newTabulator(n int) *tabulator {
	return &tabulator{n: n, games: make([]float64, n*n), score: make([]float64, n*n)}
}

func (t *tabulator) reset() {
	clear(t.games)
	clear(t.score)
}

func (t *tabulator) add(g Game) {
	i, j, s := g.A, g.B, g.ScoreA
	if i > j {
		i, j, s = j, i, 1-s
	}
	t.games[i*t.n+j]++
	t.score[i*t.n+j] += s
}

func (t *tabulator) addTotals(x Totals) {
	i, j, s := x.A, x.B, x.PointsA
	if i > j {
		i, j, s = j, i, x.Games-s
	}
	t.games[i*t.n+j] += x.Games
	t.score[i*t.n+j] += s
}

func (t *tabulator) pairs(dst []pair) []pair {
	for i := range t.n {
		for j := i + 1; j < t.n; j++ {
			if g := t.games[i*t.n+j]; g > 0 {
				dst = append(dst, pair{i: i, j: j, n: g, s: t.score[i*t.n+j]})
			}
		}
	}
	return dst
}

// pair holds the n games between agents i < j, in which i scored s.
type pair struct {
	i, j int
	n, s float64
}

// problem is the penalised log-likelihood over strengths θ (natural units).
type problem struct {
	n     int
	pairs []pair
	prior float64 // virtual drawn games per agent against the mean; 0 for none
}

func logSigmoid(x float64) float64 {
	if x >= 0 {
		return -math.Log1p(math.Exp(-x))
	}
	return x - math.Log1p(math.Exp(x))
}

func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

func (p *problem) logLik(theta []float64) float64 {
	var f float64
	for _, q := range p.pairs {
		d := theta[q.i] - theta[q.j]
		f += q.s*logSigmoid(d) + (q.n-q.s)*logSigmoid(-d)
	}
	return f
}

// value is the objective: log-likelihood plus the prior, which scores each
// agent's offset d from the mean as Prior games of ½·log σ(d) + ½·log σ(-d).
func (p *problem) value(theta []float64) float64 {
	f := p.logLik(theta)
	if p.prior > 0 {
		m := mean(theta)
		for _, t := range theta {
			d := t - m
			f += p.prior * 0.5 * (logSigmoid(d) + logSigmoid(-d))
		}
	}
	return f
}

func mean(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// gradHess writes the gradient g of the objective and the negated Hessian h
// (n×n, positive semi-definite, with the all-ones vector in its null space).
func (p *problem) gradHess(theta, g, h, scratch []float64) {
	n := p.n
	clear(g)
	clear(h)
	for _, q := range p.pairs {
		pr := sigmoid(theta[q.i] - theta[q.j])
		r := q.s - q.n*pr
		g[q.i] += r
		g[q.j] -= r
		c := q.n * pr * (1 - pr)
		h[q.i*n+q.i] += c
		h[q.j*n+q.j] += c
		h[q.i*n+q.j] -= c
		h[q.j*n+q.i] -= c
	}
	if p.prior == 0 {
		return
	}
	// The prior term is Σ_k f(d_k) with d = θ - mean(θ), so by the chain
	// rule ∂/∂θ_l = f'(d_l) - mean(f') and the Hessian is
	// Σ_k f''(d_k)(e_k - 1/n)(e_k - 1/n)ᵀ.
	m := mean(theta)
	curv := scratch[:n]
	var meanSlope, sumCurv float64
	for k, t := range theta {
		s := sigmoid(t - m)
		slope := p.prior * (0.5 - s)
		g[k] += slope
		meanSlope += slope
		curv[k] = p.prior * s * (1 - s)
		sumCurv += curv[k]
	}
	meanSlope /= float64(n)
	nf := float64(n)
	for k := range n {
		g[k] -= meanSlope
		for l := range n {
			v := sumCurv/(nf*nf) - (curv[k]+curv[l])/nf
			if k == l {
				v += curv[k]
			}
			h[k*n+l] += v
		}
	}
}

// stronglyConnected reports whether the "scored points against" digraph is
// strongly connected, the condition for a finite MLE: otherwise some set of
// agents has all the points (or none) in its games with the rest.
func (p *problem) stronglyConnected() bool {
	n := p.n
	fwd := make([][]int, n)
	bwd := make([][]int, n)
	for _, q := range p.pairs {
		if q.s > 0 { // i scored against j
			fwd[q.i] = append(fwd[q.i], q.j)
			bwd[q.j] = append(bwd[q.j], q.i)
		}
		if q.s < q.n {
			fwd[q.j] = append(fwd[q.j], q.i)
			bwd[q.i] = append(bwd[q.i], q.j)
		}
	}
	return reachesAll(fwd) && reachesAll(bwd)
}

func reachesAll(adj [][]int) bool {
	seen := make([]bool, len(adj))
	stack := []int{0}
	seen[0] = true
	count := 1
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, w := range adj[v] {
			if !seen[w] {
				seen[w] = true
				count++
				stack = append(stack, w)
			}
		}
	}
	return count == len(adj)
}

// components labels the connected components of the graph of games played.
func (p *problem) components() ([]int, int) {
	parent := make([]int, p.n)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(x int) int {
		for parent[x] != x {
			parent[x] = parent[parent[x]]
			x = parent[x]
		}
		return x
	}
	for _, q := range p.pairs {
		a, b := find(q.i), find(q.j)
		if a != b {
			parent[max(a, b)] = min(a, b)
		}
	}
	label := make([]int, p.n)
	next := 0
	byRoot := make(map[int]int)
	for i := range p.n {
		r := find(i)
		l, ok := byRoot[r]
		if !ok {
			l = next
			next++
			byRoot[r] = l
		}
		label[i] = l
	}
	return label, next
}

// workspace holds the Newton iterate and buffers. Agent n-1 is held at
// θ = 0 throughout, which removes the shift direction and makes the
// reduced negated Hessian positive definite when the optimum is finite.
type workspace struct {
	n                        int
	theta, trial, g, step, s []float64
	h                        []float64
	red                      *mat.SymDense
	rhs, x                   *mat.VecDense
	chol                     mat.Cholesky
}

func newWorkspace(n int) *workspace {
	w := &workspace{
		n:     n,
		theta: make([]float64, n),
		trial: make([]float64, n),
		g:     make([]float64, n),
		step:  make([]float64, n),
		s:     make([]float64, n),
		h:     make([]float64, n*n),
	}
	if n > 1 {
		w.red = mat.NewSymDense(n-1, nil)
		w.rhs = mat.NewVecDense(n-1, nil)
		w.x = mat.NewVecDense(n-1, nil)
	}
	return w
}

// factorize loads the reduced negated Hessian plus damping·I and factors it.
func (w *workspace) factorize(damping float64) bool {
	m := w.n - 1
	for i := range m {
		for j := i; j < m; j++ {
			v := w.h[i*w.n+j]
			if i == j {
				v += damping
			}
			w.red.SetSym(i, j, v)
		}
	}
	return w.chol.Factorize(w.red)
}

// newtonStep solves for the Newton direction, adding Levenberg damping if
// the reduced Hessian is numerically singular (far from the optimum, where
// predicted probabilities saturate).
func (w *workspace) newtonStep() bool {
	m := w.n - 1
	var scale float64
	for i := range m {
		scale = max(scale, w.h[i*w.n+i])
	}
	damping := 0.0
	for !w.factorize(damping) {
		if damping == 0 {
			damping = 1e-10*scale + 1e-300
		} else {
			damping *= 10
		}
		if math.IsInf(damping, 1) || damping > 1e10*(scale+1) {
			return false
		}
	}
	for i := range m {
		w.rhs.SetVec(i, w.g[i])
	}
	if err := w.chol.SolveVecTo(w.x, w.rhs); err != nil {
		return false
	}
	for i := range m {
		w.step[i] = w.x.AtVec(i)
	}
	w.step[m] = 0
	return true
}

// maximise runs damped Newton from θ = 0 and leaves the optimum in w.theta.
func (w *workspace) maximise(p *problem, opt Options) (iters int, converged bool) {
	clear(w.theta)
	if w.n == 1 {
		return 0, true
	}
	f := p.value(w.theta)
	for iters < opt.MaxIter {
		iters++
		p.gradHess(w.theta, w.g, w.h, w.s)
		if !w.newtonStep() {
			return iters, false
		}
		var big, slope float64
		for i, d := range w.step {
			big = max(big, math.Abs(d))
			slope += w.g[i] * d
		}
		if big*eloPerNat < opt.Tol {
			// Within tolerance the full Newton step is reliable; take it
			// without a line search, whose comparisons would be at the
			// level of rounding error.
			for i, d := range w.step {
				w.theta[i] += d
			}
			return iters, true
		}
		// Backtracking (Armijo) line search; the objective is concave so
		// the Newton direction is an ascent direction.
		t, accepted := 1.0, false
		var ft float64
		for range 60 {
			for i, d := range w.step {
				w.trial[i] = w.theta[i] + t*d
			}
			ft = p.value(w.trial)
			if ft >= f+1e-4*t*slope {
				accepted = true
				break
			}
			t /= 2
		}
		if !accepted {
			return iters, false
		}
		w.theta, w.trial = w.trial, w.theta
		f = ft
	}
	return iters, false
}

// covariance inverts the reduced observed information at w.theta and pads
// it to n×n (zero row and column for the fixed agent n-1). It reports
// false if the information is numerically singular.
func (w *workspace) covariance(p *problem) ([]float64, bool) {
	n := w.n
	c := make([]float64, n*n)
	if n == 1 {
		return c, true
	}
	p.gradHess(w.theta, w.g, w.h, w.s)
	var inv mat.SymDense
	if !w.factorize(0) || w.chol.InverseTo(&inv) != nil {
		return c, false
	}
	for i := range n - 1 {
		for j := range n - 1 {
			c[i*n+j] = inv.At(i, j)
		}
	}
	return c, true
}
