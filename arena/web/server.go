// Package web is the read-only web viewer of leagues and games: standings
// with a cross-table and a rating chart, the games of a league with
// filters, and one game with the board at every ply (drawn by the game
// itself as SVG), a time chart, penalties and stderr tails. Pages are
// html/template (everything agents or league files wrote is escaped),
// assets are embedded in the binary, and live pages refresh through
// server-sent events when the store changes. It knows no game by name.
package web

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"arena/arena/league/live"
	"arena/arena/results/resultsdb"
	"arena/engine"
)

//go:embed templates/*.html
var templateFS embed.FS

//go:embed static
var staticFS embed.FS

// Options tune a Server.
type Options struct {
	// Poll is how often a live page's event stream checks the stores for
	// new games (default 1 s).
	Poll time.Duration
	// Title names the site in page headings (default "arena").
	Title string
}

// Server serves the viewer for a set of league directories.
type Server struct {
	reg     *engine.Registry
	sources []*source
	opt     Options
	tmpl    *template.Template
}

// source is one league directory; its store is opened read-only on first
// use, so a league that has not written its store yet can be served.
type source struct {
	dir string
	mu  sync.Mutex
	st  *resultsdb.SQLite
}

func (s *source) store(ctx context.Context) (*resultsdb.SQLite, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.st != nil {
		return s.st, nil
	}
	st, err := resultsdb.OpenLive(ctx, filepath.Join(s.dir, resultsdb.FileName))
	if err != nil {
		return nil, err
	}
	s.st = st
	return st, nil
}

func parseTemplates() (*template.Template, error) {
	t, err := template.New("").Funcs(funcs).ParseFS(templateFS, "templates/*.html")
	if err != nil {
		return nil, fmt.Errorf("viewer templates: %w", err)
	}
	return t, nil
}

// New returns a viewer of the league directories dirs (each holding a
// results store, now or once its league starts).
func New(reg *engine.Registry, dirs []string, opt Options) (*Server, error) {
	if opt.Poll <= 0 {
		opt.Poll = time.Second
	}
	if opt.Title == "" {
		opt.Title = "arena"
	}
	t, err := parseTemplates()
	if err != nil {
		return nil, err
	}
	s := &Server{reg: reg, opt: opt, tmpl: t}
	for _, d := range dirs {
		s.sources = append(s.sources, &source{dir: d})
	}
	return s, nil
}

// Close closes the stores opened so far.
func (s *Server) Close() error {
	var errs []error
	for _, src := range s.sources {
		src.mu.Lock()
		if src.st != nil {
			errs = append(errs, src.st.Close())
			src.st = nil
		}
		src.mu.Unlock()
	}
	return errors.Join(errs...)
}

// Handler routes the viewer's pages. Only GET and HEAD are served: the
// viewer never changes anything.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	static, _ := fs.Sub(staticFS, "static")
	mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(static)))
	mux.HandleFunc("GET /{$}", s.leaguesPage)
	mux.HandleFunc("GET /games", s.gamesPage)
	mux.HandleFunc("GET /game", s.gamePage)
	mux.HandleFunc("GET /download", s.downloadGame)
	mux.HandleFunc("GET /events", s.events)
	mux.HandleFunc("GET /workers", s.workersPage)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		// No script but our own file, no inline script, nothing from
		// elsewhere: whatever slipped into a page could not run.
		h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "read-only viewer: only GET and HEAD", http.StatusMethodNotAllowed)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

func (s *Server) sourceOf(r *http.Request) (*source, int, error) {
	i, err := strconv.Atoi(r.URL.Query().Get("src"))
	if err != nil || i < 0 || i >= len(s.sources) {
		return nil, 0, fmt.Errorf("unknown source %q", r.URL.Query().Get("src"))
	}
	return s.sources[i], i, nil
}

func (s *Server) render(w http.ResponseWriter, name string, data any) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	if err := s.tmpl.ExecuteTemplate(w, name, data); err != nil {
		// Headers are gone by now; say it in the page.
		fmt.Fprintf(w, "<p class=error>%s</p>", template.HTMLEscapeString(err.Error()))
	}
}

func (s *Server) fail(w http.ResponseWriter, code int, err error) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(code)
	_ = s.tmpl.ExecuteTemplate(w, "error", map[string]any{"Title": s.opt.Title, "Error": err.Error()})
}

// events streams "update" events whenever a store's version changes, and
// a comment every 15 s to keep proxies from closing the stream.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		http.Error(w, "streaming unsupported", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	ctx := r.Context()
	last, lastMoves := s.versions(ctx), s.liveVersions()
	fmt.Fprintf(w, "retry: 2000\nevent: hello\ndata: %s\n\n", last)
	fl.Flush()
	tick := time.NewTicker(s.opt.Poll)
	defer tick.Stop()
	keep := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		v, mv := s.versions(ctx), s.liveVersions()
		switch {
		case v != last:
			last, lastMoves = v, mv
			fmt.Fprintf(w, "event: update\ndata: %s\n\n", v)
			fl.Flush()
			keep = time.Now()
		case mv != lastMoves:
			// Only the games in progress moved: pages with live boards
			// listen for this, the others (a long games list) need not
			// fetch themselves again.
			lastMoves = mv
			fmt.Fprintf(w, "event: moves\ndata: %s\n\n", mv)
			fl.Flush()
			keep = time.Now()
		case time.Since(keep) > 15*time.Second:
			fmt.Fprint(w, ": keep-alive\n\n")
			fl.Flush()
			keep = time.Now()
		}
	}
}

// versions joins every store's version ("-" for a store not there yet).
func (s *Server) versions(ctx context.Context) string {
	out := ""
	for _, src := range s.sources {
		v := "-"
		if st, err := src.store(ctx); err == nil {
			if sv, err := st.Version(ctx); err == nil {
				v = sv
			}
		}
		out += v + ";"
	}
	return out
}

// liveVersions is live.Version of every league directory, so a change
// of any board is seen.
func (s *Server) liveVersions() string {
	var b strings.Builder
	for _, src := range s.sources {
		b.WriteString(live.Version(src.dir))
		b.WriteByte(';')
	}
	return b.String()
}

// LoopbackAddr turns ":PORT" into "127.0.0.1:PORT": the viewer listens on
// loopback unless a host is named (0.0.0.0 for every interface).
func LoopbackAddr(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err == nil && host == "" {
		return net.JoinHostPort("127.0.0.1", port)
	}
	return addr
}

// Listen opens the viewer's listener (loopback unless addr names a host)
// and returns it with the viewer's URL.
func Listen(addr string) (net.Listener, string, error) {
	ln, err := net.Listen("tcp", LoopbackAddr(addr))
	if err != nil {
		return nil, "", fmt.Errorf("viewer: %w", err)
	}
	return ln, "http://" + ln.Addr().String() + "/", nil
}

// Serve serves h on ln until ctx ends, then shuts down, giving open event
// streams a moment to close.
func Serve(ctx context.Context, ln net.Listener, h http.Handler) error {
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		srv.Close()
	}
	if err := <-done; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
