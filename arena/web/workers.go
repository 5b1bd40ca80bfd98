package web

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"time"

	"arena/arena/cluster/workerbook"
)

// workersView is one league directory's cluster workers.
type workersView struct {
	Dir     string
	Workers []workerbook.Worker
	Now     time.Time
}

// workersPage lists each league directory's cluster workers as its
// coordinator last wrote them (cluster/workers.db): machine, benchmark
// score and class, games played and in progress, refusals, last seen.
func (s *Server) workersPage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	var views []workersView
	var errs []string
	for _, src := range s.sources {
		b, err := workerbook.OpenReadOnly(ctx, src.dir)
		if errors.Is(err, os.ErrNotExist) {
			continue // a league played without a cluster
		}
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		ws, err := b.List(ctx)
		b.Close()
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", src.dir, err))
			continue
		}
		views = append(views, workersView{Dir: src.dir, Workers: ws, Now: time.Now()})
	}
	s.render(w, "workers", map[string]any{"Title": s.opt.Title, "PageTitle": "Workers", "Sources": views, "Errors": errs})
}

// ago says how long before now t was, to the second.
func ago(now, t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	return now.Sub(t).Round(time.Second).String() + " ago"
}
