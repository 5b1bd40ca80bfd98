// Package loadavg reads the machine's load averages, which every bench
// reports beside its figures.
package loadavg

import (
	"os"
	"strings"
)

// Now is the 1-, 5- and 15-minute load averages as /proc/loadavg gives
// them ("0.52 0.58 0.59"), or "unknown" where the system does not tell.
func Now() string {
	f := fields()
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// OneMinute is the 1-minute load average, or "unknown".
func OneMinute() string {
	f := fields()
	if len(f) < 1 {
		return "unknown"
	}
	return f[0]
}

func fields() []string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return nil
	}
	return strings.Fields(string(b))
}
