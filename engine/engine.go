// Package engine holds the game-agnostic contracts every course game implements
// and every referee, searcher and tool consumes.
//
// The split follows OpenSpiel: a Game describes rules and builds start
// positions; a State is one position that can be copied, queried and advanced.
// Searchers run on the hot path, so moves are small integers, LegalMoves
// appends into a caller-owned slice, and Apply mutates in place.
package engine

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"time"
)

// Move is a game-specific compact encoding of one legal move. Its meaning is
// private to the game that produced it; only that game's states accept it.
type Move uint32

// NoSeat marks "nobody" where a seat (0 or 1) is expected.
const NoSeat = -1

// Result is how a finished game ended, from the rules' point of view.
type Result struct {
	Winner int    // 0, 1, or NoSeat for a draw or no result
	Draw   bool   // true for a draw
	Scores [2]int // meaningful when the game's Info().HasScores
	Reason string // the course's result text for this ending; often empty for a normal end
}

// Info describes a game for listings and for generic tools.
type Info struct {
	Name      string // registry key, e.g. "bohnenspiel"
	Title     string // human name, e.g. "Bohnenspiel"
	Course    string // the course whose referee the game reproduces
	Profile   string // name of the course profile, e.g. "comp424-2017"
	HasScores bool   // whether Result.Scores and State.Scores mean anything
	Params    []ParamInfo
}

// ParamInfo documents one game parameter.
type ParamInfo struct {
	Name    string
	Default string
	Doc     string
}

// Game is one course game: its description, its start positions and its
// course profile.
type Game interface {
	Info() Info
	// NewState returns the start position for params. Unknown or invalid
	// parameters are errors naming the parameter.
	NewState(p Params) (State, error)
	// Profile returns the course profile's defaults for these parameters
	// (some limits depend on them, e.g. Cachex's n² seconds).
	Profile(p Params) (Profile, error)
}

// State is one position. Implementations are not safe for concurrent use;
// Clone gives each goroutine its own.
type State interface {
	// ToMove is the seat to move (0 or 1); NoSeat once the game is over.
	ToMove() int
	// Terminal reports whether the game is over.
	Terminal() bool
	// Result is valid once Terminal is true.
	Result() Result
	// Scores are the running scores for games that have them.
	Scores() [2]int
	// LegalMoves appends the legal moves, in the course framework's order,
	// to dst and returns it. Empty when the game is over.
	LegalMoves(dst []Move) []Move
	// LegalCount is the number of legal moves as the course counted them
	// (the vectors' legal_count); it may differ from len(LegalMoves) where
	// the course counted differently.
	LegalCount() int
	// Apply plays a move from LegalMoves or ParseMove. Behaviour for other
	// values is undefined.
	Apply(m Move)
	// ParseMove judges a reply of the side to move, written in the course's
	// move text. It returns a legal move, or a *MoveError saying whether the
	// text was unparseable or illegal, with the course's reason text.
	ParseMove(text string) (Move, error)
	// FormatMove writes a legal move in the course's canonical move text.
	FormatMove(m Move) string
	// Text is the canonical board text of the course vectors.
	Text() string
	// Hash identifies the position (for transposition tables); equal
	// positions have equal hashes.
	Hash() uint64
	// Ply counts the moves applied so far.
	Ply() int
	// Clone returns an independent copy.
	Clone() State
}

// Copier is implemented by states that can overwrite themselves with a copy
// of another state of the same game (and the same parameters) without
// allocating: searchers keep one preallocated state per ply instead of
// calling Clone for every child.
type Copier interface {
	CopyFrom(src State)
}

// Passer is implemented by states whose course referee could skip a player's
// turn (the turn passes to the opponent without a move).
type Passer interface {
	Pass()
}

// RandomMover is implemented by states whose course referee drew substitute
// moves from a distribution other than uniform over LegalMoves.
type RandomMover interface {
	RandomMove(r *rand.Rand) Move
}

// PlayoutMover is implemented by states with a fast way to draw a move
// uniformly over LegalMoves without listing them, for random playouts. It
// returns false when there is no legal move (the game is over). Unlike
// RandomMover it never reproduces a course referee's substitute move, so
// referees must not use it; searchers do, through PlayoutMove.
type PlayoutMover interface {
	RandomPlayoutMove(r *rand.Rand) (Move, bool)
}

// PlyFielder is implemented by states that can describe themselves with the
// game-specific fields of the vector schema (e.g. "turn_number", "legal",
// "captured", "repeat", "legal_tuples"), as JSON-compatible values.
type PlyFielder interface {
	PlyFields(dst map[string]any)
}

// Evaluator is implemented by states that offer a cheap static heuristic
// for search agents: larger is better for seat. It is only called on
// non-terminal positions; it need not be symmetric or bounded, but must be
// fast and allocation-free.
type Evaluator interface {
	Evaluate(seat int) float64
}

