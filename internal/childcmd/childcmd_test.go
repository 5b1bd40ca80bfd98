package childcmd_test

import (
	"context"
	"os"
	"testing"
	"time"

	"arena/internal/childcmd"
	"arena/internal/childcmd/childcmdtest"
)

// helperEnv makes the test binary a parent that starts, through Command, a
// child writing its pid to $PIDFILE and sleeping, then waits.
const helperEnv = "CHILDCMD_TEST_PARENT"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		cmd := childcmd.Command(context.Background(), "/bin/sh", "-c", childcmdtest.RecordAndSleep)
		if err := cmd.Start(); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		time.Sleep(time.Hour)
		return
	}
	os.Exit(m.Run())
}

// A child started with Command dies when the process that started it is
// killed, though no context of that process ended.
func TestChildDiesWithItsParent(t *testing.T) {
	t.Parallel()
	childcmdtest.CheckTestBinaryChild(t, t.TempDir(), helperEnv+"=1")
}
