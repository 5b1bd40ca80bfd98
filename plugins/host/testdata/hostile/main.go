// Command hostile is an SDK agent that attacks the arena, its opponent or
// the machine in the way its HOSTILE environment variable names, then
// plays the first legal move (or fails, as the attack says). The arena's
// tests run it to show that an attack costs the attacker's own game only.
// What each attack achieved is written to stderr, one "attack:" line each,
// for the tests to read from the record.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"arena/plugins/sdk"
)

func report(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "attack: "+format+"\n", args...)
}

type bot struct {
	attack string
	moves  int
}

func (b *bot) Move(ctx context.Context, t sdk.Turn) (string, error) {
	b.moves++
	if b.moves == 1 {
		b.first()
	}
	switch b.attack {
	case "exit0":
		if b.moves == 3 {
			os.Exit(0)
		}
	case "flood-stderr":
		// As fast as it can, from the first move to the end, while its
		// moves are answered as usual.
		if b.moves == 1 {
			go func() {
				line := []byte(strings.Repeat("x", 1023) + "\n")
				for {
					os.Stderr.Write(line)
				}
			}()
		}
	case "alloc":
		var hold [][]byte
		for {
			p := make([]byte, 16<<20)
			for i := 0; i < len(p); i += 4096 {
				p[i] = 1
			}
			hold = append(hold, p)
		}
	}
	if end, ok := strings.CutPrefix(b.attack, "words-"); ok {
		return b.lastWords(end, t)
	}
	if b.attack == "garbage" {
		report("sending garbage at move %d", b.moves)
		return "not a move at all", nil
	}
	return t.Legal[0], nil
}

// lastWords writes a line to stderr at every move and ends its game at
// the second as end says: "normal" plays on, "garbage" replies no move,
// "hang" never replies, "crash" exits at once with status 3. The line
// must reach the record in every case.
func (b *bot) lastWords(end string, t sdk.Turn) (string, error) {
	report("last words at move %d", b.moves)
	if b.moves == 2 {
		switch end {
		case "garbage":
			return "not a move at all", nil
		case "hang":
			select {}
		case "crash":
			os.Exit(3)
		}
	}
	return t.Legal[0], nil
}

