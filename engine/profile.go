package engine

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// TimeModel says how a profile limits thinking time.
type TimeModel string

const (
	// PerMove: a wall-clock limit per move, with an optional first-move
	// allowance and a cushion (COMP424, NYCU, AI Gaming).
	PerMove TimeModel = "per-move"
	// CPUBudget: a CPU-time budget per player for the whole game, checked at
	// each reply, with a wall-clock safety kill (COMP30024).
	CPUBudget TimeModel = "cpu-budget"
)

// Penalty is what the referee does about one kind of failure.
type Penalty string

const (
	// Loss: the offending player loses the game at once.
	Loss Penalty = "loss"
	// RandomMove: a substitute move is played for the player; the game goes on.
	RandomMove Penalty = "random-move"
	// SkipTurn: no move is made; the opponent moves again.
	SkipTurn Penalty = "skip-turn"
	// AsTimeout: handled exactly as a timeout.
	AsTimeout Penalty = "as-timeout"
	// AsDead: the agent is killed and handled as a dead process.
	AsDead Penalty = "as-dead"
)

// Failure names the situations a profile has a penalty for.
type Failure string

const (
	FailTimeout     Failure = "timeout"     // no reply by the limit (plus cushion)
	FailLate        Failure = "late"        // a reply inside the cushion
	FailUnparseable Failure = "unparseable" // text that is not a move
	FailIllegal     Failure = "illegal"     // a move the rules forbid now
	FailError       Failure = "error"       // the agent reported an error instead of a move
	FailDead        Failure = "dead"        // the agent process died or cannot be reached
	FailMemory      Failure = "memory"      // the agent process went over the memory limit
	// FailNoShow: the agent never completed its handshake (it did not start,
	// did not speak the protocol, or failed to open the game). It forfeits
	// under every profile, so it has no penalty setting and is not listed
	// by Failures.
	FailNoShow Failure = "no-show"
)

// Failures lists every failure kind, in a stable order.
func Failures() []Failure {
	return []Failure{FailTimeout, FailLate, FailUnparseable, FailIllegal, FailError, FailDead, FailMemory}
}

// Profile is a course referee's behaviour as data: its time model, limits
// and penalties, and the reason texts it writes. Leagues may override the
// numbers, never silently (see Override).
type Profile struct {
	Name   string
	Game   string
	Course string

	Time           TimeModel
	MoveLimit      time.Duration // PerMove: wall clock per ordinary move
	FirstMoveLimit time.Duration // PerMove: each side's first move
	Cushion        time.Duration // PerMove: grace in which a late reply is replaced
	Budget         time.Duration // CPUBudget: CPU time per player per game
	BudgetGrace    time.Duration // CPUBudget: wall-clock grace after the remaining budget before a kill
	MemoryMB       int           // resident memory per agent process, MiB; 0 = none
	// JVMHeapMB is the heap the course's launcher gave a client JVM
	// (-Xms/-Xmx), MiB; 0: the course ran no JVM. A course JVM's memory
	// failure is then its own OutOfMemoryError, and its process tree is
	// held only to JVMHeapMB + JVMHeadroomMB resident (MemoryFor).
	JVMHeapMB     int
	JVMHeadroomMB int
	// PythonPeakMB is how far a course Python agent's peak virtual size
	// may rise above its size after its imports, MiB, as the course
	// referee measured; 0: resident MemoryMB, as for other agents. Its
	// tree is held only to PythonCeilingMB resident (0 = none).
	PythonPeakMB    int
	PythonCeilingMB int
	StartupTimeout  time.Duration // how long an agent process may take to start and handshake
	// MaxReplyBytes is the longest move reply accepted, in bytes; a longer
	// one is unparseable. 0 means DefaultMaxReplyBytes.
	MaxReplyBytes int
	// NotifyMoves: tell both agents of every move, timing each notification
	// against its receiver, as COMP30024's referee did.
	NotifyMoves bool

	// Processes says which agents of a league may keep their process from
	// one game to the next ("" means ProcessesBuiltin).
	Processes Processes

	// Penalties for each failure. Unset entries are a Loss.
	Penalties map[Failure]Penalty

	// Reason templates for failures that end a game. "{player}" is replaced by
	// the seat number plus one (the course's "player 1"/"player 2"), "{seat}"
	// by the seat. Illegal and unparseable moves use the game's own reason
	// (MoveError.Reason) unless a template is given here.
	Reasons map[Failure]string
}

// Processes is a profile's rule for agent processes across the games of a
// league.
type Processes string

