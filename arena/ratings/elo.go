package ratings

import (
	"fmt"
	"math"
)

// EloFromScore is the Elo difference whose expected score is s:
// -400·log10(1/s - 1). It is -Inf at 0, +Inf at 1 and NaN outside [0, 1].
func EloFromScore(s float64) float64 {
	return -400 * math.Log10(1/s-1)
}

// ScoreFromElo is the expected score of a player rated e Elo above the
// opponent: 1/(1 + 10^(-e/400)).
func ScoreFromElo(e float64) float64 {
	return 1 / (1 + math.Pow(10, -e/400))
}

// zValue is the two-sided standard-normal quantile for a confidence level.
func zValue(level float64) float64 {
	return math.Sqrt2 * math.Erfinv(level)
}

// WDL counts the wins, draws and losses of one player in a match (all
// counts non-negative).
type WDL struct{ W, D, L int }

// N is the number of games.
func (w WDL) N() int { return w.W + w.D + w.L }

// Score is the mean score per game, (W + D/2)/N; NaN for no games.
func (w WDL) Score() float64 {
	s, _ := w.meanVar()
	return s
}

// Var is the per-game variance of the score under the trinomial model
// (outcome frequencies estimated from the counts).
func (w WDL) Var() float64 {
	_, v := w.meanVar()
	return v
}

func (w WDL) meanVar() (mean, variance float64) {
	return meanVar(w.counts())
}

// counts orders the outcomes worst to best.
func (w WDL) counts() []float64 {
	return []float64{float64(w.L), float64(w.D), float64(w.W)}
}

// Elo is the Elo estimate and its 95% interval (see EloLevel).
func (w WDL) Elo() (est, lo, hi float64) { return w.EloLevel(DefaultLevel) }

// EloLevel is the Elo estimate with a two-sided interval at the given
// confidence level: the normal interval on the mean score, with standard
// error sqrt(Var/N), mapped to Elo. Bounds may be ±Inf when the interval
// reaches a score of 0 or 1; all results are NaN for an empty match.
func (w WDL) EloLevel(level float64) (est, lo, hi float64) {
	m, v := w.meanVar()
	return scoreInterval(m, v, float64(w.N()), level)
}

// Pair-score bins of a Penta: the index is the number of half points the
// player scored in a colour-swapped pair of games.
const (
	PairLL = iota // 0 points: two losses
	PairLD        // 0.5: a loss and a draw
	PairDD        // 1: two draws, or a win and a loss
	PairWD        // 1.5: a win and a draw
	PairWW        // 2: two wins
)

// Penta counts colour-swapped game pairs by the player's total score in the
// pair; index k means k half points (see PairLL … PairWW).
type Penta [5]int

// Add records one pair from the player's scores in its two games, each of
// which must be 0, 0.5 or 1.
func (p *Penta) Add(first, second float64) error {
	for _, s := range [2]float64{first, second} {
		if s != 0 && s != 0.5 && s != 1 {
			return fmt.Errorf("ratings: game score %v is not 0, 0.5 or 1", s)
		}
	}
	p[int(2*(first+second))]++
	return nil
}

// N is the number of pairs.
func (p Penta) N() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// Mean is the mean pair score in points, in [0, 2]; NaN for no pairs.
func (p Penta) Mean() float64 {
	m, _ := p.meanVar()
	return 2 * m
}

// Var is the variance of the pair score in points² (divisor N, the
// pentanomial maximum-likelihood estimate).
func (p Penta) Var() float64 {
	_, v := p.meanVar()
	return 4 * v
}

// Score is the mean score per game, Mean/2.
func (p Penta) Score() float64 {
	m, _ := p.meanVar()
	return m
}

// meanVar works on the pair score normalised to a per-game score in [0,1].
func (p Penta) meanVar() (mean, variance float64) {
	return meanVar(p.counts())
}

func (p Penta) counts() []float64 {
	c := make([]float64, 5)
	for k, v := range p {
		c[k] = float64(v)
	}
	return c
}

// Elo is the Elo estimate and its 95% interval (see EloLevel).
func (p Penta) Elo() (est, lo, hi float64) { return p.EloLevel(DefaultLevel) }

// EloLevel is the Elo estimate with a two-sided interval at the given level:
// the normal interval on the mean per-game score with the pentanomial
// standard error sqrt(var/N) over N pairs, mapped to Elo.
func (p Penta) EloLevel(level float64) (est, lo, hi float64) {
	m, v := p.meanVar()
	return scoreInterval(m, v, float64(p.N()), level)
}

// outcomeValue is the per-game score of outcome bin k of K bins ordered
// worst to best and evenly spaced: L/D/W (K=3) or pair scores (K=5).
func outcomeValue(k, K int) float64 { return float64(k) / float64(K-1) }

func meanVar(counts []float64) (mean, variance float64) {
	var n float64
	for k, c := range counts {
		n += c
		mean += c * outcomeValue(k, len(counts))
	}
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	mean /= n
	for k, c := range counts {
		d := outcomeValue(k, len(counts)) - mean
		variance += c * d * d
	}
	return mean, variance / n
}

func scoreInterval(mean, variance, n, level float64) (est, lo, hi float64) {
	if n == 0 {
		return math.NaN(), math.NaN(), math.NaN()
	}
	half := zValue(level) * math.Sqrt(variance/n)
	return EloFromScore(mean),
		EloFromScore(math.Max(0, mean-half)),
		EloFromScore(math.Min(1, mean+half))
}
