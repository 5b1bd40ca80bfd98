package host

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"arena/plugins/host/proctree"
)

// usage is one sample of an agent's whole process tree.
type usage struct {
	CPU  time.Duration // user+system time of every process, reaped ones included
	RSS  int64         // resident memory summed over the live processes
	Peak int64         // the largest single-process peak (VmHWM) seen by the kernel
	// RunQueue is the time the live threads of the agent's processes spent
	// ready to run but waiting for a CPU (schedstat), summed; read only
	// when asked for (reading.delay).
	RunQueue time.Duration
}

// reading says what a sample reads besides CPU time: memory (status
// files, dearer than stat files) and the run-queue delay (each thread's
// schedstat).
type reading struct {
	mem, delay bool
}

// taskDelay sums the run-queue delay of every thread listed in the open
// task directory taskFd: the second field of each thread's schedstat, in
// nanoseconds; each thread's is also recorded in l, if not nil. A thread
// that ended since the listing is left out.
func taskDelay(taskFd int, dents, buf []byte, l *delayLedger) time.Duration {
	tids, err := dirNames(taskFd, dents, 0)
	if err != nil {
		return 0
	}
	var sum time.Duration
	for _, t := range tids {
		if t == "." || t == ".." {
			continue
		}
		fd, err := unix.Openat(taskFd, t+"/schedstat", unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			continue
		}
		k, _ := unix.Pread(fd, buf, 0)
		unix.Close(fd)
		if k > 0 {
			d := schedstatDelay(buf[:k])
			sum += d
			if l != nil {
				l.see(t, d)
			}
		}
	}
	return sum
}

// schedstatDelay reads the run-queue delay from a schedstat line
// ("runtime delay timeslices", nanoseconds); a malformed line is zero.
func schedstatDelay(b []byte) time.Duration {
	f := bytes.Fields(b)
	if len(f) < 2 {
		return 0
	}
	v, ok := decimal(f[1])
	if !ok {
		return 0
	}
	return time.Duration(v)
}

// statFields returns a stat line's fields after the command name (which
// may hold spaces and parentheses, so the last ')' ends it): f[0] is field
// 3, the state.
func statFields(b []byte) ([][]byte, error) {
	name := bytes.LastIndexByte(b, ')') + 1
	if name == 0 {
		return nil, errors.New("parse stat: no command name")
	}
	return bytes.Fields(b[name:]), nil
}

// parseStatTimes reads utime+stime and cutime+cstime from a stat file's
// text. It is read twice around every move, so it walks the line in place
// instead of splitting it: the split's allocations were a quarter of a
// reading's cost.
func parseStatTimes(b []byte) (own, children time.Duration, err error) {
	name := bytes.LastIndexByte(b, ')') + 1
	if name == 0 {
		return 0, 0, errors.New("parse stat: no command name")
	}
	// utime, stime, cutime, cstime are fields 14-17: the 12th to 15th
	// after the command name.
	var t [4]int64
	n := 0 // fields seen after the name
	for rest := b[name:]; n < 15; n++ {
		rest = bytes.TrimLeft(rest, " \n")
		if len(rest) == 0 {
			return 0, 0, fmt.Errorf("parse stat: %d fields", n)
		}
		end := bytes.IndexAny(rest, " \n")
		if end < 0 {
			end = len(rest)
		}
		if n >= 11 {
			v, ok := decimal(rest[:end])
			if !ok {
				return 0, 0, fmt.Errorf("parse stat: field %d is %q, not a count", n+3, rest[:end])
			}
			t[n-11] = v
		}
		rest = rest[end:]
	}
	tick := func(n int64) time.Duration { return time.Duration(n) * time.Second / clockTicks }
	return tick(t[0] + t[1]), tick(t[2] + t[3]), nil
}

// decimal reads a non-negative decimal count of at most 18 digits (a tick
// count; more would overflow the sum).
func decimal(f []byte) (int64, bool) {
	if len(f) == 0 || len(f) > 18 {
		return 0, false
	}
	var v int64
	for _, c := range f {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, true
}

// statusMemory reads VmRSS and VmHWM in bytes from a /proc status file.
func statusMemory(path string) (rss, peak int64, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, 0, err
	}
	rss, peak = parseStatusMemory(b)
	return rss, peak, nil
}

