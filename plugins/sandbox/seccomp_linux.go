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
// value: sched_setaffinity through that ABI must be refused too.
const x32Bit = 0x40000000

// lockAffinity installs, for the calling process and every process it
// later starts, a seccomp filter that answers sched_setaffinity with
// EPERM: an agent pinned to its CPUs cannot widen its own mask and burn
// CPU during its opponent's turns. A system call of another architecture
// (a 32-bit binary on a 64-bit kernel) is killed, its numbers being
// different. no_new_privs, which an unprivileged filter needs, is set
// first; it also keeps set-user-id programs from gaining anything.
func lockAffinity() error {
	arch, ok := auditArch[runtime.GOARCH]
	if !ok {
		return fmt.Errorf("no seccomp architecture known for %s", runtime.GOARCH)
	}
	nr := uint32(unix.SYS_SCHED_SETAFFINITY)
	x32 := nr | x32Bit
	if runtime.GOARCH != "amd64" {
		x32 = nr
	}
	const (
		ld  = unix.BPF_LD | unix.BPF_W | unix.BPF_ABS
		jeq = unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K
		ret = unix.BPF_RET | unix.BPF_K
	)
	filter := []unix.SockFilter{
		{Code: ld, K: 4}, // seccomp_data.arch
		{Code: jeq, K: arch, Jt: 1},
		{Code: ret, K: unix.SECCOMP_RET_KILL_PROCESS},
		{Code: ld, K: 0}, // seccomp_data.nr
		{Code: jeq, K: nr, Jt: 1},
		{Code: jeq, K: x32, Jf: 1},
		{Code: ret, K: unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)},
		{Code: ret, K: unix.SECCOMP_RET_ALLOW},
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no_new_privs: %w", err)
	}
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
