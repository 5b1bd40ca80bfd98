package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
)

// framework runs games in the course's own framework: its server and one
// client JVM per player, as its launcher started them.
type framework struct {
	repo, classes, logs string
}

const (
	courseMoveMS  = 2000
	courseFirstMS = 30000
	opponentClass = "pentago_twist.RandomPentagoPlayer"
)

func (f *framework) compile(ctx context.Context) error {
	var srcs []string
	err := filepath.WalkDir(filepath.Join(f.repo, "src"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".java") {
			srcs = append(srcs, p)
		}
		return err
	})
	if err != nil {
		return err
	}
	if err := os.MkdirAll(f.classes, 0o755); err != nil {
		return err
	}
	args := append([]string{"-nowarn", "-d", f.classes}, srcs...)
	if out, err := exec.CommandContext(ctx, "javac", args...).CombinedOutput(); err != nil {
		return fmt.Errorf("javac: %v\n%s", err, out)
	}
	return nil
}

// play runs one game of the student class against the course's random
// player; first says whether the student connects (and so plays) first.
func (f *framework) play(ctx context.Context, class string, first bool, n int) (tally, error) {
	logs := filepath.Join(f.logs, fmt.Sprintf("%s-%d", class, n))
	if err := os.MkdirAll(logs, 0o755); err != nil {
		return tally{}, err
	}
	port, err := freePort()
	if err != nil {
		return tally{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	serverOut := &syncBuffer{}
	server := exec.CommandContext(ctx, "java", "-cp", f.classes, "boardgame.Server", "-ng", "-q",
		"-p", strconv.Itoa(port), "-t", strconv.Itoa(courseMoveMS), "-ft", strconv.Itoa(courseFirstMS), "-l", logs)
	server.Stdout, server.Stderr = serverOut, serverOut
	if err := server.Start(); err != nil {
		return tally{}, fmt.Errorf("starting the course's server: %w", err)
	}
	defer server.Process.Kill()
	if err := waitFor(ctx, serverOut, "Waiting for incoming connections"); err != nil {
		return tally{}, err
	}
	order := []string{"student_player." + class, opponentClass}
	if !first {
		order[0], order[1] = order[1], order[0]
	}
	studentErr := &syncBuffer{}
	for i, c := range order {
		cl := exec.CommandContext(ctx, "java", "-cp", f.classes, "-Xms520m", "-Xmx520m", "boardgame.Client", c, "localhost", strconv.Itoa(port))
		cl.Dir = f.repo // the course ran clients at the repository root
		if strings.HasPrefix(c, "student_player.") {
			cl.Stderr = studentErr
		}
		if err := cl.Start(); err != nil {
			return tally{}, fmt.Errorf("starting a course client: %w", err)
		}
		defer func() { cl.Process.Kill(); cl.Wait() }()
		// The server numbers players in the order they connect.
		if err := waitFor(ctx, serverOut, fmt.Sprintf("Player-%d", i)); err != nil {
			return tally{}, err
		}
	}
	if err := server.Wait(); err != nil && ctx.Err() != nil {
		return tally{}, fmt.Errorf("the course's server did not end the game in 10 minutes")
	}
	t, err := readCourseGame(logs, class, serverOut.String())
	if err != nil {
		return t, err
	}
	// The client JVM died (OutOfMemoryError or any uncaught error): the
	// server went on playing random moves for it.
	if strings.Contains(studentErr.String(), "Exception in thread \"main\"") {
		t.died++
	}
	if strings.Contains(studentErr.String(), "OutOfMemoryError") {
		t.memory++
	}
	return t, nil
}

var (
	playerLine  = regexp.MustCompile(`^# Player \d+: Player-(\d+), '([^']*)'`)
	randomReply = regexp.MustCompile(`(?m)^Player (\d+) timeout - Playing random move`)
)

// readCourseGame reads what the course's server judged: the student's
// moves from the game log, replies past the limit (the server played a
// random move instead) from its console, and the outcome line.
func readCourseGame(logs, class, console string) (tally, error) {
	t := tally{games: 1}
	matches, _ := filepath.Glob(filepath.Join(logs, "game*.log"))
	if len(matches) != 1 {
		return t, fmt.Errorf("%s: %w (server said: %s)", logs, errNoGame, strings.TrimSpace(console))
	}
	lf, err := os.Open(matches[0])
	if err != nil {
		return t, err
	}
	defer lf.Close()
	id, name := "", ""
	sc := bufio.NewScanner(lf)
	for sc.Scan() {
		line := sc.Text()
		if m := playerLine.FindStringSubmatch(line); m != nil && id == "" && m[2] != "RandomPlayer" {
			id, name = m[1], m[2]
			continue
		}
		fields := strings.Fields(line)
		if len(fields) == 5 && !strings.HasPrefix(line, "#") && fields[4] == id {
			t.moves++
		}
	}
	if id == "" {
		return t, fmt.Errorf("%s: no player %s in the game log", matches[0], class)
	}
	for _, m := range randomReply.FindAllStringSubmatch(console, -1) {
		if m[1] == id {
			t.substituted++
		}
	}
	out, err := os.ReadFile(filepath.Join(logs, "outcomes.txt"))
	if err != nil {
		return t, fmt.Errorf("the course's server wrote no outcome: %w", err)
	}
	fields := strings.Split(strings.TrimSpace(string(out)), ",")
	reason := fields[len(fields)-1]
	if reason == "TIMEOUT" || strings.HasPrefix(reason, "DISCONNECTION "+name) {
		t.lost++
	}
	if reason == "TIMEOUT" {
		t.time++
	}
	return t, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// waitFor waits for the server to print what (it prints when it listens
// and when it accepts each player; a probe connection would be taken for
// a player).
func waitFor(ctx context.Context, out *syncBuffer, what string) error {
	for !strings.Contains(out.String(), what) {
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for the course's server to say %q: it said %q", what, out.String())
		case <-time.After(100 * time.Millisecond):
		}
	}
	return nil
}

// syncBuffer is a buffer a process writes while the bench reads it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