// parseStatusMemory reads VmRSS and VmHWM from a /proc status file.
func parseStatusMemory(b []byte) (rss, peak int64) {
	for _, line := range bytes.Split(b, []byte{'\n'}) {
		if v, ok := statusBytes(line, "VmRSS:"); ok {
			rss = v
		} else if v, ok := statusBytes(line, "VmHWM:"); ok {
			peak = v
		}
	}
	return rss, peak
}

// statusBytes reads the memory a /proc status line gives under name, in
// bytes: "VmRSS:\t  1234 kB" is the number after the name, in KiB.
func statusBytes(line []byte, name string) (int64, bool) {
	v, ok := bytes.CutPrefix(line, []byte(name))
	if !ok {
		return 0, false
	}
	kb, _, _ := bytes.Cut(bytes.TrimSpace(v), []byte(" "))
	n, err := strconv.ParseInt(string(kb), 10, 64)
	return n << 10, err == nil
}

// errNotNamespaceProc marks a sandbox whose own /proc is not mounted (yet).
var errNotNamespaceProc = errors.New("the sandbox's /proc is not mounted")

// nsSampler sums every process of a sandbox through the /proc the
// sandbox's init mounted, which lists the namespace's processes only. It
// keeps that directory and each process's stat file (and status file,
// once memory is read) open between readings, so the CPU reading taken
// around every move is one listing and one read per process, not a path
// walk through the init's root and an open per file. The init (PID 1
// there) became the agent, and counts whole: its setup's few milliseconds
// of CPU among them.
type nsSampler struct {
	initPid int

	mu     sync.Mutex
	dir    *os.File            // the namespace's /proc, once it is mounted
	stats  map[string]*os.File // open stat files by namespace pid
	status map[string]*os.File // open status files by namespace pid
	buf    []byte
	dents  []byte
	delays delayLedger
	closed bool
}

func newNSSampler(initPid int) *nsSampler {
	return &nsSampler{initPid: initPid, stats: map[string]*os.File{}, status: map[string]*os.File{}, buf: make([]byte, 4096), dents: make([]byte, 8192)}
}

// errSamplerClosed marks a reading after the agent was killed.
var errSamplerClosed = errors.New("the agent's process accounting is closed")

// open opens the namespace's /proc, refusing the host's: in the host's
// /proc "self" names the reader; in the namespace's it names nothing,
// since the arena is not a process there.
func (s *nsSampler) open() error {
	d, err := os.Open("/proc/" + strconv.Itoa(s.initPid) + "/root/proc")
	if err != nil {
		return err
	}
	if _, err := unix.Readlinkat(int(d.Fd()), "self", make([]byte, 64)); err == nil {
		d.Close()
		return errNotNamespaceProc
	}
	s.dir = d
	return nil
}

// statOf reads the stat file of namespace pid n through the kept file,
// or a newly opened one when there is none or the kept one reads nothing
// (it belongs to an ended process, whose pid may have been reused). At
// most maxKeptFiles are kept: an agent of thousands of processes must not
// make the arena hold thousands of files.
func (s *nsSampler) statOf(n string) ([]byte, error) { return s.readKept(s.stats, n, "stat") }

// statusOf is statOf for the status file, which the memory readings use.
func (s *nsSampler) statusOf(n string) ([]byte, error) { return s.readKept(s.status, n, "status") }

// readKept reads file name of namespace pid n through kept, the open
// files of that name by pid, as statOf says.
func (s *nsSampler) readKept(kept map[string]*os.File, n, name string) ([]byte, error) {
	if f := kept[n]; f != nil {
		if b := s.read(f); b != nil {
			return b, nil
		}
		f.Close()
		delete(kept, n)
	}
	fd, err := unix.Openat(int(s.dir.Fd()), n+"/"+name, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(fd), n+"/"+name)
	if b := s.read(f); b != nil {
		if len(kept) < maxKeptFiles {
			kept[n] = f
		} else {
			f.Close() // the bound reached: read, not kept (b is s.buf)
		}
		return b, nil
	}
	f.Close()
	return nil, fmt.Errorf("read %s/%s in the sandbox of %d: the process ended", n, name, s.initPid)
}

// read reads a whole stat or status file, or returns nil when it has
// nothing (its process ended). Either is read whole by the first read
// (the buffer holds a page, a status file about a third of one), so the
// error of any later read does not matter.
func (s *nsSampler) read(f *os.File) []byte {
	if k, _ := f.ReadAt(s.buf, 0); k > 0 {
		return s.buf[:k]
	}
	return nil
}

