package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// Host ids handed to sandboxes: slot k maps the init to idBase+2k and the
// agent to idBase+2k+1. The range is far above ordinary users and system
// ids, so no host file is owned by them.
const (
	idBase   = 0x60000000
	maxSlots = 1 << 14
)

// RunDir is the arena's own runtime directory, where it keeps every
// agent's private directory and the id leases when it may write /run.
const RunDir = "/run/arena"

// Base is the directory under which every agent's private directory is
// made: RunDir, or arena-agents in the temporary directory where /run is
// not writable. It is owned by the arena's user with mode 0700: an agent
// is shown its own private directory by a mount, never by a path through
// this one, so neither its modes nor TMPDIR's decide what an agent reaches.
func Base() (string, error) {
	base := RunDir
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil || syscall.Access(filepath.Dir(base), 2) != nil {
		tmp, err := filepath.Abs(os.TempDir())
		if err != nil {
			return "", fmt.Errorf("sandbox: %w", err)
		}
		base = filepath.Join(tmp, "arena-agents")
	}
	if err := os.Mkdir(base, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return "", fmt.Errorf("sandbox: runtime directory: %w", err)
	}
	fi, err := os.Lstat(base)
	if err != nil {
		return "", fmt.Errorf("sandbox: runtime directory: %w", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || !ok || int(st.Uid) != os.Geteuid() {
		return "", fmt.Errorf("sandbox: runtime directory %s is not a directory owned by this user; remove it", base)
	}
	if fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(base, 0o700); err != nil {
			return "", fmt.Errorf("sandbox: runtime directory: %w", err)
		}
	}
	if err := os.Mkdir(filepath.Join(base, ".ids"), 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return "", fmt.Errorf("sandbox: runtime directory: %w", err)
	}
	return base, nil
}

// Lease is a pair of host ids held by one running sandbox. The ids are
// locked with flock on a file per slot, so concurrently running arenas on
// one machine never share them, and a crashed arena's leases lapse.
type Lease struct {
	IDs  IDs
	slot int
	lock *os.File
}

// Acquire leases a free pair of ids; start is where the search begins
// (spreading searches keeps them short).
func Acquire(base string, start int) (*Lease, error) {
	for i := range maxSlots {
		slot := (start + i) % maxSlots
		f, err := os.OpenFile(filepath.Join(base, ".ids", strconv.Itoa(slot)), os.O_CREATE|os.O_RDWR, 0o600)
		if err != nil {
			return nil, fmt.Errorf("sandbox: id lease: %w", err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			continue
		}
		return &Lease{IDs: IDs{Root: idBase + 2*slot, Agent: idBase + 2*slot + 1}, slot: slot, lock: f}, nil
	}
	return nil, fmt.Errorf("sandbox: all %d id slots are in use", maxSlots)
}

// Release gives the ids back; call it only once no process of the
// sandbox remains.
func (l *Lease) Release() {
	if l != nil && l.lock != nil {
		l.lock.Close()
		l.lock = nil
	}
}

// PrivateDir makes the agent's private directory under base: owned by
// the agent's id, mode 0700. Its name starts with the lease's slot, so
// Sweep can tell whether its owner still runs.
func PrivateDir(base string, l *Lease) (string, error) {
	ids := l.IDs
	dir, err := os.MkdirTemp(base, "agent-"+strconv.Itoa(l.slot)+"-")
	if err != nil {
		return "", fmt.Errorf("sandbox: private directory: %w", err)
	}
	if err := os.Chown(dir, ids.Agent, ids.Agent); err != nil {
		os.RemoveAll(dir)
		return "", fmt.Errorf("sandbox: private directory: %w", err)
	}
	return dir, nil
}

// Sweep removes the private directories left by arenas that were killed
// before they could clean up (SIGKILL, a crash): those whose slot nobody
// holds. Holding the slot while removing keeps a new agent from taking it
// meanwhile.
func Sweep(base string) {
	ents, err := os.ReadDir(base)
	if err != nil {
		return
	}
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), "agent-")
		if !ok {
			continue
		}
		num, _, _ := strings.Cut(rest, "-")
		slot, err := strconv.Atoi(num)
		if err != nil || slot < 0 || slot >= maxSlots {
			continue
		}
		f, err := os.OpenFile(filepath.Join(base, ".ids", strconv.Itoa(slot)), os.O_CREATE|os.O_RDWR, 0o600)
		if err != nil {
			continue
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) == nil {
			_ = os.RemoveAll(filepath.Join(base, e.Name()))
		}
		f.Close()
	}
}
