package course

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"arena/plugins/protocol"
	"arena/plugins/sdk"
)

// dotsAdapter runs an AI Gaming Dots-and-Boxes bot: a Python module whose
// calculate_move(gamestate) is called once per move with the platform's
// dictionary from the bot's point of view.
type dotsAdapter struct {
	ref Ref
	log *os.File
	py  *pyProc
}

func (d *dotsAdapter) start(ctx context.Context, g sdk.Game) error {
	file, err := dotsModule(d.ref.Path)
	if err != nil {
		return err
	}
	python, err := python(d.ref)
	if err != nil {
		return err
	}
	d.py, err = startPython(python, "dab", file, nil, filepath.Dir(file), d.log)
	if err != nil {
		return err
	}
	rep, err := d.py.read(ctx)
	if err != nil {
		return fmt.Errorf("bot %s: %w", file, err)
	}
	if rep.Error != "" {
		return errors.New(moduleHint(python, rep.Error))
	}
	d.py.armed.Store(true)
	return nil
}

// dotsModule finds the bot's file: PATH itself, or PATH.py.
func dotsModule(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("bot module %s: %w", path, err)
	}
	if fi.IsDir() {
		return "", fmt.Errorf("bot module %s is a directory: give the .py file that defines calculate_move", path)
	}
	return abs, nil
}

func (d *dotsAdapter) move(ctx context.Context, t sdk.Turn) (string, error) {
	if len(t.View) == 0 {
		return "", fmt.Errorf("the arena sent no gamestate view")
	}
	rep, err := d.py.call(ctx, map[string]string{"op": "move", "view": string(t.View)})
	if err != nil {
		return "", err
	}
	if rep.Error != "" {
		return "", errors.New(rep.Error)
	}
	return rep.Move, nil
}

func (d *dotsAdapter) observe(context.Context, int, string, int) error { return nil }

func (d *dotsAdapter) close(context.Context, *protocol.EndInfo) {
	if d.py != nil {
		d.py.close()
	}
}
