package feedback

import (
	"fmt"
	"strings"

	"arena/arena/record"
)

// rules says, per failure kind, what the referee expects of an agent.
var rules = map[string]string{
	"timeout":     "A move must arrive within the time limit; a reply that does not arrive in time is a timeout.",
	"late":        "A move must arrive within the time limit; a reply that arrives after it, within the referee's small cushion, is late: it is thrown away.",
	"unparseable": "A reply must be a move written in the course's move notation.",
	"illegal":     "A reply must be a legal move in the position the agent was given.",
	"error":       "An agent must answer every move request with a move; answering with an error counts as a failure.",
	"dead":        "An agent's process must keep running and answering for the whole game.",
	"memory":      "An agent must stay within the memory limit of the course profile; the referee stops it when it goes over.",
	"no-show":     "An agent must start, complete the plugin handshake and accept the game before the start-up time runs out.",
}

// rule is the referee's rule behind a failure kind, in words.
func rule(kind string) string {
	if r, ok := rules[kind]; ok {
		return r
	}
	return fmt.Sprintf("The referee recorded a failure of kind %q.", kind)
}

// consequence says what the course profile did about a failure.
func consequence(penalty string) string {
	switch penalty {
	case "loss":
		return "The course's rule for it: the game is lost."
	case "random-move":
		return "The course's rule for it: the referee played a random legal move in its place."
	case "skip-turn":
		return "The course's rule for it: the turn was skipped and the opponent moved again."
	case "as-timeout":
		return "The course's rule for it: it is treated as a timeout."
	case "as-dead":
		return "The course's rule for it: it is treated as a dead agent."
	case "", "-":
		return "No penalty applied."
	}
	return "The course's rule for it: " + penalty + "."
}

// did says what the agent did, from the referee's record of it.
func did(e record.Event) string {
	s := "What the agent did: " + e.Detail
	if e.Evidence != nil && e.Evidence.PossiblyContention {
		s += " (the machine was busy: possibly not the agent's fault)"
	}
	if !strings.HasSuffix(s, ".") {
		s += "."
	}
	return s
}
