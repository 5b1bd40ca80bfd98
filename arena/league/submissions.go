package league

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"arena/arena/league/leaguefile"
	"arena/arena/results"
)

// Submissions over time (docs/leagues.md, "Resubmissions and late
// entrants"): a league run again after its entrants changed plays only what
// the change calls for. An entrant the store has not seen plays its new
// games; an entrant from a folder (entrants.dir or glob) whose content hash
// changed is a resubmission: its stored games are superseded (kept in the
// store, marked, left out of standings and exports) and played again with
// the new version; everything else is kept. This holds for round-robin and
// gauntlet leagues, whose games do not depend on each other's results; a
// Swiss or knockout tournament under way, and an A/B test, refuse the
// change, since their later games were chosen by the earlier results.

// versions are one league's entrant changes since its stored run.
type versions struct {
	stored  bool                 // the store holds this league
	added   []string             // agents the stored run did not have
	changed map[string][2]string // resubmitted entrant -> stored hash, new hash
	order   []string             // the resubmitted entrants in listing order
	// left are stored entrants refused this run (a broken resubmission):
	// their stored games are superseded too, and nothing replaces them.
	left []string
	// removed are stored entrants whose submission is no longer in the
	// folder (withdrawn): superseded as the refused ones are.
	removed []string
	replace []string // match ids of the stored games they replace
}

// leaving are the stored entrants with no games this run.
func (v *versions) leaving() []string {
	if v == nil {
		return nil
	}
	return append(slices.Clone(v.left), v.removed...)
}

// gone reports whether name is among them, without building the list
// (replaces runs once per stored game).
func (v *versions) gone(name string) bool {
	return v != nil && (slices.Contains(v.left, name) || slices.Contains(v.removed, name))
}

// changes counts the entrants added, resubmitted and gone.
func (v *versions) changes() int {
	return len(v.added) + len(v.changed) + len(v.left) + len(v.removed)
}

func (v *versions) resubmitted(name string) bool {
	if v == nil {
		return false
	}
	_, ok := v.changed[name]
	return ok
}

// replaces reports whether a stored game of name is superseded.
func (v *versions) replaces(name string) bool {
	return v.resubmitted(name) || v.gone(name)
}

// replayable formats take new and resubmitted entrants while under way.
func replayable(format string) bool {
	return format == leaguefile.RoundRobin || format == leaguefile.Gauntlet
}

// TournamentChangedError refuses a new or resubmitted entrant in a
// tournament whose later games depend on the results so far.
type TournamentChangedError struct {
	League, Format string
	Stored         int
	Changes        []string
}

func (e *TournamentChangedError) Error() string {
	return fmt.Sprintf("league %s is a %s under way (%d game(s) stored) and its entrants changed: %s; a %s pairs its later games by the results so far, so entrants cannot join or be replaced mid-tournament: restore the old submissions, start again in another output directory, or rerun with --force to keep the stored games and play on with the new entrants",
		e.League, e.Format, e.Stored, strings.Join(e.Changes, ", "), e.Format)
}

// planVersions compares each league's agents with its stored ones and, for
// the resubmissions, plans the league again without the games they
// replace. Nothing is written.
func planVersions(ctx context.Context, st results.Store, s *leaguefile.Spec, plans []*plan, opt RunOptions) error {
	fromDir := map[string]bool{}
	for _, e := range s.Entrants {
		fromDir[e.Name] = true
	}
	refused := map[string]bool{}
	for _, r := range s.Refused {
		if r.Name != "" {
			refused[r.Name] = true
		}
	}
	for _, p := range plans {
		v, err := storedVersions(ctx, st, p.l, fromDir, refused, s.EntrantsRoot)
		if err != nil {
			return err
		}
		p.versions = v
		if v.changes() == 0 {
			continue
		}
		if !replayable(p.l.Format) && p.stored > 0 {
			if !opt.Force {
				return &TournamentChangedError{League: p.l.Name, Format: p.l.Format, Stored: p.stored, Changes: v.describe()}
			}
			// Forced: the general rule of a changed league applies
			// (checkChanged), with nothing superseded.
			p.versions = &versions{stored: true}
			continue
		}
		replaced := func(m results.Match) bool { return v.replaces(m.Seats[0]) || v.replaces(m.Seats[1]) }
		err = results.EachGame(ctx, st, p.l.Name, func(g results.Game) error {
			if replaced(g.Match) {
				v.replace = append(v.replace, g.Match.ID)
			}
			return nil
		})
		if err != nil {
			return err
		}
		if len(v.replace) == 0 {
			continue
		}
		np, err := planOf(ctx, st, p.l, replaced)
		if err != nil {
			return err
		}
		np.versions = v
		*p = *np
	}
	return nil
}