// sample reads every process of the sandbox; memory and the run-queue
// delay only when r asks: the status and schedstat files cost more than
// the stat files, and a move's CPU reading needs neither.
func (s *nsSampler) sample(r reading) (usage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return usage{}, errSamplerClosed
	}
	if s.dir == nil {
		if err := s.open(); err != nil {
			return usage{}, err
		}
	}
	names, err := s.list()
	if err != nil {
		return usage{}, err
	}
	var u usage
	agent := false // a process other than the init was read
	listed := make(map[string]bool, 4)
	for _, n := range names {
		if _, err := strconv.ParseUint(n, 10, 32); err != nil {
			continue // not a process
		}
		listed[n] = true
		b, err := s.statOf(n)
		if err != nil {
			continue // ended since the listing
		}
		own, children, err := parseStatTimes(b)
		if err != nil {
			return usage{}, fmt.Errorf("sandbox of %d, process %s: %w", s.initPid, n, err)
		}
		u.CPU += own + children
		agent = true
		if r.delay {
			s.delayOf(n)
		}
		if !r.mem {
			continue
		}
		b, err = s.statusOf(n)
		if err != nil {
			continue // ended since its stat was read
		}
		rss, peak := parseStatusMemory(b)
		u.RSS += rss
		u.Peak = max(u.Peak, peak)
	}
	for _, kept := range []map[string]*os.File{s.stats, s.status} {
		for n, f := range kept {
			if !listed[n] {
				f.Close()
				delete(kept, n)
			}
		}
	}
	if r.delay {
		u.RunQueue = s.delays.total()
	}
	if !agent {
		// Only the init is left, or nothing: the agent is gone.
		var st unix.Stat_t
		if err := unix.Fstatat(int(s.dir.Fd()), "1", &st, 0); err != nil {
			return usage{}, fmt.Errorf("sandbox of %d: %w", s.initPid, err)
		}
	}
	return u, nil
}

// delay reads the run-queue delay of namespace process n's threads.
func (s *nsSampler) delay(n string) time.Duration {
	return s.taskDelay(n, nil)
}

// delayOf records the run-queue delay of namespace process n's threads in
// the sampler's ledger.
func (s *nsSampler) delayOf(n string) {
	s.taskDelay(n, &s.delays)
}

func (s *nsSampler) taskDelay(n string, l *delayLedger) time.Duration {
	fd, err := unix.Openat(int(s.dir.Fd()), n+"/task", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return 0 // ended since its stat was read
	}
	defer unix.Close(fd)
	return taskDelay(fd, s.dents, s.buf, l)
}

// firstProcessEntry is where the process entries of a /proc listing begin
// (the kernel's FIRST_PROCESS_ENTRY): a listing from there skips the
// sixty-odd fixed entries, which were most of a reading's cost. Should a
// kernel differ, the init's own entry "1" is missing from that listing,
// and the whole directory is read instead.
const firstProcessEntry = 256

// list names the entries of the namespace's /proc that may be processes.
func (s *nsSampler) list() ([]string, error) {
	names, err := s.listFrom(firstProcessEntry)
	if err == nil && slices.Contains(names, "1") {
		return names, nil
	}
	return s.listFrom(0)
}

func (s *nsSampler) listFrom(off int64) ([]string, error) {
	return dirNames(int(s.dir.Fd()), s.dents, off)
}

// dirNames lists the open directory fd from offset off, reading its
// entries through buf: a kept directory, listed again at every reading.
func dirNames(fd int, buf []byte, off int64) ([]string, error) {
	if _, err := unix.Seek(fd, off, io.SeekStart); err != nil {
		return nil, err
	}
	var names []string
	for {
		n, err := unix.Getdents(fd, buf)
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			return names, nil
		}
		_, _, names = unix.ParseDirent(buf[:n], -1, names)
	}
}

// close releases the kept files; later readings fail.
func (s *nsSampler) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	for _, kept := range []map[string]*os.File{s.stats, s.status} {
		for n, f := range kept {
			f.Close()
			delete(kept, n)
		}
	}
	if s.dir != nil {
		s.dir.Close()
		s.dir = nil
	}
}

// maxTree bounds the processes one reading lists.
const maxTree = 4096

// descendants lists root and the processes descended from it, breadth
// first, through the kernel's per-thread children lists (at most maxTree).
func descendants(root int) []int {
	pids := []int{root}
	seen := map[int]bool{root: true}
	for i := 0; i < len(pids) && len(pids) < maxTree; i++ {
		for _, c := range children(pids[i]) {
			if !seen[c] {
				seen[c] = true
				pids = append(pids, c)
			}
		}
	}
	return pids
}

