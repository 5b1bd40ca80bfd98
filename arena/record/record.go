// Package record defines GameRecord, the complete account of one refereed
// game: who played, under which profile and overrides, every move with its
// time, every penalty and substitution, the result and the agents' stderr.
// Its JSON form is the per-game export schema (docs/records.md).
package record

import (
	"encoding/json"
	"fmt"
	"time"
)

// Agent is one side of a game.
type Agent struct {
	Name string `json:"name"`           // display name
	Ref  string `json:"ref"`            // agent reference as given (builtin:random, lua:bot.lua, ./bin)
	Hash string `json:"hash,omitempty"` // content hash of the agent's binary or script, where known
	// Process is "PID/N" when a league kept the agent's process across
	// games: the N-th game that process played. Games with the same PID
	// (in one run) shared a process; empty for a process of its own.
	Process string `json:"process,omitempty"`
}

// Move sources.
const (
	SourceAgent  = "agent"  // the agent's own reply
	SourceRandom = "random" // a substitute move drawn by the referee
	SourceSkip   = "skip"   // the turn was skipped
	// SourceOpening is a move of the opening the game started from, played
	// by the referee before the agents were asked for any.
	SourceOpening = "opening"
)

// Move is one ply.
type Move struct {
	Ply    int    `json:"ply"`
	Seat   int    `json:"seat"`
	Text   string `json:"text"`   // course notation; "" for a skipped turn
	Source string `json:"source"` // agent, random or skip
	// WallMS is the wall-clock time from request to reply as the referee
	// measured it (0 when the agent was not asked).
	WallMS float64 `json:"wall_ms"`
	// CPUMS is the agent process's total CPU time after this move, where
	// the profile measures CPU.
	CPUMS float64 `json:"cpu_ms,omitempty"`
	// MoveCPUMS is the CPU time every process of the agent used between
	// the request and the reply, under every profile; nil when it could
	// not be measured (a substitute move, an in-process agent).
	MoveCPUMS *float64 `json:"move_cpu_ms,omitempty"`
	// Load is the machine's one-minute load average when the reply came,
	// where it could be read.
	Load *float64 `json:"load,omitempty"`
}

// Event is anything the referee did besides applying an agent's move:
// penalties, substitutions, kills, restarts.
type Event struct {
	Ply     int    `json:"ply"`
	Seat    int    `json:"seat"`
	Kind    string `json:"kind"`    // a failure (timeout, late, unparseable, illegal, error, dead, memory) or launch/restart
	Penalty string `json:"penalty"` // what the profile did about it
	Detail  string `json:"detail"`  // what happened, for humans
	Reply   string `json:"reply,omitempty"`
	// Evidence is what the machine was doing during a late or timed-out
	// move under a wall-clock profile, to tell waiting for a core from
	// slow thinking.
	Evidence *Evidence `json:"evidence,omitempty"`
}

// Evidence describes one late move: its wall time, the CPU time the
// agent's processes used meanwhile, the time their threads waited for a
// CPU, and the machine's load.
type Evidence struct {
	WallMS    float64  `json:"wall_ms"`
	MoveCPUMS *float64 `json:"move_cpu_ms,omitempty"` // nil when it could not be measured
	// RunQueueMS is the time the agent's threads spent ready to run but
	// waiting for a CPU during the move (the kernel's run-queue delay,
	// summed over its threads); nil when it could not be read (an agent
	// not in a process of its own, a profile not timed by the wall clock).
	RunQueueMS *float64 `json:"run_queue_ms,omitempty"`
	// LimitMS is the move's time limit the wall time was judged against,
	// where RunQueueMS is set.
	LimitMS  float64 `json:"limit_ms,omitempty"`
	Load     float64 `json:"load"`     // one-minute load average
	Runnable int     `json:"runnable"` // tasks running or ready to run at the time
	CPUs     int     `json:"cpus"`     // CPUs the load is measured against
	// PossiblyContention is set when the machine caused the verdict: the
	// agent waited for a CPU long enough that, without the wait, its move
	// would have been within the limit. A league replays such a game
	// instead of publishing it.
	PossiblyContention bool `json:"possibly_contention,omitempty"`
}

// Contended decides whether the machine caused a late move: the agent's
// threads waited for a CPU, and the wall time less that wait is within the
// limit. An agent that slept or blocked waited for no CPU, however little
// CPU it used, and is never taken for a victim of the machine.
func (e *Evidence) Contended() bool {
	if e == nil || e.RunQueueMS == nil || *e.RunQueueMS <= 0 || e.LimitMS <= 0 {
		return false
	}
	return e.WallMS-*e.RunQueueMS <= e.LimitMS
}

// Contention counts seat's penalties marked possibly contention.
func (g *Game) Contention(seat int) int {
	n := 0
	for _, e := range g.Events {
		if e.Seat == seat && e.Evidence != nil && e.Evidence.PossiblyContention {
			n++
		}
	}
	return n
}

// Result is how the game ended.
type Result struct {
	Winner  int    `json:"winner"` // 0, 1, or -1 for none
	Draw    bool   `json:"draw"`
	Scores  []int  `json:"scores,omitempty"`
	Reason  string `json:"reason"`            // the course's reason text ("" for a normal end in most courses)
	Detail  string `json:"detail,omitempty"`  // the course's longer message, where it had one
	Forfeit string `json:"forfeit,omitempty"` // the failure that ended the game, if any
}

