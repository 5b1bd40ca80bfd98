package course

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
		sib, _ := filepath.Glob(filepath.Join(filepath.Dir(path), "*.py"))
		sort.Strings(sib)
		for _, f := range sib {
			if f == path {
				continue
			}
			if err := hashNamed(h, filepath.Base(f), f); err != nil {
				return "", err
			}
		}
		return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
	}
	var files []string
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != path && skipDirs[d.Name()] {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("hash %s: %w", path, err)
	}
	sort.Strings(files)
	for _, f := range files {
		rel, _ := filepath.Rel(path, f)
		if err := hashNamed(h, filepath.ToSlash(rel), f); err != nil {
			return "", err
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
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
