package league

import (
	"context"
	"fmt"
	"io"

	"arena/arena/entrants"
	"arena/arena/league/gobuild"
	"arena/arena/league/leaguefile"
)

// Prepare builds the Go package agents of every league into the cache
// (once per distinct package) and fills in their launch paths and hashes.
// log receives one line per build. A submission (entrants) that does not
// build is an error too; Run leaves such submissions out instead.
func Prepare(ctx context.Context, s *leaguefile.Spec, log io.Writer) error {
	refused, err := prepare(ctx, s, log)
	if err == nil && len(refused) > 0 {
		err = &EntrantsRefusedError{Refused: refused}
	}
	return err
}

// prepare is Prepare with the submissions that do not build returned as
// refusals, their agents left unbuilt.
func prepare(ctx context.Context, s *leaguefile.Spec, log io.Writer) ([]entrants.Refusal, error) {
	var refused []entrants.Refusal
	failed := map[string]bool{}
	built := map[string]*leaguefile.Agent{}
	// One builder: one `go env` for all the Go entrants.
	b := &gobuild.Builder{CacheDir: s.CacheDir, Log: log}
	for _, l := range s.Leagues {
		for _, a := range l.Agents {
			if a.Kind != leaguefile.KindGo {
				continue
			}
			if b, ok := built[a.Path]; ok {
				a.Launch, a.Hash = b.Launch, b.Hash
				continue
			}
			if failed[a.Path] {
				continue
			}
			bin, err := b.Package(ctx, a.Path)
			if err != nil && a.Source != "" && ctx.Err() == nil {
				failed[a.Path] = true
				refused = append(refused, entrants.Refusal{Name: a.Name, Source: a.Source,
					Reason: "does not build: " + err.Error(), Fix: "make it a main package that builds with `go build` against the arena SDK"})
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("%s: agent %s (%s): %w", s.File, a.Name, a.Ref, err)
			}
			h, err := leaguefile.FileHash(bin)
			if err != nil {
				return nil, fmt.Errorf("agent %s: %w", a.Name, err)
			}
			a.Launch, a.Hash = bin, h
			built[a.Path] = a
		}
	}
	return refused, nil
}
