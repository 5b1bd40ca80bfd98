package sandbox

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// auditArch is the seccomp architecture of this build; a filter checks it
// so that a system call number of another ABI is never misread.
var auditArch = map[string]uint32{
	"amd64":   unix.AUDIT_ARCH_X86_64,
	"arm64":   unix.AUDIT_ARCH_AARCH64,
	"386":     unix.AUDIT_ARCH_I386,
	"riscv64": unix.AUDIT_ARCH_RISCV64,
	"ppc64le": unix.AUDIT_ARCH_PPC64LE,
	"s390x":   unix.AUDIT_ARCH_S390X,
}

// x32Bit marks x32 system calls on amd64, which share the architecture
// value: no agent needs that ABI, and its numbers would slip past the
// ones below, so every x32 call is refused.
const x32Bit = 0x40000000

// refused are the system calls the filter answers with EPERM: beside
// sched_setaffinity (below), kernel interfaces no course runtime uses
// (the JVM, CPython, a Go program) that an unprivileged process can
// still reach and that have been the way in of many kernel exploits:
// io_uring, bpf, userfaultfd, perf events and the key store.
var refused = []uint32{
	unix.SYS_SCHED_SETAFFINITY,
	unix.SYS_IO_URING_SETUP, unix.SYS_IO_URING_ENTER, unix.SYS_IO_URING_REGISTER,
	unix.SYS_BPF, unix.SYS_USERFAULTFD, unix.SYS_PERF_EVENT_OPEN,
	unix.SYS_KEYCTL, unix.SYS_ADD_KEY, unix.SYS_REQUEST_KEY,
}

// refusedFamilies are the socket families socket(2) refuses with EPERM:
// vsock, which no network namespace confines (in a virtual machine it
// reaches the host), and the kernel's crypto interface, kernel surface
// no course runtime uses.
var refusedFamilies = []uint32{unix.AF_VSOCK, unix.AF_ALG}

// installFilter installs, for the calling process and every process it
// later starts, a seccomp filter that answers sched_setaffinity with
// EPERM: an agent pinned to its CPUs cannot widen its own mask and burn
// CPU during its opponent's turns. The other refused calls get EPERM
// too. A system call of another architecture (a 32-bit binary on a
// 64-bit kernel) is killed, its numbers being different. no_new_privs,
// which an unprivileged filter needs, is set first; it also keeps
// set-user-id programs from gaining anything.
func installFilter() error {
	arch, ok := auditArch[runtime.GOARCH]
	if !ok {
		return fmt.Errorf("no seccomp architecture known for %s", runtime.GOARCH)
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
	// The low half of socket(2)'s first argument: seccomp_data.args[0]
	// is at 16, its low word after the high one on big-endian s390x.
	family := uint32(16)
	if runtime.GOARCH == "s390x" {
		family = 20
	}
	filter := seccompFilter(arch, runtime.GOARCH == "amd64", family)
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	// TSYNC: every thread of the (multi-threaded) init gets the filter,
	// whichever of them forks the agent.
	_, _, errno := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&prog)))
	runtime.KeepAlive(filter)
	if errno != 0 {
		return fmt.Errorf("seccomp filter: %w", errno)
	}
	return nil
}

// seccompFilter is the filter's program: kill another architecture's
// calls, refuse x32 calls (where x32 is set), the refused ones and
// sockets of the refused families (whose number is read at offset
// family), allow the rest.
func seccompFilter(arch uint32, x32 bool, family uint32) []unix.SockFilter {
	const (
		ld   = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq  = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		jset = unix.BPF_JMP | unix.BPF_JSET | unix.BPF_K
		ret  = unix.BPF_RET | unix.BPF_K
	)
	f := []unix.SockFilter{
		{Code: ld, K: 4}, // seccomp_data.arch
		{Code: jeq, K: arch, Jt: 1},
		{Code: ret, K: unix.SECCOMP_RET_KILL_PROCESS},
		{Code: ld, K: 0}, // seccomp_data.nr
	}
	// Every test jumps, when it holds, to the EPERM at the end: past the
	// tests after it, the socket family's (two and one a family) and the
	// ALLOW.
	tests := len(refused)
	if x32 {
		tests++
	}
	sockets := 2 + len(refusedFamilies)
	toRefuse := func() uint8 { return uint8(tests - (len(f) - 4) + sockets) }
	if x32 {
		f = append(f, unix.SockFilter{Code: jset, K: x32Bit, Jt: toRefuse()})
	}
	for _, nr := range refused {
		f = append(f, unix.SockFilter{Code: jeq, K: nr, Jt: toRefuse()})
	}
	// socket(2): not that call, allow; else its family decides.
	fams := len(refusedFamilies)
	f = append(f,
		unix.SockFilter{Code: jeq, K: unix.SYS_SOCKET, Jf: uint8(fams + 1)},
		unix.SockFilter{Code: ld, K: family},
	)
	for i, fam := range refusedFamilies {
		f = append(f, unix.SockFilter{Code: jeq, K: fam, Jt: uint8(fams - i)})
	}
	return append(f,
		unix.SockFilter{Code: ret, K: unix.SECCOMP_RET_ALLOW},
		unix.SockFilter{Code: ret, K: unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)},
	)
}
