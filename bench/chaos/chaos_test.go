package main

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"
)

func TestMain(m *testing.M) {
	if code, ok := Child(os.Args); ok {
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// TestChaosPlumbing is what -short keeps: the same run without kills, a
// few games, without the course agents (the Java agent's compiles and JVMs
// doubled this run's time, and the Python agent made its 12 games 20;
// TestChaosShort has both); the checks of loss, duplicates, orphans, the
// store and the local reproduction still apply.
func TestChaosPlumbing(t *testing.T) {
	sum, err := Run(context.Background(), Options{Games: 12, Dir: t.TempDir(), Self: os.Args[0], Log: os.Stderr, NoJava: true, NoPython: true})
	t.Log(sum)
	if err != nil {
		t.Fatal(err)
	}
	if sum.CoordKills != 0 || sum.WorkerKills != 0 || sum.Lost != 0 || sum.Duplicated != 0 || sum.Games != sum.Scheduled || sum.Scheduled < 12 ||
		sum.Orphans != 0 || sum.Integrity != "ok" || !sum.Reproduced || !sum.AnonymousRefused || sum.VerdictsDiffer != 0 || sum.JavaAgent || sum.CourseAgent {
		t.Fatalf("%s", sum)
	}
}

// shortGames is the short run's league: 66 games (60 of Dots-and-Boxes,
// 6 of Pentago-Twist). Its disturbances come 0.1–0.5 s apart, the
// coordinator's only once games were stored since its last kill, and all
// landed within the first game stored at load 17 to 24 (the league took
// 90 s there); before, 110 games, 0.3–1.5 s apart, landed within the
// first two, and the rest of the league proved nothing more.
const shortGames = 60

// The short version of the chaos run: a small league (long enough for the
// kills to all land before it ends) with a
// course Python agent when /usr/bin/python3 exists and a COMP424 course
// Java agent (Pentago-Twist, compiled by each worker) when javac and java
// exist, each playing all its games with the local run's verdicts; two kills of each
// kind, a worker stopped past the ack wait, a client without credentials,
// and a rogue worker with valid credentials that acknowledges a job
// without a result and publishes a forged record; nothing lost, nothing
// doubled, nothing of the rogue's stored, nothing left running, the store
// intact and the standings those of a local run.
func TestChaosShort(t *testing.T) {
	if testing.Short() {
		t.Skip("kills and restarts processes for a minute")
	}
	sum, err := Run(context.Background(), Options{Games: shortGames, Kills: 2, Stops: 1, Gap: 500 * time.Millisecond, Dir: t.TempDir(), Self: os.Args[0], Log: os.Stderr})
	t.Log(sum)
	if err != nil {
		t.Fatal(err)
	}
	if sum.CoordKills < 2 || sum.WorkerKills < 2 || sum.Resumes < 2 {
		t.Fatalf("kills: %+v", sum)
	}
	if _, err := os.Stat("/usr/bin/python3"); err == nil && (!sum.CourseAgent || sum.PythonGames == 0) {
		t.Fatalf("the course Python agent played no games: %s", sum)
	}
	checkJava(t, sum)
	if sum.Stops != 1 || !sum.AckedWithoutResult || !sum.Forged || sum.ForgedStored != 0 {
		t.Fatalf("disturbances: %s", sum)
	}
	if sum.Lost != 0 || sum.Duplicated != 0 || sum.Games != sum.Scheduled || sum.Scheduled < shortGames || sum.Orphans != 0 || sum.Integrity != "ok" || !sum.Reproduced || !sum.AnonymousRefused {
		t.Fatalf("%s", sum)
	}
}

// checkJava asserts the Java course agent was in and played its games
// (all of the Pentago-Twist league's: it is one of its two entrants),
// compiled by at least one worker; where Java is missing it says so and
// checks only that the run said why.
func checkJava(t *testing.T, sum Summary) {
	t.Helper()
	_, errc := exec.LookPath("javac")
	_, errj := exec.LookPath("java")
	if errc != nil || errj != nil {
		if sum.JavaAgent || sum.JavaSkipped == "" {
			t.Fatalf("no Java here, yet the run says: %s", sum)
		}
		t.Logf("Java course agent not checked: %s", sum.JavaSkipped)
		return
	}
	if !sum.JavaAgent || sum.JavaGames == 0 || sum.Compiles == 0 || sum.VerdictsDiffer != 0 {
		t.Fatalf("Java course agent: %s", sum)
	}
}
