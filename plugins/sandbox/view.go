package sandbox

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Runtime is every host path an agent of any kind sees, read-only, besides
// its own files: the system's programs and libraries (a dynamically linked
// agent, the JDK under /usr/lib/jvm, the Python interpreter and its
// site-packages under /usr/lib/python3*), the few /etc files the dynamic
// linker, the JDK and Python read, and four harmless devices. A pattern
// matches with filepath.Glob; paths missing on this machine are left out.
// Nothing else of the host is in an agent's root: not /home, /root, /tmp,
// /run, /var, /opt, /srv, /mnt, the rest of /etc, nor any entrant's,
// league's or store's directory.
var Runtime = []string{
	"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
	"/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives",
	"/etc/localtime", "/etc/java-*", "/etc/python3*",
	"/dev/null", "/dev/zero", "/dev/random", "/dev/urandom",
}

// Files are written into every agent's root, not shown from the host's:
// its network namespace has only a loopback interface, so the one name it
// can resolve is localhost, and course agents connect to "localhost"
// (the NYCU hex client, the COMP424 client). Without them glibc finds no
// hosts file and getaddrinfo("localhost") fails.
var Files = map[string]string{
	"/etc/hosts":         "127.0.0.1\tlocalhost\n::1\tip6-localhost ip6-loopback\n",
	"/etc/nsswitch.conf": "hosts: files\n",
}

// Links are the symbolic links every agent's /dev holds, as on the host.
var Links = map[string]string{
	"/dev/fd": "/proc/self/fd", "/dev/stdin": "/proc/self/fd/0",
	"/dev/stdout": "/proc/self/fd/1", "/dev/stderr": "/proc/self/fd/2",
}

// RuntimePaths expands Runtime on this machine: every path that exists,
// sorted.
func RuntimePaths() []string {
	var out []string
	for _, pat := range Runtime {
		m, _ := filepath.Glob(pat) // the patterns are constant and valid
		out = append(out, m...)
	}
	sort.Strings(out)
	return out
}

// Mount is one host path shown in the agent's root: a detached mount made
// by the arena (open_tree) and passed by descriptor, attached by the init
// at Path. Descriptors let the init show paths its own id could not reach
// (a 0700 home directory, a go build cache under /root).
type Mount struct {
	FD       int    `json:"fd"`
	Path     string `json:"path"`
	Dir      bool   `json:"dir,omitempty"`
	Writable bool   `json:"writable,omitempty"`
}

// Link is a symbolic link made in the agent's root.
type Link struct {
	Path   string `json:"path"`
	Target string `json:"target"`
}

// view is the agent's whole root, as descriptors to pass and the spec's
// lists.
type view struct {
	files  []*os.File
	mounts []Mount
	links  []Link
}

func (v *view) close() {
	for _, f := range v.files {
		f.Close()
	}
}

// add shows the host path p at the same path: a symbolic link is made
// again in the root (its target then shown if listed too), anything else
// is cloned as a detached mount with whatever is mounted below it.
// firstFD is the descriptor number of the view's first file in the init.
func (v *view) add(p string, writable bool, firstFD int) error {
	fi, err := os.Lstat(p)
	if err != nil {
		return fmt.Errorf("sandbox: show %s: %w", p, err)
	}
	if fi.Mode()&os.ModeSymlink != 0 && !writable {
		target, err := os.Readlink(p)
		if err != nil {
			return fmt.Errorf("sandbox: show %s: %w", p, err)
		}
		if filepath.Dir(p) == "/" || strings.HasPrefix(p, "/dev/") || strings.HasPrefix(p, "/etc/") {
			v.links = append(v.links, Link{Path: p, Target: target})
			return nil
		}
		// An agent file named through a link elsewhere: show what it
		// names, at the name the agent is given.
		if fi, err = os.Stat(p); err != nil {
			return fmt.Errorf("sandbox: show %s: %w", p, err)
		}
	}
	f, err := openTree(p)
	if err != nil {
		return err
	}
	v.mounts = append(v.mounts, Mount{FD: firstFD + len(v.files), Path: p, Dir: fi.IsDir(), Writable: writable})
	v.files = append(v.files, f)
	return nil
}

// addMount shows a copy of the detached mount m as the writable folder
// at p.
func (v *view) addMount(m *os.File, p string, firstFD int) error {
	f, err := dupFile(m, p)
	if err != nil {
		return fmt.Errorf("sandbox: show %s: %w", p, err)
	}
	v.mounts = append(v.mounts, Mount{FD: firstFD + len(v.files), Path: p, Dir: true, Writable: true})
	v.files = append(v.files, f)
	return nil
}

// newView is the root of an agent that reads the files read and the
// folders trees, runs program and writes only dir: the host's folder, or
// the detached mount dirMount where it is not nil. A path under another
// shown one is reached through it.
func newView(program string, read, trees []string, dir string, dirMount *os.File, firstFD int) (*view, error) {
	paths := append(append(append(RuntimePaths(), program), read...), trees...)
	for i, p := range paths {
		paths[i] = filepath.Clean(p)
	}
	sort.Strings(paths)
	paths = compact(paths)
	v := &view{}
	for _, p := range paths {
		if under(p, paths) {
			continue
		}
		if err := v.add(p, false, firstFD); err != nil {
			v.close()
			return nil, err
		}
	}
	// The private directory last: it is the one writable mount, over
	// whatever shown folder might hold it.
	var err error
	if dirMount != nil {
		err = v.addMount(dirMount, dir, firstFD)
	} else {
		err = v.add(dir, true, firstFD)
	}
	if err != nil {
		v.close()
		return nil, err
	}
	for p, t := range Links {
		v.links = append(v.links, Link{Path: p, Target: t})
	}
	sort.Slice(v.links, func(i, j int) bool { return v.links[i].Path < v.links[j].Path })
	return v, nil
}

func compact(sorted []string) []string {
	var out []string
	for i, p := range sorted {
		if i == 0 || p != sorted[i-1] {
			out = append(out, p)
		}
	}
	return out
}
