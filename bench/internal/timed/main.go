// Command timed is the benchmarks' SDK agent with a controlled reply time.
// Its behaviour comes from the agent options of the game:
//
//	(none)          answers at once with the first legal move
//	fraction=0.95   answers with a legal move after that fraction of the
//	                time left, counted from the request's arrival
//	never=1         never answers (waits until the arena gives up)
package main

import (
	"context"
	"strconv"
	"time"

	"arena/plugins/sdk"
)

type agent struct {
	fraction float64
	never    bool
}

func (a *agent) Start(_ context.Context, g sdk.Game) error {
	a.fraction, a.never = 0, g.Options["never"] == "1"
	if f, err := strconv.ParseFloat(g.Options["fraction"], 64); err == nil {
		a.fraction = f
	}
	return nil
}

func (a *agent) Move(ctx context.Context, t sdk.Turn) (string, error) {
	arrived := time.Now()
	if a.never {
		<-ctx.Done()
		return "", ctx.Err()
	}
	if a.fraction > 0 {
		wait := time.Duration(a.fraction*float64(t.TimeLeft)) - time.Since(arrived)
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	return t.Legal[0], nil
}

func main() { sdk.Serve(&agent{}) }
