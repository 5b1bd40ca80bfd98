// Command fixture is an SDK agent that fails in one chosen way, for the
// tests of arena check. The way is the binary's name (the tests link one
// build under several names): ok, slow, late, illegal, unparseable,
// crash, noise, memory, cpu, version, chatty, error, open.
package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"arena/plugins/protocol"
	"arena/plugins/sdk"
)

type fixture struct {
	mode  string
	moves int
	game  sdk.Game
	hold  [][]byte
	sink  int
}

// cpuTime is the CPU time this process used so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func (f *fixture) Start(_ context.Context, g sdk.Game) error {
	f.game = g
	if f.mode == "open" {
		return fmt.Errorf("fixture open: cannot load my opening book")
	}
	return nil
}

func (f *fixture) Move(ctx context.Context, t sdk.Turn) (string, error) {
	f.moves++
	// Misbehave on the second move, so the first shows the agent works.
	if f.moves != 2 {
		return t.Legal[0], nil
	}
	fmt.Fprintf(os.Stderr, "fixture %s: misbehaving at ply %d\n", f.mode, t.Ply)
	c := f.game.Clock
	switch f.mode {
	case "slow":
		time.Sleep(c.MoveLimit + c.Cushion + time.Second)
	case "late":
		time.Sleep(c.MoveLimit + c.Cushion/2)
	case "illegal":
		return fmt.Sprintf("NOTHING %d", t.Seat), nil
	case "unparseable":
		return "hello world", nil
	case "error":
		return "", fmt.Errorf("fixture error: no idea what to play")
	case "crash":
		// A panic outside the Move call kills the process; the runtime
		// writes its trace straight to file descriptor 2.
		go func() { panic(fmt.Sprintf("fixture crash: misbehaving at ply %d", t.Ply)) }()
		select {}
	case "memory":
		// Touch every page so it is resident.
		for range 40 {
			b := make([]byte, 8<<20)
			for i := range b {
				b[i] = 1
			}
			f.hold = append(f.hold, b)
			time.Sleep(5 * time.Millisecond)
		}
	case "cpu":
		// Burn CPU time, not wall time: on a loaded machine a wall-clock
		// loop may get little of the processor.
		for cpuTime() < c.Budget+500*time.Millisecond {
			for i := range 100000 {
				f.sink += i
			}
		}
	case "chatty":
		fmt.Println("thinking about", t.Legal[0])
	}
	return t.Legal[0], nil
}

func main() {
	mode := strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe")
	var opts []sdk.Option
	switch mode {
	case "noise":
		fmt.Println("hello from the agent")
	case "version":
		opts = append(opts, sdk.WithProtocolVersion(protocol.Version+1))
	}
	sdk.Serve(&fixture{mode: mode}, opts...)
}