const (
	// ProcessesFresh: every agent gets a new process for every game.
	ProcessesFresh Processes = "fresh"
	// ProcessesBuiltin: built-in and Lua agents keep their process (each
	// game still starts them with a new state, so no course rule is
	// involved); agent binaries and course agents get a new process for
	// every game, as the courses started their students' agents. The
	// course profiles' rule.
	ProcessesBuiltin Processes = "builtin"
	// ProcessesAll: agent binaries keep their process too (an SDK agent
	// built with sdk.WithFreshAgent starts each game with a new agent;
	// anything else it keeps is its own). Course agents never do.
	ProcessesAll Processes = "all"
)

// ProcessRules lists the values of Processes.
func ProcessRules() []Processes { return []Processes{ProcessesFresh, ProcessesBuiltin, ProcessesAll} }

// ProcessRule is the rule in force.
func (p *Profile) ProcessRule() Processes {
	if p.Processes == "" {
		return ProcessesBuiltin
	}
	return p.Processes
}

// DefaultMaxReplyBytes is the reply size limit of every course profile:
// no course move text comes near it, and a reply past it is judged before
// the arena holds more than this of it.
const DefaultMaxReplyBytes = 64 << 10

// MaxReplyBytesCeiling is the highest limit a profile may set; the agent
// SDK refuses to send more, whatever the profile.
const MaxReplyBytesCeiling = 16 << 20

// ReplyLimit is the reply size limit in force.
func (p *Profile) ReplyLimit() int {
	if p.MaxReplyBytes > 0 {
		return p.MaxReplyBytes
	}
	return DefaultMaxReplyBytes
}

// PenaltyFor returns the penalty for f (Loss when unset).
func (p *Profile) PenaltyFor(f Failure) Penalty {
	if pen, ok := p.Penalties[f]; ok && pen != "" {
		return pen
	}
	return Loss
}

// ReasonFor renders the reason text for a failure of seat, or "" when the
// profile has none.
func (p *Profile) ReasonFor(f Failure, seat int) string {
	t, ok := p.Reasons[f]
	if !ok {
		return ""
	}
	t = strings.ReplaceAll(t, "{player}", strconv.Itoa(seat+1))
	return strings.ReplaceAll(t, "{seat}", strconv.Itoa(seat))
}

// Clone returns a deep copy, so overrides never touch shared defaults.
func (p Profile) Clone() Profile {
	c := p
	c.Penalties = make(map[Failure]Penalty, len(p.Penalties))
	for k, v := range p.Penalties {
		c.Penalties[k] = v
	}
	c.Reasons = make(map[Failure]string, len(p.Reasons))
	for k, v := range p.Reasons {
		c.Reasons[k] = v
	}
	return c
}

// Override is one change to a profile's numbers, recorded so it can be shown.
type Override struct {
	Setting string
	From    string
	To      string
}

func (o Override) String() string { return fmt.Sprintf("%s: %s -> %s", o.Setting, o.From, o.To) }

// ProfileSettings lists the settings Apply accepts. "penalty.FAILURE"
// stands for one setting per failure kind (penalty.dead, ...).
func ProfileSettings() []string {
	return []string{"move-limit", "first-move-limit", "cushion", "budget", "budget-grace", "memory-mb",
		"jvm-heap-mb", "jvm-headroom-mb", "python-peak-mb", "python-ceiling-mb",
		"startup-timeout", "max-reply-bytes", "processes", PenaltyPrefix + "FAILURE"}
}

// PenaltyPrefix starts the settings that change the penalty for one
// failure kind: "penalty.dead" = "loss", for organisers who want a crash
// to lose where the course played on.
const PenaltyPrefix = "penalty."

// Penalties lists every penalty, in a stable order.
func Penalties() []Penalty { return []Penalty{Loss, RandomMove, SkipTurn, AsTimeout, AsDead} }

// applyPenalty sets the penalty for the failure named in setting.
func (p *Profile) applyPenalty(setting, value string) (Override, error) {
	name := strings.TrimPrefix(setting, PenaltyPrefix)
	var f Failure
	var known []string
	for _, k := range Failures() {
		known = append(known, string(k))
		if string(k) == name {
			f = k
		}
	}
	if f == "" {
		return Override{}, fmt.Errorf("profile %s: %s: unknown failure %q (known: %s)", p.Name, setting, name, strings.Join(known, ", "))
	}
	var pen Penalty
	var pens []string
	for _, k := range Penalties() {
		pens = append(pens, string(k))
		if string(k) == value {
			pen = k
		}
	}
	if pen == "" {
		return Override{}, fmt.Errorf("profile %s: %s %q: want one of %s", p.Name, setting, value, strings.Join(pens, ", "))
	}
	o := Override{Setting: setting, From: string(p.PenaltyFor(f)), To: string(pen)}
	if p.Penalties == nil {
		p.Penalties = map[Failure]Penalty{}
	}
	p.Penalties[f] = pen
	return o, nil
}

