package main

import "fmt"

// checkAgent fails early, before any game starts, on an agent reference
// that cannot be started: an unknown name, a missing file, a script that
// does not compile.
func (e *env) checkAgent(ref string) error {
	if _, err := e.launcher.Resolve(ref); err != nil {
		return err
	}
	for _, check := range e.preflight {
		if err := check(ref); err != nil {
			return fmt.Errorf("agent %s: %w", ref, err)
		}
	}
	return nil
}
