package buildinfo

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestStampAndString(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.24.1", Main: debug.Module{Path: "arena", Version: "(devel)"},
		Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
			{Key: "vcs.time", Value: "2026-11-27T01:00:00Z"},
			{Key: "vcs.modified", Value: "true"},
		}}
	in := FromBuildInfo(bi)
	if got, want := in.Stamp(), "arena (devel) rev 0123456789ab+modified go1.24.1"; got != want {
		t.Errorf("Stamp() = %q, want %q", got, want)
	}
	s := in.String()
	for _, want := range []string{"arena (devel)\n", "module:   arena\n", "revision: 0123456789abcdef0123456789abcdef01234567\n",
		"time:     2026-11-27T01:00:00Z\n", "modified: true\n", "go:       go1.24.1\n"} {
		if !strings.Contains(s, want) {
			t.Errorf("String() lacks %q:\n%s", want, s)
		}
	}
	bare := FromBuildInfo(&debug.BuildInfo{GoVersion: "go1.24.1", Main: debug.Module{Path: "arena", Version: "v1.2.3"}})
	if got := bare.Stamp(); got != "arena v1.2.3 go1.24.1" {
		t.Errorf("unstamped Stamp() = %q", got)
	}
	if !strings.Contains(bare.String(), "revision: not stamped") {
		t.Errorf("unstamped String():\n%s", bare.String())
	}
}

// The running test binary has build information: its Go version at least.
func TestCurrent(t *testing.T) {
	if in := Current(); !strings.HasPrefix(in.Go, "go") || !strings.HasPrefix(in.Stamp(), "arena ") {
		t.Errorf("Current() = %+v", in)
	}
}
