package loadavg

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

func TestNowAndOneMinute(t *testing.T) {
	if _, err := os.Stat("/proc/loadavg"); err != nil {
		if Now() != "unknown" || OneMinute() != "unknown" {
			t.Fatalf("without /proc/loadavg: %q, %q, want unknown", Now(), OneMinute())
		}
		return
	}
	now := strings.Fields(Now())
	if len(now) != 3 {
		t.Fatalf("Now() = %q, want three load averages", Now())
	}
	for _, f := range append(now, OneMinute()) {
		if v, err := strconv.ParseFloat(f, 64); err != nil || v < 0 {
			t.Fatalf("load average %q: %v", f, err)
		}
	}
}