// storedVersions finds the league's new agents, resubmitted entrants,
// stored entrants refused this run and those whose submission left the
// folder at root (the entrants' folder, "" without one).
func storedVersions(ctx context.Context, st results.Store, l *leaguefile.League, fromDir, refused map[string]bool, root string) (*versions, error) {
	_, agents, err := st.League(ctx, l.Name)
	if errors.Is(err, results.ErrNotFound) {
		return &versions{}, nil
	}
	if err != nil {
		return nil, err
	}
	byName := make(map[string]results.Agent, len(agents))
	for _, a := range agents {
		byName[a.Name] = a
	}
	v := &versions{stored: true, changed: map[string][2]string{}}
	current := map[string]bool{}
	for _, a := range l.Agents {
		current[a.Name] = true
	}
	for _, a := range agents {
		switch {
		case current[a.Name]:
		case refused[a.Name]:
			v.left = append(v.left, a.Name)
		case root != "" && strings.Contains(a.Ref, root+string(filepath.Separator)):
			v.removed = append(v.removed, a.Name)
		}
	}
	for _, a := range l.Agents {
		sa, ok := byName[a.Name]
		switch {
		case !ok:
			v.added = append(v.added, a.Name)
		case fromDir[a.Name] && (sa.Hash != a.Hash || sa.Ref != a.Ref):
			v.changed[a.Name] = [2]string{sa.Hash, a.Hash}
			v.order = append(v.order, a.Name)
		}
	}
	return v, nil
}

// describe lists the changes in words: "new entrant late",
// "alice resubmitted (hash 1a2b… -> 3c4d…)".
func (v *versions) describe() []string {
	var out []string
	for _, n := range v.added {
		out = append(out, "new entrant "+n)
	}
	for _, n := range v.order {
		out = append(out, n+" resubmitted ("+v.hashChange(n)+")")
	}
	for _, n := range v.left {
		out = append(out, n+" refused this run")
	}
	for _, n := range v.removed {
		out = append(out, n+" removed from the submissions")
	}
	return out
}

func (v *versions) hashChange(name string) string {
	h := v.changed[name]
	return fmt.Sprintf("hash %s -> %s", leaguefile.ShortHash(h[0]), leaguefile.ShortHash(h[1]))
}

// explains reports whether the stored configuration differs from the new
// one only by the entrants added and resubmitted: every other key equal,
// and every stored agent still there, in the same order (pairings are
// named by it), unchanged unless it is a resubmission.
func (v *versions) explains(oldCfg, newCfg string) bool {
	if v == nil || !v.stored || v.changes() == 0 {
		return false
	}
	var a, b map[string]json.RawMessage
	if json.Unmarshal([]byte(oldCfg), &a) != nil || json.Unmarshal([]byte(newCfg), &b) != nil {
		return false
	}
	for k := range a {
		if _, ok := b[k]; !ok {
			return false
		}
	}
	for k, nv := range b {
		if k != "agents" && string(a[k]) != string(nv) {
			return false
		}
	}
	var was, now []leaguefile.HashedAgent
	if json.Unmarshal(a["agents"], &was) != nil || json.Unmarshal(b["agents"], &now) != nil {
		return false
	}
	i := 0
	for _, o := range was {
		if v.gone(o.Name) {
			continue
		}
		for i < len(now) && now[i].Name != o.Name {
			i++
		}
		if i == len(now) {
			return false // removed, or listed before an agent it followed
		}
		n := now[i]
		if !v.resubmitted(o.Name) && (n.Agent != o.Agent || !sameOptions(n.Options, o.Options)) {
			return false
		}
		i++
	}
	return true
}

