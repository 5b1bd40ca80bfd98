package league

import (
	"math/bits"

	"arena/arena/league/format"
	"arena/arena/league/leaguefile"
	"arena/arena/results"
)

// scheduleWindow is how many missing games of a static schedule the
// runner hands its workers at a time: enough that the pause between
// windows (the last game of one finishing alone) is rare, few enough that
// the matches in flight cost nothing next to the arena itself.
const scheduleWindow = 256

// staticSchedule follows a static format's schedule (round-robin,
// gauntlet, ab) by position: whether each game is stored is one bit, and
// the missing games are handed out a window at a time. A league of
// 100,000 games so holds 12.5 KB of its schedule, not the schedule and
// every stored id.
type staticSchedule struct {
	l    *leaguefile.League
	f    *format.Static
	done []uint64 // bit i: the game at position i is stored
	next int      // the first position not yet handed out
	left int      // missing games at or after next
}

// newStaticSchedule is nil when the league's format is not static.
func newStaticSchedule(l *leaguefile.League) *staticSchedule {
	f, ok := l.Tournament.(*format.Static)
	if !ok {
		return nil
	}
	return &staticSchedule{l: l, f: f, done: make([]uint64, (f.Len()+63)/64), left: f.Len()}
}

// mark notes m as stored and reports whether it is a game of this
// schedule: the game at its place, with the same id (the league's seed
// and name decide the ids, so a changed league's games are not).
func (s *staticSchedule) mark(m results.Match) bool {
	g := format.Game{A: m.Seats[0], B: m.Seats[1], Pair: m.Pair, Index: m.Index}
	if m.Index%2 == 1 {
		g.A, g.B = g.B, g.A
	}
	pos, ok := s.f.Position(g)
	if !ok || s.l.Match(s.f.At(pos), pos).ID != m.ID {
		return false
	}
	if w, b := pos/64, uint64(1)<<(pos%64); s.done[w]&b == 0 {
		s.done[w] |= b
		if pos >= s.next {
			s.left--
		}
	}
	return true
}

func (s *staticSchedule) stored(pos int) bool { return s.done[pos/64]&(1<<(pos%64)) != 0 }

// count is the number of stored games of the schedule.
func (s *staticSchedule) count() int {
	n := 0
	for _, w := range s.done {
		n += bits.OnesCount64(w)
	}
	return n
}

// window hands out the next at most n missing games, in schedule order.
func (s *staticSchedule) window(n int) []results.Match {
	var out []results.Match
	for ; s.next < s.f.Len() && len(out) < n; s.next++ {
		if !s.stored(s.next) {
			out = append(out, s.l.Match(s.f.At(s.next), s.next))
		}
	}
	s.left -= len(out)
	return out
}

// ids lists the stored games' match ids (for a Remote's Begin).
func (s *staticSchedule) ids(into map[string]bool) {
	for pos := range s.f.Len() {
		if s.stored(pos) {
			into[s.l.Match(s.f.At(pos), pos).ID] = true
		}
	}
}
