// Command forkcost measures what starting a process into the sandbox's
// namespaces costs the process that starts it, against its heap: Go's
// os/exec starts a child by vfork (the parent's memory shared until the
// exec) unless the child gets a new user namespace, which the parent must
// map while the child waits, so it forks and copies the parent's page
// tables; every page the parent then writes faults once. The sandbox needs
// a user namespace, so an agent's start costs more the larger the arena's
// heap:
//
//	go run ./bench/forkcost -n 100 -heaps 0,100,400
//
// For each heap size (megabytes allocated, written and kept live) it
// starts /bin/true n times each way and prints the wall time per start to
// its exit, and the starting process's own CPU time and minor faults per
// start. The namespaces without the user namespace need root (they are
// shown only to separate the namespaces' cost from the fork's).
// docs/performance.md has the results.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"arena/bench/internal/loadavg"
	"arena/plugins/sandbox"
)

func main() {
	n := flag.Int("n", 100, "starts per way and heap size")
	heaps := flag.String("heaps", "0,100,400", "heap sizes to start from, in MB, comma-separated, ascending")
	prog := flag.String("prog", "/bin/true", "the program started (it should exit at once)")
	flag.Parse()
	if err := run(*n, *heaps, *prog); err != nil {
		fmt.Fprintln(os.Stderr, "forkcost:", err)
		os.Exit(1)
	}
}

// way is one way of starting the program.
type way struct {
	name string
	attr func() *syscall.SysProcAttr
}

func ways() []way {
	id := []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Geteuid(), Size: 1}}
	gid := []syscall.SysProcIDMap{{ContainerID: 0, HostID: os.Getegid(), Size: 1}}
	return []way{
		{"plain (vfork)", func() *syscall.SysProcAttr { return nil }},
		{"sandbox's namespaces but the user one (vfork)", func() *syscall.SysProcAttr {
			return &syscall.SysProcAttr{Cloneflags: sandbox.Cloneflags &^ syscall.CLONE_NEWUSER}
		}},
		{"sandbox's namespaces (fork)", func() *syscall.SysProcAttr {
			return &syscall.SysProcAttr{Cloneflags: sandbox.Cloneflags, UidMappings: id, GidMappings: gid,
				Credential: &syscall.Credential{Uid: 0, Gid: 0, NoSetGroups: true}}
		}},
	}
}

// kept holds the heap the starts are made from.
var kept [][]byte

func run(n int, heaps, prog string) error {
	fmt.Printf("load average at the start: %s\n", loadavg.Now())
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "heap MB\tway\twall per start\tstarter's CPU per start\tstarter's minor faults per start\t")
	for _, f := range strings.Split(heaps, ",") {
		mb, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || mb < 0 {
			return fmt.Errorf("-heaps: %q is not a size in MB", f)
		}
		for len(kept) < mb {
			b := make([]byte, 1<<20)
			for i := range b {
				b[i] = 1
			}
			kept = append(kept, b)
		}
		for _, w := range ways() {
			wall, cpu, faults, err := measure(n, prog, w.attr)
			if errors.Is(err, syscall.EPERM) {
				fmt.Fprintf(tw, "%d\t%s\tnot allowed here (%v)\t\t\t\n", mb, w.name, err)
				continue
			}
			if err != nil {
				return fmt.Errorf("%s: %w", w.name, err)
			}
			fmt.Fprintf(tw, "%d\t%s\t%.2f ms\t%.2f ms\t%.0f\t\n", mb, w.name, ms(wall), ms(cpu), faults)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Printf("load average at the end: %s\n", loadavg.Now())
	return nil
}

// measure starts prog n times (after two untimed starts) and returns the
// mean wall time per start, and the starter's own CPU time and minor
// faults per start.
func measure(n int, prog string, attr func() *syscall.SysProcAttr) (wall, cpu time.Duration, faults float64, err error) {
	start := func() error {
		c := exec.Command(prog)
		c.SysProcAttr = attr()
		return c.Run()
	}
	for range 2 {
		if err := start(); err != nil {
			return 0, 0, 0, err
		}
	}
	cpu0, f0 := self()
	t0 := time.Now()
	for range n {
		if err := start(); err != nil {
			return 0, 0, 0, err
		}
	}
	wall = time.Since(t0)
	cpu1, f1 := self()
	return wall / time.Duration(n), (cpu1 - cpu0) / time.Duration(n), float64(f1-f0) / float64(n), nil
}

// self is this process's CPU time (user and system) and minor faults.
func self() (time.Duration, int64) {
	var r syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &r); err != nil {
		return 0, 0
	}
	return time.Duration(r.Utime.Nano() + r.Stime.Nano()), r.Minflt
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
