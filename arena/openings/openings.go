// Package openings makes the opening suites of a league: start positions
// given as move prefixes in a game's own notation, read from a file or
// generated as random legal plies kept when a shallow search finds them
// balanced. A league plays each opening with both colours, so repeated
// meetings of deterministic agents differ (docs/leagues.md).
package openings

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"arena/engine"
)

// Bounds of a suite: beyond them a file or a generator setting is a typo,
// or a league that would spend its start-up reading or searching.
const (
	MaxOpenings = 10_000 // openings in a file
	MaxPlies    = 60     // moves in one opening of a file
	MaxLineLen  = 4096   // bytes in one line of a file
	// Separator splits an opening's moves: no course notation uses it
	// (several use spaces and commas inside one move).
	Separator = ";"
)

// Opening is one start position as the moves that reach it from the
// game's start, each in the game's canonical move text.
type Opening struct {
	Moves []string
	// Line is the opening's line in its file (0 for a generated one), for
	// errors and for people.
	Line int
}

// Text is the opening as a file line writes it.
func (o Opening) Text() string { return strings.Join(o.Moves, Separator+" ") }

// Suite is a league's openings in the order games take them.
type Suite struct {
	// Source says where the openings came from: "file PATH" or
	// "random plies=K count=N seed=S depth=D".
	Source   string
	Openings []Opening
}

// Len is the number of openings.
func (s *Suite) Len() int {
	if s == nil {
		return 0
	}
	return len(s.Openings)
}

// Line says what suite games play from, for set-up lines; "" without
// one.
func (s *Suite) Line() string {
	if s.Len() == 0 {
		return ""
	}
	return fmt.Sprintf("openings: %d from %s, each played with both colours", s.Len(), s.Source)
}

// Hash is a SHA-256 of the openings' moves, so a league whose suite
// changed (an edited file, another seed) is told apart from the one stored.
func (s *Suite) Hash() string {
	h := sha256.New()
	for _, o := range s.Openings {
		fmt.Fprintf(h, "%s\n", o.Text())
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Play applies an opening's moves to st, parsing each with the game's
// parser, and returns them in the game's canonical move text. The error
// names the ply (0-based) and the move; an opening that ends the game
// leaves nothing to play and is an error too.
func Play(st engine.State, moves []string) ([]string, error) {
	out := make([]string, len(moves))
	for ply, text := range moves {
		if st.Terminal() {
			return nil, fmt.Errorf("ply %d %q: the game is already over", ply, text)
		}
		if strings.TrimSpace(text) == "" {
			return nil, fmt.Errorf("ply %d: empty move", ply)
		}
		m, err := st.ParseMove(text)
		if err != nil {
			return nil, fmt.Errorf("ply %d %q: %w", ply, text, err)
		}
		out[ply] = st.FormatMove(m)
		st.Apply(m)
	}
	if st.Terminal() {
		return nil, fmt.Errorf("the game is over after the %d move(s): an opening must leave a game to play", len(moves))
	}
	return out, nil
}

// canonical plays moves from the game's start and returns them in the
// game's canonical text, and the position's key.
func canonical(g engine.Game, params engine.Params, moves []string) ([]string, string, error) {
	st, err := g.NewState(params)
	if err != nil {
		return nil, "", err
	}
	out, err := Play(st, moves)
	if err != nil {
		return nil, "", err
	}
	return out, positionKey(st), nil
}

// positionKey tells positions apart: the board and the side to move.
func positionKey(st engine.State) string {
	return fmt.Sprintf("%d\x00%s", st.ToMove(), st.Text())
}

// ReadFile reads a suite from a file (see Read).
func ReadFile(path string, g engine.Game, params engine.Params) (*Suite, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("openings file: %w", err)
	}
	defer f.Close()
	// A pipe or a device could block the league's start or never end.
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("openings file %s: not a regular file", path)
	}
	s, err := Read(f, path, g, params)
	if err != nil {
		return nil, err
	}
	s.Source = "file " + path
	return s, nil
}

// Read reads one opening per line: the moves of a prefix in the game's
// notation, separated by ";". A "#" starts a comment; blank lines are
// skipped. Each move is checked with the game's parser from the start; a
// bad line is an error naming the file, the line, the ply and the move,
// and so is a line that reaches the same position as an earlier one.
func Read(r io.Reader, name string, g engine.Game, params engine.Params) (*Suite, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1024), MaxLineLen)
	s := &Suite{Source: name}
	seen := map[string]int{}
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		if strings.TrimSpace(line) == "" {
			continue
		}
		moves := strings.Split(line, Separator)
		for i := range moves {
			moves[i] = strings.TrimSpace(moves[i])
			if moves[i] == "" {
				return nil, fmt.Errorf("%s:%d: move %d is empty (moves are separated by %q)", name, n, i+1, Separator)
			}
		}
		if len(moves) > MaxPlies {
			return nil, fmt.Errorf("%s:%d: %d moves: an opening has at most %d", name, n, len(moves), MaxPlies)
		}
		canon, key, err := canonical(g, params, moves)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
		if first, dup := seen[key]; dup {
			return nil, fmt.Errorf("%s:%d: reaches the same position as line %d", name, n, first)
		}
		seen[key] = n
		if len(s.Openings) == MaxOpenings {
			return nil, fmt.Errorf("%s:%d: more than %d openings", name, n, MaxOpenings)
		}
		s.Openings = append(s.Openings, Opening{Moves: canon, Line: n})
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s: a line is longer than %d bytes", name, MaxLineLen)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(s.Openings) == 0 {
		return nil, fmt.Errorf("%s: no openings (one per line: moves separated by %q)", name, Separator)
	}
	return s, nil
}
