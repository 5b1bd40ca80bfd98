package engine_test

import (
	"strings"
	"testing"
	"time"

	"arena/engine"
	"arena/games/bohnenspiel"
)

func TestMoveErrorText(t *testing.T) {
	cases := []struct {
		e    engine.MoveError
		want string
	}{
		{engine.MoveError{Kind: engine.Illegal, Text: "PIT 9"}, `illegal move "PIT 9"`},
		{engine.MoveError{Kind: engine.Illegal, Text: "PIT 9", Detail: "no pit 9"}, `illegal move "PIT 9": no pit 9`},
		{engine.MoveError{Kind: engine.Illegal, Text: "PIT 9", Reason: "ILLEGAL MOVE"}, `illegal move "PIT 9" (ILLEGAL MOVE)`},
		{engine.MoveError{Kind: engine.Illegal, Text: "PIT 9", Detail: "no pit 9", Reason: "ILLEGAL MOVE"}, `illegal move "PIT 9": no pit 9 (ILLEGAL MOVE)`},
		// The course reason said once when it is also the detail.
		{engine.MoveError{Kind: engine.Illegal, Text: "PIT 9", Detail: "ILLEGAL MOVE", Reason: "ILLEGAL MOVE"}, `illegal move "PIT 9": ILLEGAL MOVE`},
	}
	for _, c := range cases {
		if got := c.e.Error(); got != c.want {
			t.Errorf("Error() = %q, want %q", got, c.want)
		}
	}
}

func TestParamsCheckMessages(t *testing.T) {
	if err := (engine.Params{"n": "7"}).Check("cachex", "n"); err != nil {
		t.Fatalf("a known parameter refused: %v", err)
	}
	err := (engine.Params{"x": "1"}).Check("bohnenspiel")
	if err == nil || err.Error() != "game bohnenspiel takes no parameters, got [x]" {
		t.Fatalf("no parameters allowed: %v", err)
	}
	err = (engine.Params{"y": "1", "x": "1"}).Check("cachex", "n")
	if err == nil || err.Error() != "game cachex: unknown parameter(s) [x y] (known: [n])" {
		t.Fatalf("unknown parameters: %v", err)
	}
}

// Zero is a valid override value (memory-mb 0 means no limit, a zero
// cushion is no cushion); negative values are refused.
func TestProfileOverrideBoundaries(t *testing.T) {
	p, _ := bohnenspiel.Game{}.Profile(nil)
	c := p.Clone()
	if _, err := c.Apply("memory-mb", "0"); err != nil || c.MemoryMB != 0 {
		t.Fatalf("memory-mb 0: %v (%d)", err, c.MemoryMB)
	}
	if _, err := c.Apply("cushion", "0s"); err != nil || c.Cushion != 0 {
		t.Fatalf("cushion 0s: %v (%v)", err, c.Cushion)
	}
	if _, err := c.Apply("memory-mb", "1048576"); err != nil || c.MemoryMB != engine.MaxMemoryMB {
		t.Fatalf("memory-mb at the maximum: %v (%d)", err, c.MemoryMB)
	}
	for _, bad := range [][2]string{{"memory-mb", "-1"}, {"memory-mb", "1048577"}, {"jvm-heap-mb", "9999999999999"}, {"python-peak-mb", "9223372036854775807"}, {"cushion", "-1ns"}, {"move-limit", "-1s"}} {
		if _, err := c.Apply(bad[0], bad[1]); err == nil || !strings.Contains(err.Error(), bad[0]) {
			t.Errorf("Apply(%s=%s): %v, want refused naming the setting", bad[0], bad[1], err)
		}
	}
}

func TestValidateNeedsPositiveLimits(t *testing.T) {
	p, _ := bohnenspiel.Game{}.Profile(nil)
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, edit := range []func(*engine.Profile){
		func(p *engine.Profile) { p.MoveLimit = 0 },
		func(p *engine.Profile) { p.FirstMoveLimit = 0 },
	} {
		c := p.Clone()
		edit(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "positive") {
			t.Errorf("zero per-move limit validated: %+v (%v)", c, err)
		}
	}
	c := p.Clone()
	c.MoveLimit, c.FirstMoveLimit = time.Nanosecond, time.Nanosecond
	if err := c.Validate(); err != nil {
		t.Errorf("1 ns limits refused: %v", err)
	}
	b := engine.Profile{Name: "b", Time: engine.CPUBudget}
	if err := b.Validate(); err == nil {
		t.Error("a zero CPU budget validated")
	}
	b.Budget = time.Nanosecond
	if err := b.Validate(); err != nil {
		t.Errorf("1 ns budget refused: %v", err)
	}
}

// The process rule: "" reads as builtin; Apply takes the three rules and
// names them when given another; Validate refuses an unknown one.
func TestProcessRule(t *testing.T) {
	p, err := bohnenspiel.Game{}.Profile(nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.ProcessRule() != engine.ProcessesBuiltin {
		t.Errorf("course profile's rule %q, want builtin", p.ProcessRule())
	}
	p.Processes = ""
	if p.ProcessRule() != engine.ProcessesBuiltin {
		t.Errorf("unset rule reads %q, want builtin", p.ProcessRule())
	}
	o, err := p.Apply("processes", "all")
	if err != nil || p.Processes != engine.ProcessesAll || o.String() != "processes: builtin -> all" {
		t.Errorf("Apply(processes=all): %v, %q, %v", o, p.Processes, err)
	}
	if _, err := p.Apply("processes", "sometimes"); err == nil || !strings.Contains(err.Error(), "fresh, builtin, all") {
		t.Errorf("Apply(processes=sometimes): %v", err)
	}
	if err := p.Validate(); err != nil {
		t.Errorf("Validate with rule all: %v", err)
	}
	p.Processes = "sometimes"
	if err := p.Validate(); err == nil {
		t.Error("Validate accepted the rule \"sometimes\"")
	}
}

// The reply limit's ceiling is itself allowed; one byte more is not.
func TestReplyLimitCeiling(t *testing.T) {
	p, err := bohnenspiel.Game{}.Profile(nil)
	if err != nil {
		t.Fatal(err)
	}
	p.MaxReplyBytes = engine.MaxReplyBytesCeiling
	if err := p.Validate(); err != nil {
		t.Errorf("limit at the ceiling: %v", err)
	}
	p.MaxReplyBytes = engine.MaxReplyBytesCeiling + 1
	if err := p.Validate(); err == nil {
		t.Error("limit past the ceiling accepted")
	}
}
