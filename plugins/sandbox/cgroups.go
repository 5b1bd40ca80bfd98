package sandbox

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
)

// Hierarchy is one mounted cgroup hierarchy.
type Hierarchy struct {
	Version     int      // 1 or 2
	Path        string   // where it is mounted
	Controllers []string // v1: the mount's controllers; v2: cgroup.controllers
	Writable    bool     // whether this process may make groups in it
}

// Cgroups lists the cgroup hierarchies mounted here, read from mounts
// (/proc/self/mounts): machines offer v1 hierarchies under
// /sys/fs/cgroup/NAME, a v2 unified one, or both.
func Cgroups(mounts io.Reader) []Hierarchy {
	var out []Hierarchy
	sc := bufio.NewScanner(mounts)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 {
			continue
		}
		h := Hierarchy{Path: f[1]}
		switch f[2] {
		case "cgroup":
			h.Version = 1
			for _, o := range strings.Split(f[3], ",") {
				switch {
				case o == "rw" || o == "ro" || strings.Contains(o, "=") || strings.HasPrefix(o, "no") || strings.HasSuffix(o, "time"):
				default:
					h.Controllers = append(h.Controllers, o)
				}
			}
		case "cgroup2":
			h.Version = 2
			b, _ := os.ReadFile(filepath.Join(h.Path, "cgroup.controllers"))
			h.Controllers = strings.Fields(string(b))
		default:
			continue
		}
		h.Writable = syscall.Access(h.Path, 2) == nil
		out = append(out, h)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// DescribeCgroups says in one line per hierarchy what cgroups this machine
// offers, or that it offers none.
func DescribeCgroups(hs []Hierarchy) []string {
	if len(hs) == 0 {
		return []string{"none mounted"}
	}
	var out []string
	for _, h := range hs {
		ctl := strings.Join(h.Controllers, ",")
		if ctl == "" {
			ctl = "no controllers"
		}
		w := "read-only to this user"
		if h.Writable {
			w = "writable"
		}
		out = append(out, fmt.Sprintf("v%d %s (%s), %s", h.Version, h.Path, ctl, w))
	}
	return out
}

// MachineCgroups is Cgroups of this process's mount table.
func MachineCgroups() []Hierarchy {
	f, err := os.Open("/proc/self/mounts")
	if err != nil {
		return nil
	}
	defer f.Close()
	return Cgroups(f)
}
