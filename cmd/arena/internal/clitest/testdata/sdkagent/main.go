// Command sdkagent is the smallest agent an author can write with the SDK:
// it plays the first legal move. Tests build it and enter it by path.
package main

import (
	"context"
	"errors"

	"arena/plugins/sdk"
)

type firstLegal struct{}

func (firstLegal) Move(_ context.Context, t sdk.Turn) (string, error) {
	if len(t.Legal) == 0 {
		return "", errors.New("no legal move")
	}
	return t.Legal[0], nil
}

func main() { sdk.Serve(firstLegal{}) }
