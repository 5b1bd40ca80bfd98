package cli

import (
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"

	"arena/plugins/host"
	"arena/plugins/sandbox"
)

func newDoctorCmd(e *Env) *cobra.Command {
	return &cobra.Command{
		Use:   "doctor",
		Short: "Say what this machine supports for containing agents",
		Long: `Probe this machine the way the arena does before the first game: start a
process in new user, PID, network, IPC, mount and UTS namespaces, mount a
fresh /proc there, bring up loopback and make the file system read-only
recursively (mount_setattr), list the cgroup hierarchies (v1 and v2) and
say which one holds agents' trees (their CPU time, memory limit and task
limit) or why /proc is read instead.
Print what works, whether agents will run sandboxed, and what a sandboxed
agent of each kind sees (docs/security.md).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			printSupport(cmd.OutOrStdout(), e)
			return nil
		},
	}
}

// printView writes what a sandboxed agent sees.
func printView(w io.Writer) {
	fmt.Fprintln(w, "an agent sees, read-only:")
	for _, p := range sandbox.RuntimePaths() {
		fmt.Fprintf(w, "  %s\n", p)
	}
	fmt.Fprintln(w, "  /proc of its own PID namespace")
	fmt.Fprintf(w, "  and, writable, its private directory (%d MiB) and %s (%d MiB): tmpfs mounts of its own\n", host.DefaultPrivateDirMB, sandbox.ShmDir, sandbox.ShmMB)
	for _, p := range slices.Sorted(maps.Keys(sandbox.Files)) {
		fmt.Fprintf(w, "  %s, written for it (names localhost only)\n", p)
	}
	for _, v := range host.Views {
		fmt.Fprintf(w, "  %-8s agents also: %s\n", v.Kind, v.Own)
	}
	fmt.Fprintln(w, "  and nothing else: no other entrant's files, results, /home, /root, /tmp or /run")
}

// printSupport writes the launcher's findings about sandboxes.
func printSupport(w io.Writer, e *Env) {
	r := e.Launcher.Support()
	state := func(err error) string {
		if err != nil {
			return "no: " + err.Error()
		}
		return "yes"
	}
	root := "yes"
	if !r.Root {
		root = "no: each agent cannot be mapped to its own unprivileged id"
	}
	fmt.Fprintf(w, "running as root:             %s\n", root)
	if r.Root {
		fmt.Fprintf(w, "new namespaces:              %s (user, pid, net, ipc, mount, uts)\n", state(r.Namespaces))
		if r.Namespaces == nil {
			fmt.Fprintf(w, "fresh /proc:                 %s\n", state(r.Proc))
			fmt.Fprintf(w, "loopback up:                 %s\n", state(r.Loopback))
			fmt.Fprintf(w, "no nested user namespaces:   %s\n", state(r.Nested))
			fmt.Fprintf(w, "mount_setattr (read-only /): %s\n", state(r.ReadOnly))
			fmt.Fprintf(w, "CPU affinity locked:         %s (seccomp: sched_setaffinity answers EPERM, as do io_uring, bpf, userfaultfd, perf events, the key store, x32 calls, vsock and kernel crypto sockets)\n", state(r.Affinity))
			fmt.Fprintf(w, "no System V IPC:             %s\n", state(r.SysVIPC))
			fmt.Fprintf(w, "limits:                      core files 0, open files %d, tasks %d (with cgroups)\n", sandbox.OpenFiles, host.DefaultMaxTasks)
		}
	}
	for i, c := range r.Cgroups {
		label := "cgroups:"
		if i > 0 {
			label = ""
		}
		fmt.Fprintf(w, "%-28s %s\n", label, c)
	}
	fmt.Fprintf(w, "CPU and memory accounting:   %s\n", e.Launcher.Accounting())
	switch {
	case e.Launcher.Sandboxed():
		fmt.Fprintln(w, "agents run: sandboxed, one set of namespaces and two unprivileged ids per agent")
		printView(w)
	case e.Launcher.Isolation == host.IsolationOff:
		fmt.Fprintln(w, "agents run: WITHOUT a sandbox, in process groups, as isolation: off asks")
	default:
		fmt.Fprintf(w, "agents run: not at all: no sandbox here (%s); %s\n", r.Unsupported, host.NoSandboxFix)
	}
	if e.Launcher.Sandboxed() || e.Launcher.Isolation == host.IsolationOff {
		fmt.Fprintf(w, "agent channel:               %s\n", e.Launcher.Channel())
	}
	if len(e.Launcher.Self) > 0 {
		how := "this arena binary (no " + LeanHostName + " of the same build beside it)"
		if filepath.Base(e.Launcher.Self[0]) == LeanHostName {
			how = "the lean " + LeanHostName + " host"
		}
		fmt.Fprintf(w, "agent host:                  %s: %s\n", how, e.Launcher.Self[0])
	}
	if e.Launcher.Sandboxed() {
		init := "the agent host (no " + InitName + " of the same build beside this binary)"
		if e.Launcher.Init != "" {
			init = e.Launcher.Init
		}
		init += ", which becomes the agent by exec; built-in, Lua and course agents: the agent host, which becomes the agent in its own process"
		fmt.Fprintf(w, "sandbox init:                %s\n", init)
	}
}
