package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// cachexReferee runs games with the COMP30024 2022 course referee, in
// process as the course did: python -m referee -t 60 -s 100 N RED BLUE.
type cachexReferee struct {
	dir    string // holds referee/ and the player packages
	python string
	n      int
}

const cachexOpponent = "random_player"

// prepareCachex copies the course's referee package from a skeleton
// folder and writes the bench's packages beside it.
func prepareCachex(skeleton, to string) error {
	if _, err := os.Stat(filepath.Join(skeleton, "referee", "player.py")); err != nil {
		return fmt.Errorf("%s is not the course's Cachex skeleton (no referee/player.py)", skeleton)
	}
	if err := copyTree(filepath.Join(skeleton, "referee"), filepath.Join(to, "referee"), nil); err != nil {
		return err
	}
	return writeEmbedded("agents/cachex", to)
}

// play runs one game of pkg (a package, or package:Class) against the
// bench's random player; first says whether pkg is red (moves first).
func (c *cachexReferee) play(ctx context.Context, pkg string, first bool) (tally, error) {
	red, blue, seat := pkg, cachexOpponent, "player 1"
	if !first {
		red, blue, seat = cachexOpponent, pkg, "player 2"
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.python, "-m", "referee", "-v", "1", "-t", "60", "-s", "100", fmt.Sprint(c.n), red, blue)
	cmd.Dir = c.dir
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		return tally{}, fmt.Errorf("the course's referee did not end the game in 10 minutes")
	}
	t := readCachexResult(string(out), seat)
	if t.games == 0 {
		return t, fmt.Errorf("the course's referee gave no result (%v): %s", err, tail(string(out), 600))
	}
	return t, nil
}

var cachexEnd = regexp.MustCompile(`(?m)^\s*\**\s*(winner: \w+|draw: .*|error: .*)$`)

// readCachexResult reads the referee's last result line and, after an
// error, the comment that says why: "players exceeded shared space limit"
// (the course named no player for space), "player N exceeded available
// time".
func readCachexResult(out, seat string) tally {
	ends := cachexEnd.FindAllStringSubmatch(out, -1)
	if len(ends) == 0 {
		return tally{}
	}
	t := tally{games: 1}
	// At -v 1 the referee says "player 1 (red) returned action: …" for
	// every action.
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimLeft(line, "* ")
		if strings.HasPrefix(line, seat+" (") && strings.Contains(line, " returned action") {
			t.moves++
		}
	}
	end := ends[len(ends)-1][1]
	if !strings.HasPrefix(end, "error:") {
		return t
	}
	switch {
	case strings.Contains(out, "exceeded shared space limit"):
		t.memory++
		t.lost++
	case strings.Contains(out, seat+" exceeded available time"):
		t.time++
		t.lost++
	case strings.Contains(out, "Traceback") || strings.Contains(out, "invalid action"):
		t.died++
	}
	return t
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
