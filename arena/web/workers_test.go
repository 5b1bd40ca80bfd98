package web_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"arena/arena/cluster/workerbook"
)

// The workers page shows what the coordinator wrote of each worker
// (name, CPUs, benchmark and class, games played and in progress,
// refusals, last seen), its text escaped; a directory without a cluster
// shows none.
func TestWorkersPage(t *testing.T) {
	f := newFixture(t)
	if code, body := get(t, f.srv.URL+"/workers"); code != http.StatusOK || !strings.Contains(body, "No league here was played on cluster workers") {
		t.Fatalf("workers page without a cluster: %d\n%s", code, body)
	}
	ctx := context.Background()
	b, err := workerbook.Open(ctx, f.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	seen := time.Now().Add(-90 * time.Second)
	err = b.Save(ctx, []workerbook.Worker{
		{Name: "lab07", Host: "lab07.cs", CPU: "EPYC 7763", Cores: 8, Score: 41.25, Class: "standard", Games: 12, InProgress: 2, LastSeen: seen},
		{Name: "lab09" + evil, Host: "lab09.cs", CPU: "Atom", Cores: 2, Score: 9, Class: "slow", Refusals: 3, LastRefusal: "slow: benchmark score 9.0 is under", LastSeen: seen},
	})
	if err != nil {
		t.Fatal(err)
	}
	code, body := get(t, f.srv.URL+"/workers")
	if code != http.StatusOK {
		t.Fatalf("workers page: %d\n%s", code, body)
	}
	row := func(name string) string {
		i := strings.Index(body, `<td class="agent">`+name)
		if i < 0 {
			t.Fatalf("no row for %s:\n%s", name, body)
		}
		return body[i : i+strings.Index(body[i:], "</tr>")]
	}
	lab07 := row("lab07")
	for _, want := range []string{"lab07.cs", "EPYC 7763", "<td>8</td>", "<td>41.2</td>", "<td>standard</td>", "<td>12</td>", "<td>2</td>", "<td>0</td>", "ago</td>"} {
		if !strings.Contains(lab07, want) {
			t.Fatalf("lab07's row lacks %q: %s", want, lab07)
		}
	}
	lab09 := row("lab09")
	for _, want := range []string{"<td>2</td>", "<td>9.0</td>", `class="bad">slow`, `>3</td>`, "slow: benchmark score 9.0 is under"} {
		if !strings.Contains(lab09, want) {
			t.Fatalf("lab09's row lacks %q: %s", want, lab09)
		}
	}
	if strings.Contains(body, evil) {
		t.Fatal("a worker's name went into the page unescaped")
	}
	if _, body := get(t, f.srv.URL+"/"); !strings.Contains(body, `href="/workers"`) {
		t.Fatal("the leagues page does not link the workers page")
	}
}
