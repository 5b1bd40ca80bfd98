package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"
)

// hexServer runs games with the NYCU 2023 TA server (Server Source
// Code/AI_game.py), as the course did: it reads input.txt (team ids, the
// agents' programs, the free-cell count, the seed), starts each program
// itself and talks to it on localhost:8888, with a 6 s receive timeout
// after which it plays a random move for the silent player.
type hexServer struct {
	dir    string // the server's copy, where input.txt is written
	shim   string // taskkill and tkinter for a server written for Windows with a display
	agents string // one folder per agent: the script, its launcher, its client library
	python string
	free   int
}

// The server is Windows-oriented: before a match it runs "taskkill /im
// PROGRAM" and after it opens a Tk window with the replay. The bench
// gives it a taskkill that does nothing (the bench ends the agents itself)
// and a tkinter whose window ends the server once the game is over: the
// server's own code is not changed.
const (
	hexTaskkill = "#!/bin/sh\nexit 0\n"
	hexTkinter  = "# The bench runs the course's server without a display: the replay\n# window it opens after a game ends the server instead.\nclass Tk:\n    def __init__(self, *args, **kwargs):\n        raise SystemExit(0)\n"
)

// hexTeams are the course's team ids of the bench's two scripts, written
// into each one's copy of the client library as students did.
var hexTeams = map[string]int{"guarded": 1001, "random": 1002}

// prepareHex copies the TA server from a checkout of the course's
// repository and writes each bench script into a folder of its own with
// the repository's client library (its team id set) and a launcher the
// server can start as a program.
func prepareHex(checkout, to, python string) error {
	server := filepath.Join(checkout, "Server Source Code")
	client, err := os.ReadFile(filepath.Join(checkout, "STcpClient_1.py"))
	if _, serr := os.Stat(filepath.Join(server, "AI_game.py")); serr != nil || err != nil {
		return fmt.Errorf("%s is not the course's hex cross-out repository (no Server Source Code/AI_game.py or STcpClient_1.py)", checkout)
	}
	if err := copyTree(server, filepath.Join(to, "server"), nil); err != nil {
		return err
	}
	shim := filepath.Join(to, "shim")
	if err := os.MkdirAll(shim, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(shim, "taskkill"), []byte(hexTaskkill), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(shim, "tkinter.py"), []byte(hexTkinter), 0o644); err != nil {
		return err
	}
	if err := writeEmbedded("agents/hex", filepath.Join(to, "agents")); err != nil {
		return err
	}
	teamLine := regexp.MustCompile(`(?m)^idTeam = \d+`)
	if !teamLine.Match(client) {
		return fmt.Errorf("%s: STcpClient_1.py has no idTeam line to set", checkout)
	}
	for name, id := range hexTeams {
		dir := filepath.Join(to, "agents", name)
		lib := teamLine.ReplaceAll(client, []byte(fmt.Sprintf("idTeam = %d", id)))
		if err := os.WriteFile(filepath.Join(dir, "STcpClient_1.py"), lib, 0o644); err != nil {
			return err
		}
		run := fmt.Sprintf("#!/bin/sh\nexec %q %q\n", python, filepath.Join(dir, "agent.py"))
		if err := os.WriteFile(filepath.Join(dir, "run"), []byte(run), 0o755); err != nil {
			return err
		}
	}
	return nil
}

// play runs one game of the bench script name against its random one;
// first says whether name is player 1 (moves first). seed picks the
// board, as line 6 of input.txt does.
func (h *hexServer) play(ctx context.Context, name string, first bool, seed int) (tally, error) {
	teams := [2]string{name, "random"}
	player := 1
	if !first {
		teams[0], teams[1], player = teams[1], teams[0], 2
	}
	var input strings.Builder
	for _, t := range teams {
		fmt.Fprintf(&input, "%d\n%s\n", hexTeams[t], filepath.Join(h.agents, t, "run"))
	}
	fmt.Fprintf(&input, "%d\n%d\n", h.free, seed)
	if err := os.WriteFile(filepath.Join(h.dir, "input.txt"), []byte(input.String()), 0o644); err != nil {
		return tally{}, err
	}
	// Port 8888 may still be held by the last game's connections.
	for try := 0; ; try++ {
		out, err := h.run(ctx)
		if strings.Contains(out, "Address already in use") && try < 30 {
			select {
			case <-time.After(2 * time.Second):
				continue
			case <-ctx.Done():
				return tally{}, ctx.Err()
			}
		}
		t := readHexResult(out, player)
		if t.games == 0 {
			return t, fmt.Errorf("the course's server gave no result (%v): %s", err, tail(out, 600))
		}
		return t, nil
	}
}

// run starts the server in a process group of its own, which the agents
// it starts share, and ends the group when the server is done.
func (h *hexServer) run(ctx context.Context) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, h.python, "AI_game.py")
	cmd.Dir = h.dir
	cmd.Env = append(os.Environ(), "PYTHONPATH="+h.shim, "PATH="+h.shim+":"+os.Getenv("PATH"), "DISPLAY=")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	out, err := cmd.CombinedOutput()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	if ctx.Err() != nil {
		return string(out), fmt.Errorf("the course's server did not end the game in 10 minutes")
	}
	return string(out), err
}

// readHexResult reads the server's console for player (1 or 2): a
// "player N: MOVE" line per turn, "player N no response." when the 6 s
// receive timed out and the server played a random move for it,
// "movement illegal." (the game is lost) and "disconnected.".
func readHexResult(out string, player int) tally {
	var t tally
	if !strings.Contains(out, "----------END GAME----------") {
		return t
	}
	t.games = 1
	turn := fmt.Sprintf("player %d: ", player)
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == fmt.Sprintf("player %d no response.", player):
			t.substituted++
		case line == turn+"movement illegal.":
			t.lost++
		case line == fmt.Sprintf("player %d disconnected.", player):
			t.died = 1
		case strings.HasPrefix(line, turn):
			t.moves++
		}
	}
	return t
}

func hexContests(o options, work string, ar *arenaSide) ([]contest, error) {
	dir := filepath.Join(work, "hex")
	if err := prepareHex(o.hex, dir, o.python); err != nil {
		return nil, err
	}
	srv := &hexServer{dir: filepath.Join(dir, "server"), shim: filepath.Join(dir, "shim"), agents: filepath.Join(dir, "agents"), python: o.python, free: 30}
	course := func(ctx context.Context, name string, first bool, n int) (tally, error) {
		return srv.play(ctx, name, first, n+1)
	}
	arena := func(ctx context.Context, name string, first bool, n int) (tally, error) {
		ref := "course:" + filepath.Join(dir, "agents", name, "agent.py")
		return ar.play(ctx, "hex-crossout", ref, []string{fmt.Sprintf("free=%d", srv.free), fmt.Sprintf("seed=%d", n+1)}, first, n)
	}
	return []contest{{agent: "guarded", course: course, arena: arena}}, nil
}
