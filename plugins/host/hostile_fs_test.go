package host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"arena/internal/forksafe"
	"arena/plugins/host"
)

// league is a league's files laid out as a course keeps them: entrants'
// folders side by side, the league file, the results folder with its
// store, records and journal.
type league struct {
	top, attacker, sibling, siblingFile string
	secrets                             []string
}

// newLeague lays a league out under a fresh folder of mode topMode (0755:
// readable by every user; 0700: a home directory), the attacker's binary
// in its own entrant folder.
func newLeague(t *testing.T, topMode os.FileMode, bin string) league {
	t.Helper()
	top, err := os.MkdirTemp("", "league-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(top) })
	var lg league
	lg.top = top
	write := func(rel, body string, mode os.FileMode) string {
		p := filepath.Join(top, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	lg.siblingFile = write("entrants/bob/bot.lua", "-- bob's secret strategy\n", 0o644)
	lg.sibling = filepath.Dir(lg.siblingFile)
	store := write("results/results.db", "SQLite format 3\x00", 0o644)
	rec := write("results/records/g1.json", `{"id":"g1"}`, 0o644)
	journal := write("results/journal", "j\n", 0o644)
	leagueFile := write("league.yaml", "game: bohnenspiel\n", 0o644)
	lg.secrets = []string{lg.sibling, lg.siblingFile, filepath.Join(top, "results"), store,
		filepath.Dir(rec), rec, journal, leagueFile,
		filepath.Dir(os.Args[0]), "/home", "/root", "/var", "/opt"}
	lg.attacker = filepath.Join(top, "entrants", "alice", "hostile")
	if err := os.MkdirAll(filepath.Dir(lg.attacker), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := forksafe.Copy(bin, lg.attacker); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(top, topMode); err != nil {
		t.Fatal(err)
	}
	return lg
}

// A sandboxed agent sees none of the league's files but its own, whatever
// the modes of the folders they lie in: not a sibling entrant's folder,
// the store, the records, the journal, the league file, the arena's binary
// folder, /home, /root or /run. Its own program and scratch still work.
func TestHostileReadsTheLeague(t *testing.T) {
	t.Parallel() // its own agents and game; mostly waiting on them
	requireSandbox(t)
	bin := hostileAgent(t)
	for _, c := range []struct {
		name string
		mode os.FileMode
	}{{"readable layout", 0o755}, {"private layout", 0o700}} {
		t.Run(c.name, func(t *testing.T) {
			lg := newLeague(t, c.mode, bin)
			// The folders above its own files are in its root, holding
			// only the way to them.
			ways := map[string]string{lg.top: "[entrants]", filepath.Join(lg.top, "entrants"): "[alice]"}
			paths, err := json.Marshal(append(lg.secrets, lg.attacker, lg.top, filepath.Join(lg.top, "entrants")))
			if err != nil {
				t.Fatal(err)
			}
			g, prof := bohnenspielGame(t)
			hg := playHostileAs(t, host.IsolationAuto, "files", lg.attacker, bin, g, nil, prof, func(*host.Process) []string {
				return []string{"HOSTILE_PATHS=" + string(paths)}
			})
			e := hg.rec.Stderr[0]
			for _, p := range lg.secrets {
				want := "attack: open " + p + ": open " + p + ": no such file or directory"
				if !strings.Contains(e, want) {
					t.Errorf("the agent reached %s:\n%s", p, e)
				}
			}
			for p, names := range ways {
				if want := "attack: open " + p + ": <nil> " + names + "\n"; !strings.Contains(e, want) {
					t.Errorf("stderr lacks %q:\n%s", want, e)
				}
			}
			if !strings.Contains(e, "attack: open "+lg.attacker+": <nil>") {
				t.Errorf("the agent could not read its own program:\n%s", e)
			}
			if len(hg.events(0)) != 0 {
				t.Errorf("verdict: a normal game, got %+v", hg.events(0))
			}
			checkOpponent(t, hg)
			checkGone(t, hg)
		})
	}
}

// An agent pinned to one CPU cannot widen its own affinity: the sandbox's
// seccomp filter answers sched_setaffinity with EPERM, and it stays on
// its CPU.
func TestHostileWidensAffinity(t *testing.T) {
	t.Parallel() // its own agents and game; mostly waiting on them
	requireSandbox(t)
	l := launcher()
	l.Env = []string{"HOSTILE=affinity"}
	p, err := l.Launch(context.Background(), hostileAgent(t), host.Options{CPUs: []int{0}, StartTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Kill()
	// The attack runs before the handshake; its report may trail it.
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(p.Stderr(), "affinity after:") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	e := p.Stderr()
	for _, want := range []string{"attack: setaffinity: operation not permitted", "attack: affinity after: [0] <nil>"} {
		if !strings.Contains(e, want) {
			t.Errorf("stderr lacks %q:\n%s", want, e)
		}
	}
}

// A kept agent's children (setsid'ed, orphaned) are killed between games,
// its main process is kept and still answers; once its main process is
// gone, the tree is refused for reuse. Without a sandbox, a child that
// left the agent's process group is found as the agent's child.
func TestHostileKeptChildrenKilled(t *testing.T) {
	t.Parallel() // its own agents and game; mostly waiting on them
	for _, c := range []struct{ name, iso, hostile string }{
		{host.IsolationAuto, host.IsolationAuto, "children-at-start"},
		{host.IsolationOff, host.IsolationOff, "children-at-start"},
		{"off-setsid", host.IsolationOff, "setsid-child-at-start"},
	} {
		iso := c.iso
		t.Run(c.name, func(t *testing.T) {
			if iso != host.IsolationOff {
				requireSandbox(t)
			}
			l := launcher()
			l.Isolation = iso
			l.Env = []string{"HOSTILE=" + c.hostile}
			want := 1 // the agent, which the sandbox's init became
			if iso == host.IsolationOff && c.hostile == "children-at-start" {
				// Unsandboxed, the children stay in the agent's group: an
				// orphan outside it would be out of reach.
				l.Env = append(l.Env, "HOSTILE_STAY=1")
			}
			p, err := l.Launch(context.Background(), hostileAgent(t), host.Options{StartTimeout: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Kill()
			var before []int
			deadline := time.Now().Add(30 * time.Second)
			for time.Now().Before(deadline) {
				before = running(p.Pids())
				spawned := strings.Count(p.Stderr(), "attack: spawned ")
				// A child outside the agent's group is not among its pids.
				if spawned >= children[c.hostile] && (c.hostile != "children-at-start" || len(before) >= want+spawned) {
					break
				}
				time.Sleep(20 * time.Millisecond)
			}
			// Unsandboxed, the pids the agent reports are the machine's; the
			// setsid'ed child is the one that lives on as the agent's child
			// (a double fork's first child exits at once).
			var setsid []int
			if iso == host.IsolationOff {
				setsid = spawnedPids(p.Stderr(), "setsid")
				if len(running(setsid)) != 1 {
					t.Fatalf("setsid'ed children %v running, want one:\n%s", running(setsid), p.Stderr())
				}
			}
			if err := p.KillExtras(); err != nil {
				t.Fatal(err)
			}
			after := running(p.Pids())
			if len(after) != want {
				t.Fatalf("processes before %v, after %v: want %d left", before, after, want)
			}
			if left := running(setsid); len(left) != 0 {
				t.Fatalf("setsid'ed child %v outlived KillExtras", left)
			}
			if _, err := p.Agent.Describe(context.Background()); err != nil {
				t.Fatalf("the kept agent no longer answers: %v", err)
			}
			// Sandboxed, what is left is the init, which became the agent.
			main := after[len(after)-1]
			if iso != host.IsolationOff && main != p.Pid() {
				t.Fatalf("processes left %v: want the sandbox's init %d, the agent", after, p.Pid())
			}
			if err := syscall.Kill(main, syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			if !p.WaitGone(10 * time.Second) {
				t.Fatal("the agent outlived SIGKILL")
			}
			if err := p.KillExtras(); err == nil {
				t.Fatal("a tree without its main process was passed for reuse")
			}
		})
	}
}

// spawnedPids are the pids of the children the hostile agent reports on
// its stderr as started in a mode matching the regular expression mode.
func spawnedPids(stderr, mode string) []int {
	var pids []int
	for _, m := range regexp.MustCompile(`attack: spawned `+mode+` (\d+)`).FindAllStringSubmatch(stderr, -1) {
		pid, _ := strconv.Atoi(m[1])
		pids = append(pids, pid)
	}
	return pids
}

// children is how many children each hostile mode starts.
var children = map[string]int{"children-at-start": 2, "setsid-child-at-start": 1}

// running drops the zombies from pids.
func running(pids []int) []int {
	var out []int
	for _, pid := range pids {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			continue
		}
		if f := bytes.Fields(b[bytes.LastIndexByte(b, ')')+1:]); len(f) > 0 && string(f[0]) != "Z" {
			out = append(out, pid)
		}
	}
	return out
}

// What an agent wrote to stderr reaches the record whatever ended the
// game — its normal end, an unparseable reply, a move never made, the
// agent's exit — sandboxed and not: the line written just before the
// end included, which go-plugin's forwarding of os.Stderr lost.
func TestHostileStderrWhateverEndsTheGame(t *testing.T) {
	t.Parallel() // its own agents and game; mostly waiting on them
	for _, iso := range []string{host.IsolationAuto, host.IsolationOff} {
		for _, end := range []string{"normal", "garbage", "hang", "crash"} {
			t.Run(iso+"/"+end, func(t *testing.T) {
				t.Parallel() // its own game; the hang waits out its limit
				if iso != host.IsolationOff {
					requireSandbox(t)
				}
				g, prof := bohnenspielGame(t)
				prof.MoveLimit = 5 * time.Second // the hang ends the game on time
				hg := playHostileIn(t, iso, "words-"+end, g, nil, prof, nil)
				if end != "normal" && len(hg.events(0)) == 0 && hg.rec.Result.Forfeit == "" {
					t.Fatalf("the %s end was not judged: %+v", end, hg.rec.Result)
				}
				if !strings.Contains(hg.rec.Stderr[0], "attack: last words at move 2") {
					t.Errorf("the record lacks the agent's last stderr line: %q", hg.rec.Stderr[0])
				}
				checkOpponent(t, hg)
				checkGone(t, hg)
			})
		}
	}
}