// children lists the child pids of every thread of pid (none where the
// kernel keeps no such lists).
func children(pid int) []int {
	pids, _ := proctree.ChildPids(pid)
	return pids
}

// namespacePids lists the host pids of every process in the PID namespace
// whose /proc/<pid>/ns/pid link is ns; init is that namespace's init, by
// its host pid. Every process of the namespace descends from its init:
// the kernel re-parents the namespace's orphans to it and kills them all
// when it ends. So the init's tree, read through the kernel's children
// lists (at most maxTree processes, as every tree reading), holds them
// all, in a few reads per process of the agent; a scan of /proc reads
// every process of the machine, and took a seventh of plugins/host's test
// CPU, whose tests read an agent's processes at every move. Without
// those lists it scans.
func namespacePids(init int, ns string) []int {
	if !hasChildLists(init) {
		return scanNamespace(ns)
	}
	var out []int
	for _, pid := range descendants(init) {
		if l, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/ns/pid"); err == nil && l == ns {
			out = append(out, pid)
		}
	}
	return out
}

// hasChildLists reports whether the kernel keeps per-thread children
// lists (CONFIG_PROC_CHILDREN), asked of pid's main thread; false too
// when pid is gone.
func hasChildLists(pid int) bool {
	p := strconv.Itoa(pid)
	_, err := os.Stat("/proc/" + p + "/task/" + p + "/children")
	return err == nil
}

// scanNamespace is namespacePids by a scan of the host's /proc.
func scanNamespace(ns string) []int {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	var out []int
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		if l, err := os.Readlink("/proc/" + n + "/ns/pid"); err == nil && l == ns {
			out = append(out, pid)
		}
	}
	return out
}

// groupPids lists the host pids of every process in process group pgid.
func groupPids(pgid int) []int {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	var out []int
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + n + "/stat")
		if err != nil {
			continue
		}
		f, err := statFields(b)
		// f[2] is field 5, pgrp.
		if err == nil && len(f) > 2 && string(f[2]) == strconv.Itoa(pgid) {
			out = append(out, pid)
		}
	}
	return out
}

// treeSampler sums an unsandboxed agent's process and its live
// descendants, found through the kernel's per-thread children lists. A
// descendant orphaned by its parent's exit is re-parented outside the tree
// and no longer counted. It keeps the files it reads open between
// readings (each process's stat file and task directory, each thread's
// children list): a reading is taken around every move, and opening and
// closing those files each time cost most of a move's round trip. A kept
// file of a process that ended reads nothing, even after its pid is
// reused; it is then dropped, and a new one opened if the pid is listed
// again. At most maxKeptFiles are kept, so an agent that makes thousands
// of threads or processes cannot make the arena hold thousands of files;
// the rest are opened and closed at each reading. Without the children
// lists (a kernel built without them) it reads the process alone.
type treeSampler struct {
	root int

	mu     sync.Mutex
	procs  map[int]*procFiles // the kept files, by pid
	kept   int                // files kept, over all procs
	buf    []byte
	dents  []byte
	delays delayLedger
	closed bool
}

// maxKeptFiles bounds the files one agent's readings keep open (nsSampler,
// treeSampler).
const maxKeptFiles = 256

// procFiles are the files of one process of the tree: kept between
// readings, or opened for one reading only.
type procFiles struct {
	stat int            // its stat file
	task int            // its task directory
	kids map[string]int // kept children lists, by thread id
	kept bool
}

func newTreeSampler(root int) *treeSampler {
	return &treeSampler{root: root, procs: map[int]*procFiles{}, buf: make([]byte, 4096), dents: make([]byte, 4096)}
}

// drop closes f's files, and forgets pid's if they were kept.
func (s *treeSampler) drop(pid int, f *procFiles) {
	unix.Close(f.stat)
	unix.Close(f.task)
	for _, fd := range f.kids {
		unix.Close(fd)
	}
	if f.kept {
		s.kept -= 2 + len(f.kids)
		delete(s.procs, pid)
	}
}