// Game is one refereed game.
type Game struct {
	Schema    int               `json:"schema"`
	ID        string            `json:"id"`
	Game      string            `json:"game"`
	Params    map[string]string `json:"params,omitempty"`
	Profile   string            `json:"profile"`
	Overrides []string          `json:"overrides,omitempty"`
	Seed      uint64            `json:"seed"`
	Agents    [2]Agent          `json:"agents"` // by seat; seat 0 moves first
	Start     string            `json:"start_board"`
	Moves     []Move            `json:"moves"`
	Events    []Event           `json:"events,omitempty"`
	Result    Result            `json:"result"`
	Final     string            `json:"final_board"`
	Stderr    [2]string         `json:"stderr"`
	Started   time.Time         `json:"started"`
	Ended     time.Time         `json:"ended"`
	// Worker is the machine that played the game, for games played by a
	// cluster worker (arena worker).
	Worker *Worker `json:"worker,omitempty"`
	// Replays are the earlier plays of this game that a league did not
	// publish, oldest first, each with the reason it was played again.
	Replays []Replay `json:"replays,omitempty"`
	// Opening is the start position a league's opening suite gave the
	// game: its moves are the record's first moves (source "opening");
	// nil when the game started from the game's own start.
	Opening *Opening `json:"opening,omitempty"`
	// Arena is the build of the arena that refereed the game
	// (buildinfo.Info.Stamp); records written before it existed lack it.
	Arena string `json:"arena,omitempty"`
}

// Opening is one opening of a league's suite.
type Opening struct {
	Index int      `json:"index"` // its place in the suite, from 0
	Moves []string `json:"moves"` // in the game's canonical move text
}

// OpeningIndex is the index of the game's opening, -1 when it had none.
func (g *Game) OpeningIndex() int {
	if g.Opening == nil {
		return -1
	}
	return g.Opening.Index
}

// Replay is one play of a game that a league withheld and played again.
type Replay struct {
	Started time.Time `json:"started"` // when the withheld play began
	Reason  string    `json:"reason"`  // why it was played again
}

// MachineCaused says which verdict of the game the machine caused (the
// first event marked possibly contention), for humans; "" when none.
func (g *Game) MachineCaused() string {
	for _, e := range g.Events {
		ev := e.Evidence
		if ev == nil || !ev.PossiblyContention {
			continue
		}
		return fmt.Sprintf("ply %d, %s (seat %d): %s after %.0f ms against the %.0f ms limit, %.0f ms of it waiting for a CPU: the machine was too busy for a fair verdict",
			e.Ply, g.Agents[e.Seat].Name, e.Seat, e.Kind, ev.WallMS, ev.LimitMS, *ev.RunQueueMS)
	}
	return ""
}

// Worker describes the machine a cluster worker played a game on.
type Worker struct {
	Name  string `json:"name"`  // the worker's name (--name, default host-pid)
	Host  string `json:"host"`  // its host name
	CPU   string `json:"cpu"`   // CPU model
	Cores int    `json:"cores"` // its CPU slots
	// Score is the worker's benchmark score when it joined (playouts per
	// millisecond of a fixed workload, docs/cluster.md); Class is what the
	// coordinator made of it against the league's threshold.
	Score float64 `json:"score,omitempty"`
	Class string  `json:"class,omitempty"`
}

// SchemaVersion is written into every record.
const SchemaVersion = 1

// History is the move texts in order ("" for skipped turns), as agents and
// engine.Replay take them.
func (g *Game) History() []string {
	h := make([]string, len(g.Moves))
	for i, m := range g.Moves {
		h[i] = m.Text
	}
	return h
}

// Penalties counts events per failure kind for seat.
func (g *Game) Penalties(seat int) map[string]int {
	out := map[string]int{}
	for _, e := range g.Events {
		if e.Seat == seat && e.Kind != "launch" && e.Kind != "restart" {
			out[e.Kind]++
		}
	}
	return out
}

// Outcome returns the points for seat: 1 win, 0.5 draw, 0 loss or no result.
func (g *Game) Outcome(seat int) float64 {
	switch {
	case g.Result.Draw:
		return 0.5
	case g.Result.Winner == seat:
		return 1
	}
	return 0
}

// Summary is a one-line description of the result.
func (g *Game) Summary() string {
	s := "draw"
	if !g.Result.Draw {
		if g.Result.Winner >= 0 {
			s = fmt.Sprintf("%s (seat %d) wins", g.Agents[g.Result.Winner].Name, g.Result.Winner)
		} else {
			s = "no result"
		}
	}
	if len(g.Result.Scores) == 2 {
		s += fmt.Sprintf(" %d-%d", g.Result.Scores[0], g.Result.Scores[1])
	}
	if g.Result.Reason != "" {
		s += ": " + g.Result.Reason
	}
	return s
}

// Skipped reports, per seat, whether any of its turns were skipped (a dead
// agent's turns, under hex cross-out's course rule).
func (g *Game) Skipped() [2]bool {
	var s [2]bool
	for _, m := range g.Moves {
		if m.Source == SourceSkip && (m.Seat == 0 || m.Seat == 1) {
			s[m.Seat] = true
		}
	}
	return s
}

// MarshalLine renders the record as one JSON line.
func (g *Game) MarshalLine() ([]byte, error) {
	b, err := json.Marshal(g)
	if err != nil {
		return nil, fmt.Errorf("encode game %s: %w", g.ID, err)
	}
	return append(b, '\n'), nil
}