func sameOptions(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, x := range a {
		if y, ok := b[k]; !ok || x != y {
			return false
		}
	}
	return true
}

// announce says, per league, what the run adds, replays and keeps.
func announce(w io.Writer, plans []*plan) {
	for _, p := range plans {
		v := p.versions
		if v == nil {
			v = &versions{}
		}
		fmt.Fprintf(w, "league %s: %s\n", p.l.Name, strings.Join(v.summary(p), "; "))
	}
}

// summary counts the pending games by why they are played.
func (v *versions) summary(p *plan) []string {
	replaced := make(map[string]bool, len(v.replace))
	for _, id := range v.replace {
		replaced[id] = true
	}
	var fresh, again, other int
	for _, m := range p.pending {
		switch {
		case replaced[m.ID]:
			again++
		case slices.Contains(v.added, m.Seats[0]) || slices.Contains(v.added, m.Seats[1]):
			fresh++
		default:
			other++
		}
	}
	var parts []string
	if fresh > 0 {
		parts = append(parts, fmt.Sprintf("%d new game(s) for %s", fresh, strings.Join(v.added, ", ")))
	}
	if gone := v.leaving(); len(gone) > 0 {
		why := "refused this run"
		switch {
		case len(v.left) == 0:
			why = "removed from the submissions"
		case len(v.removed) > 0:
			why = "refused or removed this run"
		}
		parts = append(parts, fmt.Sprintf("%s %s: %d stored game(s) superseded, none replayed", strings.Join(gone, ", "), why, len(v.replace)-again))
	}
	if len(v.order) > 0 {
		var hs []string
		for _, n := range v.order {
			hs = append(hs, n+" "+v.hashChange(n))
		}
		parts = append(parts, fmt.Sprintf("%d game(s) of %s replayed (resubmitted: %s)", again, strings.Join(v.order, ", "), strings.Join(hs, ", ")))
	}
	switch {
	case other > 0 && !v.stored:
		parts = append(parts, fmt.Sprintf("%d new game(s)", other))
	case other > 0:
		parts = append(parts, fmt.Sprintf("%d game(s) still to play", other))
	}
	if len(parts) == 0 {
		parts = append(parts, "nothing to play")
	}
	return append(parts, fmt.Sprintf("%d stored game(s) kept", p.kept))
}

// gameSuperseder is a store that keeps replaced games (resultsdb.SQLite).
type gameSuperseder interface {
	Supersede(ctx context.Context, league string, ids []string, why string) (int, error)
}

// supersede marks the stored games the resubmissions replace.
func supersede(ctx context.Context, st results.Store, plans []*plan, logw io.Writer) error {
	for _, p := range plans {
		v := p.versions
		if v == nil || len(v.replace) == 0 {
			continue
		}
		sup, ok := st.(gameSuperseder)
		if !ok {
			return fmt.Errorf("league %s: the results store cannot keep superseded games, so resubmissions cannot replace theirs", p.l.Name)
		}
		var whys []string
		for _, c := range v.describe() {
			if !strings.HasPrefix(c, "new entrant ") {
				whys = append(whys, c)
			}
		}
		why := strings.Join(whys, ", ")
		n, err := sup.Supersede(ctx, p.l.Name, v.replace, why)
		if err != nil {
			return fmt.Errorf("league %s: %w", p.l.Name, err)
		}
		fmt.Fprintf(logw, "league %s: %d stored game(s) superseded (%s): kept in the store, no longer counted\n", p.l.Name, n, why)
	}
	return nil
}
