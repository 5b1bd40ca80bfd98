package course

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"arena/engine"
	"arena/games/all"
	"arena/plugins/protocol"
	"arena/plugins/sdk"
)

// cachexAdapter runs a COMP30024 2022 player package as the course
// referee did: Player(colour, n), action() on its turn, turn(colour,
// action) for every action of both sides. The arena measures the CPU time
// of the whole agent process tree, the interpreter included.
type cachexAdapter struct {
	ref Ref
	log *os.File
	py  *pyProc
}

var cachexColour = [2]string{"red", "blue"}

func (c *cachexAdapter) start(ctx context.Context, g sdk.Game) error {
	pkg, err := cachexPackage(c.ref.Path)
	if err != nil {
		return err
	}
	n, err := cachexN(g.Params)
	if err != nil {
		return err
	}
	if g.Seat != 0 && g.Seat != 1 {
		return fmt.Errorf("cachex: seat %d", g.Seat)
	}
	python, err := python(c.ref)
	if err != nil {
		return err
	}
	args := []string{or(c.ref.Params["class"], "Player")}
	if mb, err := strconv.Atoi(g.Options[engine.OptionPythonPeakMB]); err == nil && mb > 0 {
		// The course referee's space check, made by the host after each
		// call (VmPeak above the size after imports).
		args = append(args, strconv.Itoa(mb))
	}
	c.py, err = startPython(python, "cachex", pkg, args, filepath.Dir(pkg), c.log)
	if err != nil {
		return err
	}
	rep, err := c.py.read(ctx)
	if err != nil {
		return fmt.Errorf("package %s: %w", pkg, err)
	}
	if rep.Error != "" {
		return errors.New(moduleHint(python, rep.Error))
	}
	rep, err = c.py.call(ctx, map[string]any{"op": "init", "colour": cachexColour[g.Seat], "n": n})
	if err != nil {
		return fmt.Errorf("package %s: %w", pkg, err)
	}
	if rep.Error != "" {
		return errors.New(rep.Error)
	}
	c.py.armed.Store(true)
	return nil
}

// cachexN is the board size: the game's parameter, else its default.
func cachexN(p map[string]string) (int, error) {
	g, err := all.Registry().Lookup("cachex")
	if err != nil {
		return 0, err
	}
	for _, pi := range g.Info().Params {
		if pi.Name == "n" {
			n, err := engine.Params(p).Int("n", 0)
			if err == nil && n == 0 {
				n, err = strconv.Atoi(pi.Default)
			}
			if err != nil {
				return 0, fmt.Errorf("cachex: board size: %w", err)
			}
			return n, nil
		}
	}
	return 0, fmt.Errorf("cachex: the game has no parameter n")
}

// cachexPackage checks that PATH is a package folder.
func cachexPackage(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("player package %s: %w", path, err)
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("player package %s is not a folder: give the package folder (the one with __init__.py)", path)
	}
	if _, err := os.Stat(filepath.Join(abs, "__init__.py")); err != nil {
		return "", fmt.Errorf("player package %s has no __init__.py (the course referee imports the folder as a package)", path)
	}
	return abs, nil
}

func (c *cachexAdapter) move(ctx context.Context, _ sdk.Turn) (string, error) {
	rep, err := c.py.call(ctx, map[string]string{"op": "action"})
	if err != nil {
		return "", err
	}
	if rep.Error != "" {
		return "", errors.New(rep.Error)
	}
	return rep.Move, nil
}

// observe is turn(colour, action), for the mover's own actions too.
func (c *cachexAdapter) observe(ctx context.Context, seat int, move string, _ int) error {
	if seat != 0 && seat != 1 {
		return fmt.Errorf("cachex: move by seat %d", seat)
	}
	rep, err := c.py.call(ctx, map[string]string{"op": "turn", "colour": cachexColour[seat], "action": move})
	if err != nil {
		return err
	}
	if rep.Error != "" {
		return errors.New(rep.Error)
	}
	return nil
}

func (c *cachexAdapter) close(context.Context, *protocol.EndInfo) {
	if c.py != nil {
		c.py.close()
	}
}
