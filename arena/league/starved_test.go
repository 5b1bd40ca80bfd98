package league_test

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"arena/arena/referee"
	"arena/plugins/host"
	"arena/plugins/protocol"
)

// starvedLauncher launches through launch and makes the run-queue
// readings (referee.UsageReader) of every agent scripted, not the
// kernel's, so that which verdicts the machine caused does not depend on
// the machine's load: agent name's second move of a game waits for a CPU
// all the time it takes, while starve (shared by every launch) is above
// zero, which each such move decrements; every other move waits for none.
func starvedLauncher(launch referee.Launcher, name string, starve *atomic.Int64) referee.Launcher {
	return func(ctx context.Context, p referee.Player, o host.Options) (referee.Handle, error) {
		h, err := launch(ctx, p, o)
		if err != nil {
			return nil, err
		}
		return &starvedHandle{Handle: h, target: p.Name == name, starve: starve}, nil
	}
}

type starvedHandle struct {
	referee.Handle
	target bool
	starve *atomic.Int64

	mu     sync.Mutex
	moves  int           // this game's
	waited time.Duration // the scripted run-queue delay so far
	since  time.Time     // the start of a starved move in progress
}

func (h *starvedHandle) Start(ctx context.Context, i protocol.StartInfo) error {
	h.mu.Lock()
	h.moves = 0
	h.mu.Unlock()
	return h.Handle.Start(ctx, i)
}

func (h *starvedHandle) MoveSent(ctx context.Context, req protocol.MoveRequest, sent func()) (string, error) {
	h.mu.Lock()
	h.moves++
	starved := h.target && h.moves == 2 && h.starve.Add(-1) >= 0
	h.mu.Unlock()
	s, ok := h.Handle.(referee.Sender)
	if !ok {
		sent()
	}
	var text string
	var err error
	func() {
		if starved {
			h.mu.Lock()
			h.since = time.Now()
			h.mu.Unlock()
			defer func() {
				h.mu.Lock()
				h.waited += time.Since(h.since)
				h.since = time.Time{}
				h.mu.Unlock()
			}()
		}
		if ok {
			text, err = s.MoveSent(ctx, req, sent)
		} else {
			text, err = h.Handle.Move(ctx, req)
		}
	}()
	return text, err
}

func (h *starvedHandle) Usage() (cpu, runQueue time.Duration, err error) {
	cpu, err = h.Handle.CPUTime()
	h.mu.Lock()
	defer h.mu.Unlock()
	runQueue = h.waited
	if !h.since.IsZero() {
		runQueue += time.Since(h.since)
	}
	return cpu, runQueue, err
}
