// Package ratings turns game results into Elo ratings, error bars and
// sequential test decisions. It is pure math: no I/O and no global state.
//
// # Elo scale
//
// A rating difference d (Elo) means an expected score
//
//	s = 1 / (1 + 10^(-d/400)),    d = -400 log10(1/s - 1),
//
// so 400 Elo is a factor 10 in win odds (EloFromScore, ScoreFromElo).
//
// # League ratings (Bradley–Terry)
//
// FitBT fits the Bradley–Terry model with logistic Elo link: agent i has
// strength θ_i and P(i beats j) = σ(θ_i - θ_j), σ the logistic function
// (Elo_i = 400/ln10 · θ_i). Draws count as half a win and half a loss: a
// game with score s for i contributes s·log σ(θ_i-θ_j) + (1-s)·log σ(θ_j-θ_i)
// to the log-likelihood. This is the model behind the usual "score
// percentage" Elo; it has no separate draw parameter, and because a draw is
// less variable than a coin flip the resulting standard errors are somewhat
// conservative when draws are common.
//
// Ratings are identified only up to an additive constant. The constant is
// fixed after the fit (the "gauge"): either the mean rating is MeanElo
// (default 0), or one Anchor agent has a given rating. Standard errors
// follow the gauge: with an anchor, each SE is the uncertainty of the
// agent's difference to the anchor and the anchor's own SE is 0.
//
// The maximum-likelihood estimate does not exist when some group of agents
// never lost (or never won) against the rest, e.g. an agent with all wins;
// it also cannot place disconnected groups relative to each other. By
// default each agent is therefore given Prior (2) virtual games, both
// draws, against a virtual opponent rated at the field mean. The penalty is
// shift-invariant, so it does not prefer any gauge; it is worth about two
// games of evidence per agent, pulls unbeaten agents to a finite rating,
// and places disconnected groups (see Fit.Group) around the common mean.
// With NoPrior the plain MLE is computed and FitBT returns ErrNoMLE when it
// does not exist.
//
// The fit maximises the (penalised) log-likelihood by Newton's method with
// a backtracking line search; the objective is concave, so this converges
// from the all-equal start. Standard errors come from the observed Fisher
// information (minus the Hessian of the penalised log-likelihood at the
// optimum): the Hessian is inverted with one agent's strength held fixed,
// which removes the shift direction, and the covariance is then mapped to
// the chosen gauge (mean-zero gives the Moore–Penrose pseudo-inverse).
// Intervals are Wald intervals Elo ± z·SE.
//
// Bootstrap gives percentile intervals instead: games are resampled with
// replacement and the model refitted; each resample draws from its own
// seeded PCG stream, so results do not depend on scheduling.
//
// # Two-player matches
//
// WDL and Penta summarise a match between two players. Their Elo methods
// return the score-based estimate and the usual error bar: a normal
// interval s ± z·sqrt(var/n) on the mean score per game (WDL, trinomial
// variance) or per colour-swapped pair (Penta, pentanomial variance of the
// pair score), mapped to Elo through EloFromScore. The pentanomial variance
// accounts for the correlation between the two games of a pair, which is
// usually positive for opening-book pairs and makes the interval narrower.
//
// # SPRT
//
// SPRT is the generalised sequential probability ratio test used for
// engine A/B testing: H0 is "Elo = Elo0", H1 "Elo = Elo1" in logistic Elo
// (expected score s0, s1). For the observed outcome frequencies p̂ over
// outcome values a (3 for W/D/L, 5 for pairs) the log-likelihood ratio is
//
//	LLR = N · Σ_k p̂_k · log(p1_k / p0_k)
//
// where p_j is the maximum-likelihood multinomial with expected score s_j.
// That constrained MLE is p_j,k = p̂_k / (1 + λ(a_k - s_j)), with λ the
// unique root of Σ p̂_k (a_k - s_j)/(1 + λ(a_k - s_j)) = 0 on the interval
// where all denominators are positive; it is found by safeguarded Newton
// iteration. Empty outcome bins are replaced by 1e-3 so that s0 and s1 are
// always inside the support. The test stops with H1 when LLR ≥
// log((1-β)/α), with H0 when LLR ≤ log(β/(1-α)), and continues otherwise.
package ratings
