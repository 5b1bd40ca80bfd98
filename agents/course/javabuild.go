package course

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"arena/agents/course/courseref"
	"arena/internal/childcmd"
)

// defaultStudentClass is the class the course's Autoplay and tournament
// ran.
const defaultStudentClass = "student_player.StudentPlayer"

// javaBuild is a compiled COMP424 repository.
type javaBuild struct {
	Root      string // the repository (working directory of the client)
	Classpath string // compiled classes (the cache) or the committed bin/
}

// cacheDir is where compiled repositories are kept: the reference's
// "cache" option, $ARENA_COURSE_CACHE, or the user's cache directory.
func cacheDir(r Ref) (string, error) {
	if d := r.Params["cache"]; d != "" {
		return filepath.Abs(d)
	}
	if d := os.Getenv("ARENA_COURSE_CACHE"); d != "" {
		return filepath.Abs(d)
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache folder for compiled course repositories (set ARENA_COURSE_CACHE): %w", err)
	}
	return filepath.Join(d, "arena", "comp424"), nil
}

// buildJava compiles the repository's src/ once into the cache, keyed by
// the content hash of src/ and the files given to javac; a repository without
// src/ runs from its committed bin/. A committed bin/ is never preferred
// over src/: it can be stale or incomplete. progress hears of a compile
// (nil: nothing is said).
func buildJava(ctx context.Context, r Ref, class string, progress io.Writer) (javaBuild, error) {
	root, err := filepath.Abs(r.Path)
	if err != nil {
		return javaBuild{}, err
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return javaBuild{}, fmt.Errorf("course repository %s: not a folder (give the folder that holds src/)", r.Path)
	}
	src := filepath.Join(root, "src")
	if _, err := os.Stat(filepath.Join(src, "boardgame", "Client.java")); err != nil {
		bin := filepath.Join(root, "bin")
		if _, err := os.Stat(filepath.Join(bin, "boardgame", "Client.class")); err == nil {
			return javaBuild{Root: root, Classpath: bin}, nil
		}
		return javaBuild{}, fmt.Errorf("course repository %s: no src/boardgame/Client.java and no bin/boardgame/Client.class (is this the course repository?)", r.Path)
	}
	sum, err := courseref.Hash(src)
	if err != nil {
		return javaBuild{}, err
	}
	files, err := studentSources(src, class)
	if err != nil {
		return javaBuild{}, err
	}
	// Keyed by what javac is given, not by the class: the players of one
	// student package compile to one entry.
	key := sha256.New()
	key.Write([]byte(sum))
	for _, f := range files {
		rel, _ := filepath.Rel(src, f)
		key.Write([]byte("\x00" + rel))
	}
	base, err := cacheDir(r)
	if err != nil {
		return javaBuild{}, err
	}
	out := filepath.Join(base, hex.EncodeToString(key.Sum(nil)[:12]))
	classes := filepath.Join(out, "classes")
	if _, err := os.Stat(filepath.Join(out, "ok")); err == nil {
		return javaBuild{Root: root, Classpath: classes}, nil
	}
	// javac is needed only to fill the cache: a sandboxed agent finds its
	// repository compiled by the arena (Prepare) and runs java alone.
	_, javac, err := javaTools(r)
	if err != nil {
		return javaBuild{}, err
	}
	if err := checkJavac(ctx, javac); err != nil {
		return javaBuild{}, err
	}
	// Build in a private folder and rename it into place, so concurrent
	// games never see a half-written cache entry.
	if err := os.MkdirAll(base, 0o755); err != nil {
		return javaBuild{}, err
	}
	tmp, err := os.MkdirTemp(base, "build-")
	if err != nil {
		return javaBuild{}, err
	}
	defer os.RemoveAll(tmp)
	// A sandboxed client runs as an unprivileged user: the entry must be
	// readable by all (MkdirTemp makes it 0700).
	if err := os.Chmod(tmp, 0o755); err != nil {
		return javaBuild{}, err
	}
	args := []string{"-nowarn", "-encoding", "UTF-8", "-proc:none", "-implicit:class",
		"-d", filepath.Join(tmp, "classes"), "-sourcepath", src}
	args = append(args, javacJVM...)
	args = append(args, files...)
	cctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	cmd := childcmd.Command(cctx, javac, args...)
	cmd.Dir = root
	done := phase(progress, "compiling course repository "+r.Path+" (javac)")
	msg, err := cmd.CombinedOutput()
	done(err)
	if err != nil {
		return javaBuild{}, compileError(root, msg, err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "ok"), []byte(sum+"\n"), 0o644); err != nil {
		return javaBuild{}, err
	}
	if err := os.Rename(tmp, out); err != nil {
		// Another game finished the same build first.
		if _, serr := os.Stat(filepath.Join(out, "ok")); serr != nil {
			return javaBuild{}, fmt.Errorf("cache %s: %w", out, err)
		}
	}
	return javaBuild{Root: root, Classpath: classes}, nil
}

var javaPackage = regexp.MustCompile(`(?m)^\s*package\s+([\w.]+)\s*;`)

// studentSources are the files given to javac by name: the framework's
// Client, every file of the student's package (student_player and its
// sub-packages, wherever in src/ the file sits: some repositories keep
// StudentPlayer outside its folder), and the player class's file. The
// rest of the framework is compiled only as far as those files use it
// (-sourcepath), so the sample players, Autoplay and a GreedyBohnenspielPlayer
// whose helper the student deleted are left out.
func studentSources(src, class string) ([]string, error) {
	files := []string{filepath.Join(src, "boardgame", "Client.java")}
	pkgOf := func(c string) string {
		if i := strings.LastIndexByte(c, '.'); i >= 0 {
			return c[:i]
		}
		return ""
	}
	classPkg, className := pkgOf(class), class[strings.LastIndexByte(class, '.')+1:]
	found := false
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(p, ".java") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		m := javaPackage.FindSubmatch(b)
		pkg := ""
		if m != nil {
			pkg = string(m[1])
		}
		student := pkg == "student_player" || strings.HasPrefix(pkg, "student_player.")
		isClass := pkg == classPkg && strings.TrimSuffix(filepath.Base(p), ".java") == className
		if student || isClass {
			files = append(files, p)
		}
		found = found || isClass
		return nil
	})
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, fmt.Errorf("no source file for the player class %s under %s (want %s.java declaring package %s)", class, src, className, classPkg)
	}
	sort.Strings(files[1:])
	return files, nil
}

var javacError = regexp.MustCompile(`(?m)^(.+\.java):(\d+): error: (.*)$`)

// compileError names the file (relative to the repository) and line of
// the first javac error, then javac's full report.
func compileError(root string, out []byte, err error) error {
	m := javacError.FindSubmatch(out)
	if m == nil {
		return fmt.Errorf("javac failed (%v): %s", err, bytes.TrimSpace(out))
	}
	file := string(m[1])
	if rel, rerr := filepath.Rel(root, file); rerr == nil && !strings.HasPrefix(rel, "..") {
		file = rel
	}
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() && len(lines) < 20 {
		lines = append(lines, sc.Text())
	}
	return fmt.Errorf("%s:%s: does not compile: %s\n%s", file, m[2], m[3], strings.Join(lines, "\n"))
}
