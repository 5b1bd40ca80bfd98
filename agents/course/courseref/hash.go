// Package courseref is what names a course agent without running it: the
// prefix of its reference and the hash of its content. A league file and
// the cluster need both; neither needs the course runtimes (package
// course), which bring the agent protocol's gRPC with them.
package courseref

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// Prefix starts every course agent reference.
const Prefix = "course:"

// skipDirs are never part of an agent's content: version control and
// caches the runtimes write themselves.
var skipDirs = map[string]bool{".git": true, "__pycache__": true, ".idea": true, ".vscode": true}

// Hash is the content hash of a course agent. For a folder (a COMP424
// repository, a Cachex package): every file under it, relative names and
// contents in sorted order. For a script or bot module: the file and the
// Python modules beside it, which it imports as its own (helpers, the
// course's client library).
func Hash(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	if !fi.IsDir() {
		if err := hashFile(h, path); err != nil {
			return "", err
		}
		for _, f := range Siblings(path) {
			if err := hashNamed(h, filepath.Base(f), f); err != nil {
				return "", err
			}
		}
		return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
	}
	files, err := Files(path)
	if err != nil {
		return "", fmt.Errorf("hash %s: %w", path, err)
	}
	for _, rel := range files {
		if err := hashNamed(h, rel, filepath.Join(path, filepath.FromSlash(rel))); err != nil {
			return "", err
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// Siblings are the Python modules beside a course script, in sorted
// order: part of its content (Hash), since it imports them as its own.
func Siblings(script string) []string {
	sib, _ := filepath.Glob(filepath.Join(filepath.Dir(script), "*.py"))
	sort.Strings(sib)
	out := sib[:0]
	for _, f := range sib {
		if f != script {
			out = append(out, f)
		}
	}
	return out
}

// Files are the files of a course agent's folder that make its content
// (Hash), as slash-separated names relative to dir, in sorted order:
// what a copy of the agent on another machine must hold.
func Files(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != dir && skipDirs[d.Name()] {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	return files, nil
}

// hashNamed adds a file under its name, both NUL-terminated.
func hashNamed(w io.Writer, name, path string) error {
	fmt.Fprintf(w, "%s\x00", name)
	if err := hashFile(w, path); err != nil {
		return err
	}
	_, err := w.Write([]byte{0})
	return err
}

func hashFile(w io.Writer, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := io.Copy(w, f); err != nil {
		return fmt.Errorf("hash %s: %w", path, err)
	}
	return nil
}