// first runs the attack at the agent's first move request.
func (b *bot) first() {
	switch b.attack {
	case "signal":
		signalAll()
	case "fill-dir":
		fillDir()
	case "sysv":
		_, err := unix.SysvShmGet(unix.IPC_PRIVATE, 1<<30, unix.IPC_CREAT|0o600)
		report("shmget 1 GiB: %v", err)
		_, _, errno := unix.Syscall(unix.SYS_MSGGET, unix.IPC_PRIVATE, unix.IPC_CREAT|0o600, 0)
		report("msgget: %v", errno)
		_, _, errno = unix.Syscall(unix.SYS_SEMGET, unix.IPC_PRIVATE, 1, unix.IPC_CREAT|0o600)
		report("semget: %v", errno)
	case "syscalls":
		refusedCalls()
	case "core":
		var lim unix.Rlimit
		err := unix.Getrlimit(unix.RLIMIT_CORE, &lim)
		report("core limit %d %d: %v", lim.Cur, lim.Max, err)
		report("raise core limit: %v", unix.Setrlimit(unix.RLIMIT_CORE, &unix.Rlimit{Cur: 1 << 30, Max: 1 << 30}))
		var files unix.Rlimit
		err = unix.Getrlimit(unix.RLIMIT_NOFILE, &files)
		report("open files limit %d %d: %v", files.Cur, files.Max, err)
		report("raise open files limit: %v", unix.Setrlimit(unix.RLIMIT_NOFILE, &unix.Rlimit{Cur: 1 << 20, Max: 1 << 20}))
	case "socket":
		target := os.Getenv("HOSTILE_TARGET")
		c, err := net.DialTimeout("unix", target, time.Second)
		if err != nil {
			report("connect %s: %v", target, err)
			return
		}
		c.Close()
		report("connected to %s", target)
	case "fork":
		spawn("setsid", true)
		spawn("double-fork", false)
		if p, err := exec.LookPath("timeout"); err == nil {
			c := exec.Command(p, "600", "sleep", "600")
			if err := c.Start(); err == nil {
				report("timeout child %d", c.Process.Pid)
			}
		}
	case "children":
		for i := range 200 {
			c := exec.Command("sleep", "600")
			if err := c.Start(); err != nil {
				report("child %d: %v", i, err)
				return
			}
		}
		report("200 children started")
	case "cpu-child":
		// Reply only once the child has burnt 1.5 s of CPU, so the
		// referee's check at this reply sees it whatever the load.
		pid := spawn("burn", true)
		for deadline := time.Now().Add(time.Minute); pid > 0 && time.Now().Before(deadline); {
			if cpuOf(pid) > 1500*time.Millisecond {
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
	case "mem-child":
		// Reply only once the child holds its memory, so the arena's
		// watch sees it during this move whatever the load.
		pid := spawn("hold", true)
		for deadline := time.Now().Add(time.Minute); pid > 0 && time.Now().Before(deadline); {
			if rssOf(pid) > 150<<20 {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		time.Sleep(200 * time.Millisecond)
	case "files":
		files()
	case "snoop":
		snoop()
	case "close-stdio":
		os.Stdin.Close()
		os.Stdout.Close()
		report("closed stdin and stdout")
	}
}

// cpuOf reads a process's user+system time.
func cpuOf(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	u, _ := strconv.Atoi(f[11])
	s, _ := strconv.Atoi(f[12])
	return time.Duration(u+s) * 10 * time.Millisecond
}

// rssOf reads a process's resident memory in bytes.
func rssOf(pid int) int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmRSS:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// spawn starts this program again in a helper mode and returns its pid.
func spawn(mode string, setsid bool) int {
	// Through the magic link, as an agent whose binary lies out of its
	// reach must re-execute itself.
	c := exec.Command("/proc/self/exe")
	c.Env = append(os.Environ(), "HOSTILE_HELPER="+mode)
	// HOSTILE_STAY keeps children in the agent's process group, for the
	// tests without a sandbox, where a setsid'ed child would escape.
	c.SysProcAttr = &syscall.SysProcAttr{Setsid: setsid && os.Getenv("HOSTILE_STAY") == ""}
	if err := c.Start(); err != nil {
		report("spawn %s: %v", mode, err)
		return 0
	}
	report("spawned %s %d", mode, c.Process.Pid)
	return c.Process.Pid
}

// signalAll stops and kills every process it can see and every pid it is
// told of, except itself.
func signalAll() {
	var pids []int
	for _, f := range strings.Fields(os.Getenv("HOSTILE_PIDS")) {
		if n, err := strconv.Atoi(f); err == nil {
			pids = append(pids, n)
		}
	}
	ents, _ := os.ReadDir("/proc")
	var visible []int
	for _, e := range ents {
		if n, err := strconv.Atoi(e.Name()); err == nil {
			visible = append(visible, n)
		}
	}
	report("sees processes %v in /proc", visible)
	pids = append(pids, visible...)
	for _, pid := range pids {
		if pid == os.Getpid() {
			continue
		}
		for _, sig := range []syscall.Signal{syscall.SIGSTOP, syscall.SIGKILL} {
			err := syscall.Kill(pid, sig)
			report("kill %d %v: %v", pid, sig, err)
		}
	}
}

func snoop() {
	env, _ := json.Marshal(os.Environ())
	report("environment %s", env)
	ents, _ := os.ReadDir("/proc")
	var pids []string
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err == nil {
			pids = append(pids, e.Name())
		}
	}
	report("proc pids %v", pids)
	fds, _ := os.ReadDir("/proc/self/fd")
	var held []string
	for _, e := range fds {
		held = append(held, e.Name())
	}
	report("descriptors %v", held)
	for _, p := range []string{"/proc/1/environ", "/root", os.Getenv("HOSTILE_SECRET_FILE")} {
		if p == "" {
			continue
		}
		var err error
		if fi, serr := os.Stat(p); serr == nil && fi.IsDir() {
			_, err = os.ReadDir(p)
		} else {
			_, err = os.ReadFile(p)
		}
		report("read %s: %v", p, err)
	}
	for _, p := range []string{"/tmp/hostile-was-here", "/dev/shm/hostile-was-here", "/var/tmp/hostile-was-here", filepath.Join(os.Getenv("TMPDIR"), "scratch")} {
		err := os.WriteFile(p, []byte("x"), 0o644)
		report("write %s: %v", p, err)
	}
	u := exec.Command("/proc/self/exe")
	u.Env = []string{"HOSTILE_HELPER=exit"}
	u.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWUSER}
	report("nested user namespace: %v", u.Run())
	c, err := net.DialTimeout("tcp", "1.1.1.1:80", time.Second)
	if err == nil {
		c.Close()
	}
	report("network: %v", err)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err == nil {
		c, err = net.Dial("tcp", l.Addr().String())
		if err == nil {
			c.Close()
		}
		l.Close()
	}
	report("loopback: %v", err)
}

// files lists the root and tries to read every path of HOSTILE_PATHS (a
// JSON list): a folder is listed, a file read.
func files() {
	ents, err := os.ReadDir("/")
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	report("root %v %v", names, err)
	var paths []string
	if err := json.Unmarshal([]byte(os.Getenv("HOSTILE_PATHS")), &paths); err != nil {
		report("paths: %v", err)
		return
	}
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			ents, err := os.ReadDir(p)
			var names []string
			for _, e := range ents {
				names = append(names, e.Name())
			}
			report("open %s: %v %v", p, err, names)
			continue
		}
		_, err := os.ReadFile(p)
		report("open %s: %v", p, err)
	}
}

