package main

import (
	"context"
	"fmt"

	"arena/agents/course"
)

// checkAgent fails early, before any game starts, on an agent reference
// that cannot be started: an unknown name, a missing file, a script that
// does not compile, a course agent whose runtime or modules are missing.
func (e *env) checkAgent(ref, game string) error {
	if _, err := e.launcher.Resolve(ref); err != nil {
		return err
	}
	for _, check := range e.preflight {
		if err := check(ref); err != nil {
			return fmt.Errorf("agent %s: %w", ref, err)
		}
	}
	if err := course.CheckRef(context.Background(), ref, game); err != nil {
		return fmt.Errorf("agent %s: %w", ref, err)
	}
	return nil
}
