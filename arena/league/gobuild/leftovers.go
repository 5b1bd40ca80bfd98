package gobuild

import (
	"fmt"
	"os"
	"path/filepath"

	"arena/internal/pidsweep"
)

// A build killed mid-way (an arena or a cluster worker killed, its go
// command with it) leaves two things behind: its binary's temporary file
// beside the key's final name, and the go command's own work folder,
// whose compile and link children finish their step orphaned. Both carry
// the host and the pid of the process that built them, so the next build
// on the same host removes those whose process is gone. The host keeps a
// cache folder shared between machines from judging another machine's
// pids.

// host is this machine's name in the leftovers' names.
func host() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "localhost"
	}
	return h
}

// owner names the files of this process's builds: host and pid.
func owner() string { return fmt.Sprintf("%s-%d", host(), os.Getpid()) }

// tmpSuffix is the part of a binary's temporary name after its final one.
func tmpSuffix() string { return ".tmp-" + owner() }

// workRoot is where builds' work folders go: the user's GOTMPDIR where it
// is set, else the cache's own folder.
func workRoot(cacheDir string) string {
	if d := os.Getenv("GOTMPDIR"); d != "" {
		return d
	}
	return filepath.Join(cacheDir, "gotmp")
}

// workPrefix starts the name of every build's work folder.
const workPrefix = "arena-build-"

// newWorkDir sweeps the work folders of this host's dead builds from root
// and makes one for this build, to be given to go as GOTMPDIR.
func newWorkDir(root string) (string, error) {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", fmt.Errorf("go's work folder: %w", err)
	}
	pidsweep.Dir(root, workPrefix+host()+"-", "-", true)
	d, err := os.MkdirTemp(root, workPrefix+owner()+"-")
	if err != nil {
		return "", fmt.Errorf("go's work folder: %w", err)
	}
	return d, nil
}
