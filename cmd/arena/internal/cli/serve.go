package cli

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"arena/arena/results/resultsdb"
	"arena/arena/web"
)

func newServeCmd(e *Env) *cobra.Command {
	var addr string
	cmd := &cobra.Command{
		Use:   "serve [LEAGUE.yaml|DIR...]",
		Short: "Serve a read-only web viewer of leagues and their games",
		Long: `Serve a web viewer of league results: live standings with a cross-table and a
rating chart with 95% intervals, the games of a league filtered by agent,
result and penalty kind, and each game move by move (the board at every ply,
a time chart against the limit, penalties with their detail, the agents'
stderr tails). Pages refresh by themselves while a league is running.

Arguments are league files (their output directory is served) or league
directories; without any, every league directory under ./arena-results.
Stores are opened read-only and the server answers GET requests only. It
listens on loopback (127.0.0.1) unless --addr names another host;
everything is served from the binary, nothing from elsewhere. See
docs/viewer.md.`,
		Example: `  arena serve
  arena serve configs/demo.yaml
  arena serve --addr 127.0.0.1:9000 arena-results/demo arena-results/cachex`,
		RunE: func(cmd *cobra.Command, args []string) error {
			dirs, err := e.leagueDirs(cmd, args)
			if err != nil {
				return err
			}
			return serveViewer(cmd.Context(), e, cmd.OutOrStdout(), addr, dirs)
		},
	}
	cmd.Flags().StringVar(&addr, "addr", "127.0.0.1:8080", "address to listen on (host:port; \":port\" means loopback; port 0 picks a free one)")
	return cmd
}

// leagueDirs resolves serve's arguments to league directories.
func (e *Env) leagueDirs(cmd *cobra.Command, args []string) ([]string, error) {
	if len(args) == 0 {
		dirs := resultsdb.FindDirs("arena-results")
		if len(dirs) == 0 {
			return nil, fmt.Errorf("no league results under ./arena-results: run a league first, or name league files or directories")
		}
		return dirs, nil
	}
	var dirs []string
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil {
			return nil, fmt.Errorf("serve: %w", err)
		}
		if fi.IsDir() {
			dirs = append(dirs, a)
			continue
		}
		spec, err := e.loadLeague(cmd, a, nil, false)
		if err != nil {
			return nil, err
		}
		dirs = append(dirs, spec.Output)
	}
	return dirs, nil
}

// serveViewer serves the viewer of dirs on addr until ctx ends, printing
// its URL first.
func serveViewer(ctx context.Context, e *Env, out io.Writer, addr string, dirs []string) error {
	srv, err := web.New(e.Registry, dirs, web.Options{})
	if err != nil {
		return err
	}
	defer srv.Close()
	ln, url, err := web.Listen(addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "viewer at %s (read-only; Ctrl-C stops it)\n", url)
	return web.Serve(ctx, ln, srv.Handler())
}

// runLeagueServed runs a league with the viewer of its directory served on
// addr while it plays, and keeps serving after the league ends until ctx
// does (Ctrl-C), so the final standings stay on screen.
func runLeagueServed(ctx context.Context, e *Env, cmd *cobra.Command, file string, rf runFlags) error {
	spec, err := e.loadLeague(cmd, file, rf.sets, true)
	if err != nil {
		return err
	}
	srv, err := web.New(e.Registry, []string{spec.Output}, web.Options{})
	if err != nil {
		return err
	}
	defer srv.Close()
	ln, url, err := web.Listen(rf.serve)
	if err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "live viewer at %s (read-only)\n", url)
	sctx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- web.Serve(sctx, ln, srv.Handler()) }()
	runErr := runLeague(ctx, e, cmd, file, rf)
	if runErr == nil && ctx.Err() == nil {
		fmt.Fprintf(out, "league finished; the viewer stays at %s until Ctrl-C\n", url)
		<-ctx.Done()
	}
	stop()
	if err := <-served; err != nil && runErr == nil {
		return err
	}
	if runErr == nil && ctx.Err() != nil {
		return nil // stopped by Ctrl-C after the league finished
	}
	return runErr
}