// Drawer is implemented by states that can draw themselves for people,
// beyond the one-line canonical text.
type Drawer interface {
	Draw() string
}

// EndingLabeler is implemented by finished states whose vectors label the
// kind of ending (e.g. Bohnenspiel's "max_turn") instead of carrying the
// course's result text; vector replay compares the label as the reason.
type EndingLabeler interface {
	EndingLabel() string
}

// AgentViewer is implemented by games whose course gave agents a structured,
// seat-relative view of the position (JSON), beyond the canonical text.
type AgentViewer interface {
	// AgentView renders the view for seat; deadline is when the reply is
	// due (zero when unknown).
	AgentView(seat int, opponent string, deadline time.Time) ([]byte, error)
}

// MoveErrorKind tells a referee which penalty applies to a bad reply.
type MoveErrorKind int

const (
	// Unparseable: the text is not a move in the course notation.
	Unparseable MoveErrorKind = iota + 1
	// Illegal: the text is a move, but not one the rules allow now.
	Illegal
)

func (k MoveErrorKind) String() string {
	switch k {
	case Unparseable:
		return "unparseable"
	case Illegal:
		return "illegal"
	}
	return "MoveErrorKind(" + strconv.Itoa(int(k)) + ")"
}

// MoveError is the verdict on a bad reply.
type MoveError struct {
	Kind   MoveErrorKind
	Text   string // the reply as received
	Reason string // the course's result reason, e.g. "ILLEGAL MOVE: Player 0 plays pit 9"
	Detail string // the course's longer message where it had one; else why, for humans
}

func (e *MoveError) Error() string {
	msg := fmt.Sprintf("%s move %q", e.Kind, e.Text)
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	if e.Reason != "" && e.Reason != e.Detail {
		msg += " (" + e.Reason + ")"
	}
	return msg
}

// RandomLegal draws a move uniformly from the legal list, reusing buf.
// It returns false when there is no legal move.
func RandomLegal(s State, r *rand.Rand, buf []Move) (Move, []Move, bool) {
	buf = s.LegalMoves(buf[:0])
	if len(buf) == 0 {
		return 0, buf, false
	}
	return buf[r.IntN(len(buf))], buf, true
}

// PlayoutMove draws a move uniformly over the legal moves, through the
// state's PlayoutMover shortcut when it has one, else by listing into buf.
// It returns false when there is no legal move.
func PlayoutMove(s State, r *rand.Rand, buf []Move) (Move, []Move, bool) {
	if pm, ok := s.(PlayoutMover); ok {
		m, ok := pm.RandomPlayoutMove(r)
		return m, buf, ok
	}
	return RandomLegal(s, r, buf)
}

// SubstituteMove draws the move a course referee would have played for a
// player: the game's own distribution where it has one, else uniform.
func SubstituteMove(s State, r *rand.Rand, buf []Move) (Move, []Move, bool) {
	if rm, ok := s.(RandomMover); ok && !s.Terminal() {
		return rm.RandomMove(r), buf, true
	}
	return RandomLegal(s, r, buf)
}

// Params are game parameters as text (from flags, configs or vectors).
type Params map[string]string

// Int reads an integer parameter, or def when absent.
func (p Params) Int(name string, def int) (int, error) {
	v, ok := p[name]
	if !ok || v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		return 0, fmt.Errorf("parameter %s=%q: not an integer", name, v)
	}
	return n, nil
}

// Check rejects parameters not in allowed, naming them.
func (p Params) Check(game string, allowed ...string) error {
	ok := make(map[string]bool, len(allowed))
	for _, a := range allowed {
		ok[a] = true
	}
	var bad []string
	for k := range p {
		if !ok[k] {
			bad = append(bad, k)
		}
	}
	if len(bad) == 0 {
		return nil
	}
	sort.Strings(bad)
	if len(allowed) == 0 {
		return fmt.Errorf("game %s takes no parameters, got %v", game, bad)
	}
	return fmt.Errorf("game %s: unknown parameter(s) %v (known: %v)", game, bad, allowed)
}

// Clone copies the parameters.
func (p Params) Clone() Params {
	c := make(Params, len(p))
	for k, v := range p {
		c[k] = v
	}
	return c
}

// String renders parameters sorted, as "k=v,k=v".
func (p Params) String() string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	s := ""
	for i, k := range keys {
		if i > 0 {
			s += ","
		}
		s += k + "=" + p[k]
	}
	return s
}

// Replay applies a move history in course notation to s; "" marks a skipped
// turn (the state must be a Passer). The error names the failing ply.
func Replay(s State, history []string) error {
	for i, text := range history {
		if text == "" {
			p, ok := s.(Passer)
			if !ok {
				return fmt.Errorf("ply %d: skipped turn in a game without skips", i)
			}
			p.Pass()
			continue
		}
		m, err := s.ParseMove(text)
		if err != nil {
			return fmt.Errorf("ply %d: %w", i, err)
		}
		s.Apply(m)
	}
	return nil
}