// Apply sets one named setting from text (a duration such as "700ms", or an
// integer for the memory settings and max-reply-bytes), refusing settings the time model does not use.
func (p *Profile) Apply(setting, value string) (Override, error) {
	if strings.HasPrefix(setting, PenaltyPrefix) {
		return p.applyPenalty(setting, value)
	}
	perMoveOnly := map[string]bool{"move-limit": true, "first-move-limit": true, "cushion": true}
	budgetOnly := map[string]bool{"budget": true, "budget-grace": true}
	if perMoveOnly[setting] && p.Time != PerMove {
		return Override{}, fmt.Errorf("profile %s: %s does not apply to the %s time model", p.Name, setting, p.Time)
	}
	if budgetOnly[setting] && p.Time != CPUBudget {
		return Override{}, fmt.Errorf("profile %s: %s does not apply to the %s time model", p.Name, setting, p.Time)
	}
	if field, ok := p.memorySettings()[setting]; ok {
		return p.applyMemory(setting, value, field)
	}
	if setting == "processes" {
		var rules []string
		for _, r := range ProcessRules() {
			rules = append(rules, string(r))
			if string(r) == value {
				o := Override{Setting: setting, From: string(p.ProcessRule()), To: value}
				p.Processes = r
				return o, nil
			}
		}
		return Override{}, fmt.Errorf("profile %s: processes %q: want one of %s", p.Name, value, strings.Join(rules, ", "))
	}
	if setting == "max-reply-bytes" {
		n, err := strconv.Atoi(value)
		if err != nil || n < 1 || n > MaxReplyBytesCeiling {
			return Override{}, fmt.Errorf("profile %s: max-reply-bytes %q: want a whole number of bytes from 1 to %d", p.Name, value, MaxReplyBytesCeiling)
		}
		o := Override{Setting: setting, From: strconv.Itoa(p.ReplyLimit()), To: strconv.Itoa(n)}
		p.MaxReplyBytes = n
		return o, nil
	}
	var field *time.Duration
	switch setting {
	case "move-limit":
		field = &p.MoveLimit
	case "first-move-limit":
		field = &p.FirstMoveLimit
	case "cushion":
		field = &p.Cushion
	case "budget":
		field = &p.Budget
	case "budget-grace":
		field = &p.BudgetGrace
	case "startup-timeout":
		field = &p.StartupTimeout
	default:
		return Override{}, fmt.Errorf("profile %s: unknown setting %q (known: %s)", p.Name, setting, strings.Join(ProfileSettings(), ", "))
	}
	d, err := time.ParseDuration(value)
	if err != nil || d < 0 {
		return Override{}, fmt.Errorf("profile %s: %s %q: want a duration such as 700ms or 2s", p.Name, setting, value)
	}
	o := Override{Setting: setting, From: field.String(), To: d.String()}
	*field = d
	return o, nil
}

// Validate checks that the profile is usable by a referee.
func (p *Profile) Validate() error {
	switch p.Time {
	case PerMove:
		if p.MoveLimit <= 0 || p.FirstMoveLimit <= 0 {
			return fmt.Errorf("profile %s: per-move limits must be positive", p.Name)
		}
	case CPUBudget:
		if p.Budget <= 0 {
			return fmt.Errorf("profile %s: budget must be positive", p.Name)
		}
	default:
		return fmt.Errorf("profile %s: unknown time model %q", p.Name, p.Time)
	}
	if p.Processes != "" && !slices.Contains(ProcessRules(), p.Processes) {
		return fmt.Errorf("profile %s: unknown process rule %q", p.Name, p.Processes)
	}
	for name, v := range p.memorySettings() {
		if *v < 0 {
			return fmt.Errorf("profile %s: %s %d is negative", p.Name, name, *v)
		}
	}
	if p.MaxReplyBytes < 0 || p.MaxReplyBytes > MaxReplyBytesCeiling {
		return fmt.Errorf("profile %s: max reply size %d bytes outside 0..%d", p.Name, p.MaxReplyBytes, MaxReplyBytesCeiling)
	}
	for f, pen := range p.Penalties {
		switch pen {
		case Loss, RandomMove, SkipTurn, AsDead, AsTimeout:
		default:
			return fmt.Errorf("profile %s: unknown penalty %q for %s", p.Name, pen, f)
		}
	}
	// "as-timeout" and "as-dead" must end in a penalty that does something.
	for _, f := range Failures() {
		seen := map[Failure]bool{}
		for g := f; ; {
			if seen[g] {
				return fmt.Errorf("profile %s: the penalty for %s refers back to itself (%s)", p.Name, f, p.PenaltyFor(g))
			}
			seen[g] = true
			switch p.PenaltyFor(g) {
			case AsTimeout:
				g = FailTimeout
				continue
			case AsDead:
				g = FailDead
				continue
			}
			break
		}
	}
	return nil
}