// sample reads the tree; memory and the run-queue delay only when r asks.
// The root's failure is the reading's; a descendant that ended meanwhile
// is left out.
func (s *treeSampler) sample(r reading) (usage, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return usage{}, errSamplerClosed
	}
	var u usage
	pids := []int{s.root}
	seen := map[int]bool{s.root: true}
	for i := 0; i < len(pids); i++ {
		pid := pids[i]
		f, b := s.stat(pid)
		if b == nil {
			if pid == s.root {
				return usage{}, fmt.Errorf("read the stat of agent %d: the process ended", pid)
			}
			continue
		}
		own, children, err := parseStatTimes(b)
		if err == nil && r.mem {
			var rss, peak int64
			rss, peak, err = statusMemory("/proc/" + strconv.Itoa(pid) + "/status")
			u.RSS += rss
			u.Peak = max(u.Peak, peak)
		}
		if err != nil {
			if !f.kept {
				s.drop(pid, f)
			}
			if pid == s.root {
				return usage{}, fmt.Errorf("agent %d: %w", pid, err)
			}
			continue
		}
		u.CPU += own + children
		if r.delay {
			taskDelay(f.task, s.dents, s.buf, &s.delays)
		}
		for _, c := range s.children(f) {
			if !seen[c] && len(pids) < maxTree {
				seen[c] = true
				pids = append(pids, c)
			}
		}
		if !f.kept {
			s.drop(pid, f)
		}
	}
	for pid, f := range s.procs {
		if !seen[pid] {
			s.drop(pid, f)
		}
	}
	if r.delay {
		u.RunQueue = s.delays.total()
	}
	return u, nil
}

// stat reads pid's stat file through its kept files, or newly opened ones
// when there are none or the kept ones read nothing (an ended process,
// whose pid may have been reused). It returns nil when the process is
// gone.
func (s *treeSampler) stat(pid int) (*procFiles, []byte) {
	if f := s.procs[pid]; f != nil {
		if k, _ := unix.Pread(f.stat, s.buf, 0); k > 0 {
			return f, s.buf[:k]
		}
		s.drop(pid, f)
	}
	dir := "/proc/" + strconv.Itoa(pid)
	stat, err := unix.Open(dir+"/stat", unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil
	}
	task, err := unix.Open(dir+"/task", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		unix.Close(stat)
		return nil, nil
	}
	f := &procFiles{stat: stat, task: task, kids: map[string]int{}}
	k, _ := unix.Pread(stat, s.buf, 0)
	if k <= 0 {
		s.drop(pid, f)
		return nil, nil
	}
	if s.kept+2 <= maxKeptFiles {
		f.kept = true
		s.kept += 2
		s.procs[pid] = f
	}
	return f, s.buf[:k]
}

// children lists the child pids of every thread of f's process, keeping
// each thread's children list open while files may be kept, and closing
// those of threads gone.
func (s *treeSampler) children(f *procFiles) []int {
	tids, err := dirNames(f.task, s.dents, 0)
	if err != nil {
		return nil // the process ended since its stat was read
	}
	var out []int
	for _, t := range tids {
		fd, ok := f.kids[t]
		if !ok {
			var err error
			if fd, err = unix.Openat(f.task, t+"/children", unix.O_RDONLY|unix.O_CLOEXEC, 0); err != nil {
				continue // ended since the listing, or no children lists
			}
			if f.kept && s.kept < maxKeptFiles {
				f.kids[t] = fd
				s.kept++
			} else {
				out = appendPids(out, s.readAll(fd))
				unix.Close(fd)
				continue
			}
		}
		out = appendPids(out, s.readAll(fd))
	}
	if len(f.kids) > len(tids) {
		for t, fd := range f.kids {
			if !slices.Contains(tids, t) {
				unix.Close(fd)
				delete(f.kids, t)
				s.kept--
			}
		}
	}
	return out
}

// readAll reads a /proc file whole, from its start, growing the buffer
// for a long children list.
func (s *treeSampler) readAll(fd int) []byte {
	n := 0
	for {
		if n == len(s.buf) {
			s.buf = append(s.buf, make([]byte, len(s.buf))...)
		}
		k, err := unix.Pread(fd, s.buf[n:], int64(n))
		if err != nil || k <= 0 {
			return s.buf[:n]
		}
		n += k
	}
}

// appendPids appends the pids of a children list ("12 345 ") to out.
func appendPids(out []int, b []byte) []int {
	for _, f := range bytes.Fields(b) {
		if c, ok := decimal(f); ok {
			out = append(out, int(c))
		}
	}
	return out
}

// close releases the kept files; later readings fail.
func (s *treeSampler) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	for pid, f := range s.procs {
		s.drop(pid, f)
	}
}
