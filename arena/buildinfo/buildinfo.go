// Package buildinfo names the arena build that is running: its module
// version, the VCS revision, time and modified flag the Go toolchain
// stamped into the binary, and the Go version. Records and standings carry
// it, so a result says which arena refereed it.
package buildinfo

import (
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
)

// Info is one build's identity.
type Info struct {
	Module   string // the main module's path
	Version  string // its module version; "(devel)" for a build from a checkout
	Revision string // the VCS revision, "" when the build was not stamped
	Time     string // the revision's commit time (RFC 3339)
	Modified bool   // the work tree had changes the revision lacks
	Go       string // the Go version that built it
}

// FromBuildInfo reads what the toolchain recorded.
func FromBuildInfo(bi *debug.BuildInfo) Info {
	in := Info{Module: bi.Main.Path, Version: bi.Main.Version, Go: bi.GoVersion}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Revision = s.Value
		case "vcs.time":
			in.Time = s.Value
		case "vcs.modified":
			in.Modified = s.Value == "true"
		}
	}
	return in
}

var current = sync.OnceValue(func() Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Info{Version: "unknown"}
	}
	return FromBuildInfo(bi)
})

// Current is the running binary's build.
func Current() Info { return current() }

// Stamp is the short form records and standings carry:
// "arena (devel) rev 0123456789ab+modified go1.24.1".
func (in Info) Stamp() string {
	parts := []string{"arena", orUnknown(in.Version)}
	if in.Revision != "" {
		rev := "rev " + short(in.Revision)
		if in.Modified {
			rev += "+modified"
		}
		parts = append(parts, rev)
	}
	if in.Go != "" {
		parts = append(parts, in.Go)
	}
	return strings.Join(parts, " ")
}

// String is the long form `arena version` prints, one fact a line.
func (in Info) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "arena %s\n", orUnknown(in.Version))
	if in.Module != "" {
		fmt.Fprintf(&b, "module:   %s\n", in.Module)
	}
	if in.Revision == "" {
		b.WriteString("revision: not stamped (built outside a VCS checkout, or with -buildvcs=false)\n")
	} else {
		fmt.Fprintf(&b, "revision: %s\n", in.Revision)
		if in.Time != "" {
			fmt.Fprintf(&b, "time:     %s\n", in.Time)
		}
		fmt.Fprintf(&b, "modified: %t\n", in.Modified)
	}
	fmt.Fprintf(&b, "go:       %s\n", orUnknown(in.Go))
	return b.String()
}

func short(rev string) string {
	if len(rev) > 12 {
		return rev[:12]
	}
	return rev
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
