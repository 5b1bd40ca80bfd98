package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"

	"arena/agents/course"
)

// The Python course agent: a Dots-and-Boxes bot in the course's
// calculate_move shape, deterministic (the first free line), with a
// helper module beside it as students kept theirs.
const (
	coursePython = "/usr/bin/python3"
	courseBot    = "from lines import first_free\n\ndef calculate_move(gamestate):\n    return first_free(gamestate)\n"
	courseHelper = "def first_free(gamestate):\n    for line in gamestate[\"Grid\"]:\n        if line[2] == -1:\n            return [line[0], line[1]]\n"
)

// The Java course agent: a COMP424 repository (Pentago-Twist) whose
// student player takes the first free quadrant centre, else the first
// free cell, and always twists the first quadrant clockwise: deterministic,
// so its verdicts must equal a single-machine run's. Its helper class sits
// in a subpackage, as students kept theirs.
const (
	javaPlayer = `package student_player;

import boardgame.Move;
import pentago_twist.PentagoBoardState;
import pentago_twist.PentagoMove;
import student_player.tactics.Cells;

public class StudentPlayer extends pentago_twist.PentagoPlayer {
    public StudentPlayer() {
        super("260000424");
    }

    @Override
    public Move chooseMove(PentagoBoardState s) {
        int[] cell = Cells.pick(s);
        return new PentagoMove(cell[0], cell[1], 0, 0, player_id);
    }
}
`
	javaHelper = `package student_player.tactics;

import pentago_twist.PentagoBoardState;

public class Cells {
    private static final int[][] CENTRES = {{1, 1}, {1, 4}, {4, 1}, {4, 4}};

    public static int[] pick(PentagoBoardState s) {
        for (int[] c : CENTRES)
            if (s.isEmpty(c[0], c[1]))
                return c;
        for (int x = 0; x < 6; x++)
            for (int y = 0; y < 6; y++)
                if (s.isEmpty(x, y))
                    return new int[] {x, y};
        throw new IllegalStateException("no free cell");
    }
}
`
)

// frameworkRel is the course-shaped stand-in for the COMP424 framework
// (boardgame.Client and the Pentago-Twist board) the course tests use,
// relative to the module's root.
const frameworkRel = "agents/course/testdata/comp424/pentago/src"

// writePython writes the Python course agent into dir and returns its
// reference, or "" with the reason when this machine has no
// /usr/bin/python3.
func writePython(dir string) (ref, why string, err error) {
	if _, err := os.Stat(coursePython); err != nil {
		return "", "no " + coursePython, nil
	}
	bot := filepath.Join(dir, "agents", "bot.py")
	if err := os.MkdirAll(filepath.Dir(bot), 0o755); err != nil {
		return "", "", err
	}
	if err := os.WriteFile(bot, []byte(courseBot), 0o644); err != nil {
		return "", "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "agents", "lines.py"), []byte(courseHelper), 0o644); err != nil {
		return "", "", err
	}
	return course.Prefix + bot + "?python=" + coursePython, "", nil
}

// writeJava assembles the Java course agent's repository in dir (the
// framework's sources and the student's) and returns its reference, or ""
// with the reason when this machine cannot compile or run it.
func writeJava(dir string) (ref, why string, err error) {
	for _, tool := range []string{"javac", "java"} {
		if _, err := exec.LookPath(tool); err != nil {
			return "", "no " + tool + " on PATH", nil
		}
	}
	fw, err := findFramework()
	if err != nil {
		return "", err.Error(), nil
	}
	repo := filepath.Join(dir, "agents", "comp424")
	src := filepath.Join(repo, "src")
	for _, pkg := range []string{"boardgame", "pentago_twist"} {
		if err := copyTree(filepath.Join(fw, pkg), filepath.Join(src, pkg)); err != nil {
			return "", "", err
		}
	}
	files := map[string]string{"student_player/StudentPlayer.java": javaPlayer, "student_player/tactics/Cells.java": javaHelper}
	for rel, body := range files {
		p := filepath.Join(src, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return "", "", err
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return "", "", err
		}
	}
	return course.Prefix + repo, "", nil
}

// findFramework finds the framework's sources above the working directory
// (the module's root, or bench/chaos when tested).
func findFramework() (string, error) {
	d, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			fw := filepath.Join(d, filepath.FromSlash(frameworkRel))
			if _, err := os.Stat(fw); err != nil {
				return "", fmt.Errorf("no COMP424 framework at %s", fw)
			}
			return fw, nil
		}
		up := filepath.Dir(d)
		if up == d {
			return "", errors.New("not inside the arena module: no COMP424 framework to build the Java agent with")
		}
		d = up
	}
}

// copyTree copies the regular files under from into to.
func copyTree(from, to string) error {
	return filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		body, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, body, 0o644)
	})
}

// withJavaCache names cache as the compiled-classes cache of a course
// reference that does not name one, so each worker (and the local run)
// compiles the Java agent into its own cache, once, as separate machines
// would, and nothing is left in the user's cache.
func withJavaCache(ref, cache string) string {
	if cache == "" {
		return ref
	}
	r, err := course.ParseRef(ref)
	if err != nil || r.Params["cache"] != "" {
		return ref
	}
	if r.Params == nil {
		r.Params = map[string]string{}
	}
	r.Params["cache"] = cache
	return r.String()
}

// prepareWith and checkWith are the course agents' preparation hooks of a
// process whose Java compiles go to cache.
func prepareWith(cache string) func(ctx context.Context, ref string, sandboxed bool) (string, []string, error) {
	return func(ctx context.Context, ref string, sandboxed bool) (string, []string, error) {
		return course.Prepare(ctx, withJavaCache(ref, cache), sandboxed)
	}
}

func checkWith(cache string) func(ctx context.Context, ref, game string) error {
	return func(ctx context.Context, ref, game string) error {
		return course.CheckRef(ctx, withJavaCache(ref, cache), game)
	}
}