// refusedCalls makes, with harmless arguments, the kernel calls a sandbox
// refuses, and reports each one's error.
func refusedCalls() {
	var params [120]byte // struct io_uring_params, zeroed
	_, _, e := unix.Syscall(unix.SYS_IO_URING_SETUP, 1, uintptr(unsafe.Pointer(&params)), 0)
	report("io_uring_setup: %v", e)
	session := int32(unix.KEY_SPEC_SESSION_KEYRING) // negative
	_, _, e = unix.Syscall(unix.SYS_KEYCTL, unix.KEYCTL_GET_KEYRING_ID, uintptr(session), 0)
	report("keyctl: %v", e)
	const uffdUserModeOnly = 1
	_, _, e = unix.Syscall(unix.SYS_USERFAULTFD, unix.O_CLOEXEC|uffdUserModeOnly, 0, 0)
	report("userfaultfd: %v", e)
	attr := unix.PerfEventAttr{Type: unix.PERF_TYPE_SOFTWARE, Config: unix.PERF_COUNT_SW_CPU_CLOCK, Size: uint32(unsafe.Sizeof(unix.PerfEventAttr{})), Bits: unix.PerfBitDisabled | unix.PerfBitExcludeKernel | unix.PerfBitExcludeHv}
	_, _, e = unix.Syscall6(unix.SYS_PERF_EVENT_OPEN, uintptr(unsafe.Pointer(&attr)), 0, ^uintptr(0), ^uintptr(0), 0, 0)
	report("perf_event_open: %v", e)
	_, _, e = unix.Syscall(unix.SYS_BPF, 0, 0, 0)
	report("bpf: %v", e)
	_, _, e = unix.Syscall(0x40000000|unix.SYS_GETPID, 0, 0, 0)
	report("x32 getpid: %v", e)
	_, err := unix.Socket(unix.AF_VSOCK, unix.SOCK_STREAM, 0)
	report("vsock socket: %v", err)
	_, err = unix.Socket(unix.AF_ALG, unix.SOCK_SEQPACKET, 0)
	report("alg socket: %v", err)
	fd, err := unix.Socket(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err == nil {
		unix.Close(fd)
	}
	report("unix socket: %v", err)
}

// fillDir writes its private directory (its TMPDIR) a MiB at a time,
// up to 256 MiB, and reports how much it wrote and why it stopped. The
// file stays for the rest of the game.
func fillDir() {
	f, err := os.Create(filepath.Join(os.Getenv("TMPDIR"), "fill"))
	if err != nil {
		report("filled 0 MiB: %v", err)
		return
	}
	defer f.Close()
	chunk := make([]byte, 1<<20)
	n := 0
	for ; n < 256; n++ {
		if _, err = f.Write(chunk); err != nil {
			break
		}
	}
	report("filled %d MiB: %v", n, err)
}

// widenAffinity asks for every CPU the kernel may have and reports which
// it runs on afterwards.
func widenAffinity() {
	var all unix.CPUSet
	for c := range 1024 {
		all.Set(c)
	}
	report("setaffinity: %v", unix.SchedSetaffinity(0, &all))
	var now unix.CPUSet
	err := unix.SchedGetaffinity(0, &now)
	var cpus []int
	for c := range 1024 {
		if now.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	report("affinity after: %v %v", cpus, err)
}

// helper modes run in children; they never serve the protocol.
func helper(mode string) {
	switch mode {
	case "setsid":
		time.Sleep(time.Hour)
	case "double-fork":
		spawn("grandchild", true)
		os.Exit(0)
	case "grandchild":
		time.Sleep(time.Hour)
	case "burn":
		for x := 0; ; x++ {
		}
	case "hold":
		p := make([]byte, 200<<20)
		for i := 0; i < len(p); i += 4096 {
			p[i] = 1
		}
		time.Sleep(time.Hour)
		fmt.Fprintln(os.Stderr, len(p))
	}
	os.Exit(0)
}

func main() {
	if m := os.Getenv("HOSTILE_HELPER"); m != "" {
		helper(m)
		return
	}
	attack := os.Getenv("HOSTILE")
	switch attack {
	case "raw":
		// Ignores the protocol: chatter on stdout, then nothing.
		fmt.Println("hello, I am not a plugin")
		time.Sleep(time.Hour)
		return
	case "affinity":
		widenAffinity()
	case "children-at-start":
		// Children that would live on after the game: one setsid'ed, one
		// orphaned by a double fork.
		spawn("setsid", true)
		spawn("double-fork", false)
	case "setsid-child-at-start":
		// A child that leaves the agent's process group but stays its
		// child: without a sandbox only the process tree finds it.
		spawn("setsid", true)
	case "flood-stdout":
		line := strings.Repeat("y", 1023) + "\n"
		for range 16 << 10 { // 16 MiB before the handshake
			os.Stdout.WriteString(line)
		}
	}
	sdk.Serve(&bot{attack: attack})
}
