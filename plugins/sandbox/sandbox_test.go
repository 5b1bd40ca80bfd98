package sandbox_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/plugins/sandbox"
)

func TestReach(t *testing.T) {
	// t.TempDir's own parent is 0700: build the tree in a searchable one.
	top, err := os.MkdirTemp("", "reach-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(top)
	if err := os.Chmod(top, 0o755); err != nil {
		t.Fatal(err)
	}
	hidden := filepath.Join(top, "hidden")
	if err := os.Mkdir(hidden, 0o700); err != nil {
		t.Fatal(err)
	}
	open := filepath.Join(hidden, "open")
	if err := os.Mkdir(open, 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(open, "bot.lua")
	if err := os.WriteFile(script, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The first directory the agent cannot search is where the sandbox
	// rebuilds the path.
	cover, err := sandbox.Reach(script, false)
	if err != nil || cover != hidden {
		t.Fatalf("cover %q, %v; want %s", cover, err, hidden)
	}
	if cover, err := sandbox.Reach("/bin/sh", true); err != nil || cover != "" {
		t.Fatalf("/bin/sh: cover %q, %v", cover, err)
	}
	// A file unreadable by others cannot be made readable: the error
	// names it.
	private := filepath.Join(open, "secret.lua")
	if err := os.WriteFile(private, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := sandbox.Reach(private, false); err == nil || !strings.Contains(err.Error(), private) || !strings.Contains(err.Error(), "0600") {
		t.Fatalf("unreadable file: %v", err)
	}
	if _, err := sandbox.Reach(script, true); err == nil || !strings.Contains(err.Error(), "executable") {
		t.Fatalf("non-executable program: %v", err)
	}
}

func TestLeasesAreDistinct(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("id leases live in a root-owned directory")
	}
	base, err := sandbox.Base()
	if err != nil {
		t.Fatal(err)
	}
	a, err := sandbox.Acquire(base, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := sandbox.Acquire(base, 0)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[int]bool{a.IDs.Root: true, a.IDs.Agent: true, b.IDs.Root: true, b.IDs.Agent: true}
	if len(ids) != 4 {
		t.Fatalf("leases share ids: %+v %+v", a.IDs, b.IDs)
	}
	a.Release()
	c, err := sandbox.Acquire(base, 0)
	if err != nil {
		t.Fatal(err)
	}
	if c.IDs == b.IDs {
		t.Fatalf("a held lease was handed out again: %+v", c.IDs)
	}
	b.Release()
	c.Release()
}

// A private directory whose lease lapsed (its arena was killed) is swept;
// one whose lease is held is kept.
func TestSweep(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("private directories are chowned to leased ids")
	}
	base, err := sandbox.Base()
	if err != nil {
		t.Fatal(err)
	}
	held, err := sandbox.Acquire(base, 100)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	lapsed, err := sandbox.Acquire(base, 200)
	if err != nil {
		t.Fatal(err)
	}
	live, err := sandbox.PrivateDir(base, held)
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(live)
	stale, err := sandbox.PrivateDir(base, lapsed)
	if err != nil {
		t.Fatal(err)
	}
	lapsed.Release()
	sandbox.Sweep(base)
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale directory kept: %v", err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("live directory swept: %v", err)
	}
}

// A folder the agent's id cannot reach by path (under a 0700 directory)
// is shown read-only at its own path, with its sub-folders; what else lies
// under the unreachable directory stays hidden.
func TestTreeIsRevealedReadOnly(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("sandboxes map leased ids, which needs root")
	}
	top := t.TempDir() // mode 0700: the agent cannot enter it
	repo := filepath.Join(top, "repo")
	if err := os.MkdirAll(filepath.Join(repo, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "sub", "data.txt"), []byte("revealed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(top, "secret.txt")
	if err := os.WriteFile(secret, []byte("hidden\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script := "cd " + repo + " && cat sub/data.txt && " +
		"if cat " + secret + " 2>/dev/null; then echo SECRET; fi; " +
		"if (echo x > sub/new) 2>/dev/null; then echo WROTE; fi; echo done"
	out, err := runInside(t, 300, []string{"/bin/sh", "-c", script}, repo, filepath.Join(repo, "sub"))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got := out; got != "revealed\ndone\n" {
		t.Fatalf("agent saw:\n%s\nwant the folder's file only, read-only", got)
	}
}

// leasedDir leases ids from slot on and makes their private directory,
// both given back when the test ends.
func leasedDir(t *testing.T, slot int) (*sandbox.Lease, string) {
	t.Helper()
	base, err := sandbox.Base()
	if err != nil {
		t.Fatal(err)
	}
	lease, err := sandbox.Acquire(base, slot)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(lease.Release)
	dir, err := sandbox.PrivateDir(base, lease)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return lease, dir
}

// runInside runs argv in a fresh sandbox and returns its output.
func runInside(t *testing.T, slot int, argv []string, trees ...string) (string, error) {
	t.Helper()
	lease, dir := leasedDir(t, slot)
	cmd, files, err := sandbox.Command(sandbox.Config{
		Init: os.Args[0], Argv: argv, Trees: trees, Dir: dir, IDs: lease.IDs,
		Env: []string{"PATH=/usr/bin:/bin", "HOME=" + dir, "TMPDIR=" + dir},
	})
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.CombinedOutput()
	for _, f := range files {
		f.Close()
	}
	return string(out), err
}

// The runtimes course agents need start in an agent's root, which holds
// only sandbox.Runtime: the shell, Python with its standard library, the
// JDK through /etc/alternatives.
func TestRuntimesRunInside(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("sandboxes map leased ids, which needs root")
	}
	cases := []struct {
		name string
		argv []string
		want string
	}{
		{"shell", []string{"/bin/sh", "-c", "echo ok"}, "ok"},
		{"python", []string{"/usr/bin/python3", "-c", "import json, sqlite3; print('ok')"}, "ok"},
		{"java", []string{"/usr/bin/java", "-Xshare:auto", "-version"}, "version"},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := os.Stat(c.argv[0]); err != nil {
				t.Skipf("%s is not installed here", c.argv[0])
			}
			out, err := runInside(t, 400+i, c.argv)
			if err != nil || !strings.Contains(out, c.want) {
				t.Fatalf("%v: %v\n%s", c.argv, err, out)
			}
		})
	}
}

// An agent resolves localhost, to the loopback its network namespace has,
// and no other name: course clients connect to "localhost".
func TestLocalhostResolvesInside(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("sandboxes map leased ids, which needs root")
	}
	if _, err := os.Stat("/usr/bin/python3"); err != nil {
		t.Skip("python3 is not installed here")
	}
	script := "import socket\nprint(socket.gethostbyname('localhost'))\ntry:\n    socket.gethostbyname('example.com')\n    print('resolved')\nexcept OSError:\n    print('unresolved')\n"
	out, err := runInside(t, 420, []string{"/usr/bin/python3", "-c", script})
	if err != nil || strings.Fields(out)[0] != "127.0.0.1" || !strings.Contains(out, "unresolved") {
		t.Fatalf("%v\n%s", err, out)
	}
}

// An agent's root holds the runtime, its own folder, /dev's four devices,
// /proc and its private directory: nothing else of the host.
func TestRootHoldsOnlyTheView(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("sandboxes map leased ids, which needs root")
	}
	mine := t.TempDir()
	if err := os.Chmod(mine, 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := runInside(t, 410, []string{"/bin/sh", "-c", "ls /; echo --; ls /dev; echo --; ls " + mine}, mine)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	parts := strings.Split(out, "--\n")
	if len(parts) != 3 {
		t.Fatalf("output:\n%s", out)
	}
	for _, name := range strings.Fields(parts[0]) {
		switch name {
		case "bin", "dev", "etc", "lib", "lib32", "lib64", "libx32", "proc", "sbin", "usr", "tmp", "run":
		default:
			t.Errorf("the root holds /%s:\n%s", name, parts[0])
		}
	}
	if got := strings.Join(strings.Fields(parts[1]), " "); got != "fd null random shm stderr stdin stdout urandom zero" {
		t.Errorf("/dev holds %s", got)
	}
	// The sandbox's own /dev/shm: empty, writable, bounded.
	out, err = runInside(t, 410, []string{"/bin/sh", "-c", "ls -A /dev/shm; echo --; echo x > /dev/shm/a && echo written; head -c 70000000 /dev/zero > /dev/shm/big; echo $?"}, mine)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if parts := strings.Split(out, "--\n"); len(parts) != 2 || strings.TrimSpace(parts[0]) != "" || !strings.HasPrefix(parts[1], "written\n") || strings.TrimSpace(strings.TrimPrefix(parts[1], "written\n")) == "0" {
		t.Errorf("/dev/shm: want empty, writable and under 70 MB:\n%s", out)
	}
}

// Both kinds of hierarchy are told apart, v1 by its mount's controllers.
func TestCgroups(t *testing.T) {
	mounts := `tmpfs /sys/fs/cgroup tmpfs rw,relatime,mode=755 0 0
cgroup /sys/fs/cgroup/cpuset cgroup rw,relatime,cpuset 0 0
cgroup /sys/fs/cgroup/cpu,cpuacct cgroup rw,nosuid,nodev,noexec,relatime,cpu,cpuacct 0 0
cgroup /sys/fs/cgroup/systemd cgroup rw,relatime,name=systemd 0 0
cgroup2 /nonexistent/unified cgroup2 rw,relatime 0 0
`
	hs := sandbox.Cgroups(strings.NewReader(mounts))
	got := []string{}
	for _, h := range hs {
		got = append(got, fmt.Sprintf("v%d %s %v", h.Version, h.Path, h.Controllers))
	}
	want := []string{"v2 /nonexistent/unified []", "v1 /sys/fs/cgroup/cpu,cpuacct [cpu cpuacct]", "v1 /sys/fs/cgroup/cpuset [cpuset]", "v1 /sys/fs/cgroup/systemd []"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if d := sandbox.DescribeCgroups(nil); len(d) != 1 || d[0] != "none mounted" {
		t.Fatalf("no hierarchies: %q", d)
	}
}

// An init can become only its own program: an agent of another program
// must be started by it.
func TestInProcessOnlyForTheInitsProgram(t *testing.T) {
	sh, err := filepath.EvalSymlinks("/bin/sh")
	if err != nil {
		t.Skip("needs /bin/sh:", err)
	}
	self, err := filepath.Abs(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = sandbox.Command(sandbox.Config{Init: self, Argv: []string{sh}, Dir: t.TempDir(), InProcess: true})
	if err == nil || !strings.Contains(err.Error(), "must be the init's program") {
		t.Fatalf("an in-process agent of another program: %v, want a refusal", err)
	}
}
