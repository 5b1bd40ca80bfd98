package cli

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"arena/cmd/arena/internal/clitest"
)

// TestLeagueRunServe runs a league with --serve: the viewer is up while
// the league plays, shows the finished standings afterwards, refuses
// writes, and Ctrl-C ends the command cleanly.
func TestLeagueRunServe(t *testing.T) {
	t.Parallel() // its own processes and directories; mostly waiting on them
	bin := clitest.BuildArena(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	work := t.TempDir()
	file := filepath.Join(work, "served.yaml")
	if err := os.WriteFile(file, []byte("name: served\ngame: dots-and-boxes\nparams:\n  rows: 3\n  cols: 3\nagents:\n  - name: first\n    agent: builtin:greedy\n  - name: second\n    agent: builtin:random\ngames_per_pairing: 4\noutput: "+filepath.Join(work, "out")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.CommandContext(ctx, bin, "league", "run", file, "--serve", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var errb strings.Builder
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	wait := func(re *regexp.Regexp) string {
		t.Helper()
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					t.Fatalf("output ended before %s\n%s", re, errb.String())
				}
				if m := re.FindString(l); m != "" {
					return m
				}
			case <-ctx.Done():
				t.Fatalf("no line matching %s", re)
			}
		}
	}
	url := wait(regexp.MustCompile(`http://127\.0\.0\.1:\d+/`))
	wait(regexp.MustCompile(`league finished; the viewer stays at`))
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `<strong class="played">4 of 4</strong>`) || !strings.Contains(string(body), "first") {
		t.Fatalf("viewer after the league:\n%s", body)
	}
	resp, err = http.Post(url, "text/plain", strings.NewReader("x"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d, want 405", resp.StatusCode)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	for range lines {
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("Ctrl-C after the league finished: %v\n%s", err, errb.String())
	}
}
