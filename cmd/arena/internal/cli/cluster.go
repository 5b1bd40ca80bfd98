package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"arena/arena/cluster"
	"arena/arena/cluster/workerbook"
	"arena/arena/league"
	"arena/arena/league/leaguefile"
)

// clusterFlags are league run's cluster options.
type clusterFlags struct {
	url, serve    string
	creds, caFile string
	scope         string
	window        int
	maxAgentMB    int64
	agentsUnused  time.Duration
}

func (c *clusterFlags) add(f *pflag.FlagSet) {
	f.StringVar(&c.url, "cluster", "", "play the games on workers (arena worker) through this NATS JetStream server, nats://HOST:PORT or tls://HOST:PORT (docs/cluster.md)")
	f.StringVar(&c.serve, "serve-cluster", "", "start a NATS JetStream server for workers on ADDR (\":4222\" is loopback only; 0.0.0.0:4222 every interface), TLS and a password per worker always, its streams and credentials kept in the league directory, and play the games on workers")
	f.StringVar(&c.creds, "creds", "", "with --cluster: a NATS .creds file to authenticate with")
	f.StringVar(&c.caFile, "tlscacert", "", "with --cluster: PEM CA certificates to trust for the server's TLS")
	f.StringVar(&c.scope, "cluster-scope", "", "with --cluster: the name of this league's streams and subjects on a shared server (default "+cluster.DefaultScope+"); workers give the same")
	f.Int64Var(&c.maxAgentMB, "cluster-max-agent-mb", cluster.DefaultMaxAgentBytes>>20, "the most one agent shipped to workers may hold, its files together, in MiB")
	f.DurationVar(&c.agentsUnused, "cluster-agents-unused", cluster.DefaultAgentsUnused, fmt.Sprintf("agents in the cluster's object store that no coordinator has shipped or referenced for longer are removed when the coordinator starts (%v to %v)", cluster.MinAgentsUnused, cluster.MaxAgentsUnused))
	f.IntVar(&c.window, "cluster-window", 0, fmt.Sprintf("jobs published and not yet stored at most (default %d)", cluster.DefaultWindow))
}

// clusterFor connects to the cluster the run is to use, starting the
// embedded server first for --serve-cluster; nil without a cluster.
func (e *Env) clusterFor(ctx context.Context, spec *leaguefile.Spec, rf runFlags) (league.Remote, func(), error) {
	ep := cluster.Endpoint{URL: rf.cl.url, CredsFile: rf.cl.creds, CAFile: rf.cl.caFile, Scope: rf.cl.scope}
	if ep.URL == "" {
		ep.URL = spec.Config.Cluster.URL
	}
	if ep.URL == "" && rf.cl.serve == "" {
		return nil, func() {}, nil
	}
	// Refused before a server starts or a join token is printed.
	if u := rf.cl.agentsUnused; u < cluster.MinAgentsUnused || u > cluster.MaxAgentsUnused {
		return nil, nil, fmt.Errorf("--cluster-agents-unused %v: want between %v and %v", u, cluster.MinAgentsUnused, cluster.MaxAgentsUnused)
	}
	closers := []func(){}
	closeAll := func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
	}
	if rf.cl.serve != "" {
		srv, err := cluster.Serve(rf.cl.serve, spec.Output)
		if err != nil {
			return nil, nil, err
		}
		srv.Log = e.Stderr
		closers = append(closers, srv.Close)
		ep = srv.Coordinator()
		if err := e.printTokens(srv); err != nil {
			closeAll()
			return nil, nil, err
		}
	}
	book, err := workerbook.Open(ctx, spec.Output)
	if err != nil {
		closeAll()
		return nil, nil, err
	}
	closers = append(closers, func() { _ = book.Close() })
	coord, err := cluster.Dial(ctx, ep, cluster.Config{Log: e.Stderr, Window: rf.cl.window, MaxAgentBytes: rf.cl.maxAgentMB << 20, AgentsUnused: rf.cl.agentsUnused,
		MinSpeed: spec.Config.Cluster.MinSpeed, SlowWorkers: spec.Config.Cluster.SlowWorkers, Book: book})
	if err != nil {
		closeAll()
		return nil, nil, err
	}
	closers = append(closers, coord.Close)
	return coord, closeAll, nil
}

// printTokens prints a join token for every worker not revoked, making
// the first one on a league's first start.
func (e *Env) printTokens(srv *cluster.Server) error {
	creds, err := cluster.LoadCredentials(srv.Dir())
	if err != nil {
		return err
	}
	names := []string{}
	for _, m := range creds.Workers {
		if !m.Revoked {
			names = append(names, m.Name)
		}
	}
	if len(names) == 0 {
		names = append(names, "worker1")
	}
	fmt.Fprintf(e.Stderr, "cluster server on %s (TLS, a password per worker; streams and credentials in %s)\n", srv.URL(), filepath.Dir(srv.Dir()))
	for _, n := range names {
		ep, err := srv.Join(n)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.Stderr, "  worker %s joins with: arena worker --join %s\n", n, ep.Token())
	}
	fmt.Fprintf(e.Stderr, "  more workers: arena league token %s NAME; revoke one: arena league token %s NAME --revoke\n", filepath.Dir(srv.Dir()), filepath.Dir(srv.Dir()))
	return nil
}

func newLeagueTokenCmd() *cobra.Command {
	var revoke bool
	cmd := &cobra.Command{
		Use:   "token DIR NAME",
		Short: "Print a worker's join token for a league served with --serve-cluster, or revoke it",
		Long: `Print the join token of worker NAME (made if it has none) for the league whose
results directory is DIR, as league run --serve-cluster prints them. With
--revoke, the worker's credential is revoked: a running coordinator drops
its connections within a second and it cannot join again under that name.
The token holds the server's address, its CA's fingerprint and the
worker's password: give it to that worker only. See docs/cluster.md.`,
		Example: `  arena league token arena-results/course lab-07
  arena league token arena-results/course lab-07 --revoke`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir := filepath.Join(args[0], "cluster")
			if _, err := os.Stat(dir); err != nil {
				return fmt.Errorf("no cluster credentials in %s: run `arena league run --serve-cluster ADDR` on it first", args[0])
			}
			if revoke {
				if err := cluster.Revoke(dir, args[1]); err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "worker %s revoked\n", args[1])
				return nil
			}
			fp, err := cluster.Fingerprint(dir)
			if err != nil {
				return err
			}
			ep, err := cluster.Issue(dir, fp, args[1])
			if err != nil {
				return err
			}
			fmt.Fprintf(cmd.OutOrStdout(), "arena worker --join %s\n", ep.Token())
			return nil
		},
	}
	cmd.Flags().BoolVar(&revoke, "revoke", false, "revoke the worker's credential instead")
	return cmd
}
