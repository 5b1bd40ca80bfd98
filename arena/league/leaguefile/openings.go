package leaguefile

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"arena/arena/openings"
	"arena/arena/record"
	"arena/arena/results"
)

// HashedOpenings is what of a suite enters the league's hash: its
// content, so an edited file or another generator setting is a changed
// league, and not the file's path, so a moved league directory is not.
type HashedOpenings struct {
	Count  int             `json:"count"`
	SHA256 string          `json:"sha256"`
	Random *RandomOpenings `json:"random,omitempty"`
}

// loadOpenings reads or generates a league's suite; nil when the file
// asks for none. A course agent is refused: its course's adapter cannot
// be handed a position, and playing it from the start would not be the
// league asked for.
func (l *League) loadOpenings(ld *loader, c Config, baseDir string) error {
	oc := c.Openings
	hasFile, hasRandom := oc.File != "", oc.Random != (RandomOpenings{})
	switch {
	case !hasFile && !hasRandom:
		return nil
	case hasFile && hasRandom:
		return ld.errorf("openings", "give either openings.file or openings.random, not both")
	}
	var err error
	if hasFile {
		path := strings.ReplaceAll(oc.File, "{game}", l.Game.Info().Name)
		if !filepath.IsAbs(path) && ld.source("openings.file") == ld.file {
			path = filepath.Join(baseDir, path)
		}
		l.Openings, err = openings.ReadFile(path, l.Game, l.Params)
		if err != nil {
			return ld.errorf("openings.file", "league %s: %v", l.Name, err)
		}
	} else {
		r := openings.Random{Plies: oc.Random.Plies, Count: oc.Random.Count, Seed: oc.Random.Seed, Depth: oc.Random.Depth}
		if r.Seed == 0 {
			r.Seed = l.Seed
		}
		l.Openings, err = openings.GenerateCached(context.Background(), l.Game, l.Params, r, ld.openingsCache)
		if err != nil {
			return ld.errorf("openings.random", "league %s: %v", l.Name, err)
		}
	}
	for _, a := range l.Agents {
		if a.Kind == KindCourse {
			return ld.errorf("openings", "league %s: agent %s (%s) is a course agent, and its course's adapter cannot start a game from a position: play openings with built-in, Lua or SDK agents, or drop openings", l.Name, a.Name, a.Ref)
		}
	}
	return nil
}

// hashOpenings is the suite's part of the league's hash; nil without one.
func (l *League) hashOpenings(c Config) *HashedOpenings {
	if l.Openings.Len() == 0 {
		return nil
	}
	h := &HashedOpenings{Count: l.Openings.Len(), SHA256: l.Openings.Hash()}
	if c.Openings.File == "" {
		r := c.Openings.Random
		h.Random = &r
	}
	return h
}

// OpeningIndex is the opening a pairing's pair plays: (s + pair) mod N,
// where s is the seed of the pairing's first pair (the s… of its g000
// match id) and N the suite's length. A pairing goes through the whole
// suite before it plays an opening again, from a start of its own, and
// both games of a pair, colours swapped, play the same opening. -1 when
// the league has no suite.
func (l *League) OpeningIndex(pairing string, pair int) int {
	n := l.Openings.Len()
	if n == 0 {
		return -1
	}
	s := pairSeed(l.Seed, l.Name, pairing, 0)
	return int((s + uint64(pair)) % uint64(n))
}

// OpeningOf is the opening a scheduled match starts from, nil when the
// league has no suite.
func (l *League) OpeningOf(m results.Match) *record.Opening {
	i := l.OpeningIndex(m.Pairing, m.Pair)
	if i < 0 {
		return nil
	}
	return &record.Opening{Index: i, Moves: l.Openings.Openings[i].Moves}
}

// Line says the same from a stored configuration, for standings.
func (h *HashedOpenings) Line() string {
	if h == nil || h.Count == 0 {
		return ""
	}
	from := "a file"
	if r := h.Random; r != nil {
		from = fmt.Sprintf("random plies=%d count=%d", r.Plies, r.Count)
		if r.Seed != 0 {
			from += fmt.Sprintf(" seed=%d", r.Seed)
		}
	}
	return fmt.Sprintf("openings: %d from %s (sha256 %s), each played with both colours; a pair below is the two games of one opening", h.Count, from, ShortHash(h.SHA256))
}
