// Package slotstest gives a test binary CPU slot lock files of its own.
package slotstest

import (
	"fmt"
	"os"

	"arena/arena/slots"
)

// Private points this process's leagues, and every arena process it
// starts, at CPU slot lock files in a new temporary folder, and returns
// the folder for the caller to remove when its tests end. They share the
// slots among themselves as the leagues of one machine do, but never wait
// for the slots of another arena process on the machine (another test
// binary's leagues, a user's league), which could hold them for minutes
// and made a two-game league take from 1 s to 30 s on a shared machine.
func Private() (string, error) {
	dir, err := os.MkdirTemp("", "arena-test-slots-")
	if err != nil {
		return "", fmt.Errorf("slot directory for the tests: %w", err)
	}
	if err := os.Setenv(slots.DirEnv, dir); err != nil {
		os.Remove(dir)
		return "", fmt.Errorf("slot directory for the tests: %w", err)
	}
	return dir, nil
}
