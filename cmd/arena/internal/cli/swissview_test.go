package cli

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"arena/arena/web"
	"arena/cmd/arena/internal/clitest"
	"arena/games/all"
)

// A Swiss league's rounds reach the viewer: the leagues page shows the
// table the console prints, every round's opponent included.
func TestViewerShowsSwissRounds(t *testing.T) {
	t.Parallel() // its own directories and agents; nothing it asserts is timed
	clitest.LongRunning(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "swiss.yaml")
	body := "game: bohnenspiel\nformat: swiss\nrounds: 2\nagents:\n"
	for _, n := range []string{"ann", "bob", "cy", "dee"} {
		body += "  - name: " + n + "\n    agent: builtin:random\n"
	}
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	e, stdout, stderr := testEnv(t)
	if err := run(t, e, "league", "run", file, "--output", out); err != nil {
		t.Fatalf("league run: %v\n%s\n%s", err, stdout, stderr)
	}
	srv, err := web.New(all.Registry(), []string{out}, web.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	resp, err := http.Get(ts.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(page), "Rounds and bracket") || !strings.Contains(string(page), `<pre class="stages">`) {
		t.Fatalf("the leagues page shows no Swiss rounds:\n%s", page)
	}
	// The console's table, as printed under the standings, is what the page shows.
	for _, n := range []string{"ann", "bob", "cy", "dee"} {
		if !strings.Contains(string(page), n) {
			t.Errorf("the rounds lack %s", n)
		}
	}
}
