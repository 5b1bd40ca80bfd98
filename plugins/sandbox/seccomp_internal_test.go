package sandbox

import (
	"encoding/binary"
	"testing"

	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// The seccomp program, run on seccomp_data as a little-endian kernel
// lays it out (x/net/bpf's machine reads words big-endian, so each word
// is written so): another architecture is killed, the refused calls,
// x32 calls and sockets of the refused families get EPERM, and
// everything else, other sockets and other calls with the same argument
// included, is allowed.
func TestSeccompProgram(t *testing.T) {
	const arch, other = unix.AUDIT_ARCH_X86_64, unix.AUDIT_ARCH_I386
	vm := newVM(t, seccompFilter(arch, true, 16))
	run := func(a, nr, arg0 uint32) uint32 {
		data := make([]byte, 64)
		binary.BigEndian.PutUint32(data[0:], nr)
		binary.BigEndian.PutUint32(data[4:], a)
		binary.BigEndian.PutUint32(data[16:], arg0)
		got, err := vm.Run(data)
		if err != nil {
			t.Fatal(err)
		}
		return uint32(got)
	}
	const (
		allow = unix.SECCOMP_RET_ALLOW
		eperm = unix.SECCOMP_RET_ERRNO | uint32(unix.EPERM)
		kill  = unix.SECCOMP_RET_KILL_PROCESS
	)
	cases := []struct {
		name         string
		arch, nr, a0 uint32
		want         uint32
	}{
		{"another architecture", other, unix.SYS_GETPID, 0, kill},
		{"getpid", arch, unix.SYS_GETPID, 0, allow},
		{"x32 getpid", arch, x32Bit | unix.SYS_GETPID, 0, eperm},
		{"socket AF_INET", arch, unix.SYS_SOCKET, unix.AF_INET, allow},
		{"socket AF_UNIX", arch, unix.SYS_SOCKET, unix.AF_UNIX, allow},
		{"socket AF_VSOCK", arch, unix.SYS_SOCKET, unix.AF_VSOCK, eperm},
		{"socket AF_ALG", arch, unix.SYS_SOCKET, unix.AF_ALG, eperm},
		{"getpid with AF_VSOCK's number", arch, unix.SYS_GETPID, unix.AF_VSOCK, allow},
		{"socketpair AF_UNIX", arch, unix.SYS_SOCKETPAIR, unix.AF_UNIX, allow},
	}
	for _, nr := range refused {
		cases = append(cases, struct {
			name         string
			arch, nr, a0 uint32
			want         uint32
		}{"refused call", arch, nr, 0, eperm})
	}
	for _, c := range cases {
		if got := run(c.arch, c.nr, c.a0); got != c.want {
			t.Errorf("%s (nr %d, arg %d): %#x, want %#x", c.name, c.nr, c.a0, got, c.want)
		}
	}
	// Without x32 (another architecture's build), x32 numbers are just
	// unknown calls.
	vm = newVM(t, seccompFilter(arch, false, 16))
	if got := run(arch, x32Bit|unix.SYS_GETPID, 0); got != allow {
		t.Errorf("x32 getpid without the x32 test: %#x, want allow", got)
	}
	if got := run(arch, unix.SYS_BPF, 0); got != eperm {
		t.Errorf("bpf without the x32 test: %#x, want EPERM", got)
	}
}

// newVM loads the seccomp program raw into x/net's BPF interpreter.
func newVM(t *testing.T, raw []unix.SockFilter) *bpf.VM {
	t.Helper()
	prog := make([]bpf.Instruction, len(raw))
	for i, r := range raw {
		prog[i] = bpf.RawInstruction{Op: r.Code, Jt: r.Jt, Jf: r.Jf, K: r.K}.Disassemble()
	}
	vm, err := bpf.NewVM(prog)
	if err != nil {
		t.Fatal(err)
	}
	return vm
}
