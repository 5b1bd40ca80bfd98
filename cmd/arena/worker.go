package main

import (
	"arena/agents/course"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"arena/arena/cluster"
	"arena/arena/referee"
	"arena/arena/slots"
)

func newWorkerCmd(e *env) *cobra.Command {
	var (
		join, name, agentDir, isolation string
		ep                              cluster.Endpoint
		cores, concurrency              int
	)
	cmd := &cobra.Command{
		Use:   "worker --join TOKEN",
		Short: "Play league games handed out by a coordinator (league run --serve-cluster or --cluster)",
		Long: `Take games from a league coordinator's NATS JetStream server, referee them on
this machine and send back their records, until Ctrl-C.

--join takes the token the coordinator printed (or ` + "`arena league token`" + `): it
holds the server's address, the fingerprint of the league's CA (the
server's certificate must chain to it) and this worker's password; the
worker's name in the records is the token's. ARENA_JOIN works too, and keeps
the token off the command line. An external NATS server is reached with
--cluster, --creds and --tlscacert instead.

Each game gets this machine's own CPU slots (one core per agent under a
wall-clock profile, shared with every other arena process here). Agents are
this machine's copies: scripts, binaries and course agents at the
coordinator's paths, or found by content hash in --agent-dir (any names,
up to two levels down); each copy must have the content hash the league
recorded, or the game is refused and the coordinator stops with the reason.
A worker killed in the middle of a game loses nothing: the game goes to
another worker after the ack wait and is played from the start. A worker
that was silent past the ack wait and finds its game given to another
abandons it and says so. See docs/cluster.md.`,
		Example: `  arena worker --join arena-join-1.eyJ1cmwiOi...
  ARENA_JOIN=arena-join-1.eyJ1cmwiOi... arena worker --agent-dir ~/submissions --cores 8
  arena worker --cluster tls://nats.lab:4222 --creds worker.creds --tlscacert ca.pem --name lab-07`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if join == "" {
				join = os.Getenv("ARENA_JOIN")
			}
			if join != "" {
				tok, err := cluster.ParseToken(join)
				if err != nil {
					return err
				}
				if ep.URL != "" {
					tok.URL = ep.URL // the coordinator as this machine reaches it
				}
				ep = tok
				name = tok.User
			}
			if ep.URL == "" {
				return fmt.Errorf("worker: --join TOKEN (printed by the coordinator) or --cluster nats://HOST:PORT is required")
			}
			e.launcher.Isolation = isolation
			if err := e.launcher.Check(); err != nil {
				return err
			}
			mach, err := slots.Detect(cores)
			if err != nil {
				return err
			}
			pool, err := slots.New(slots.DefaultDir(), mach)
			if err != nil {
				return err
			}
			w := &cluster.Worker{
				Endpoint: ep, Registry: e.registry, Launch: referee.HostLauncher(e.launcher), Runtime: course.Runtime, Slots: pool,
				Concurrency: concurrency, AgentDir: agentDir, Machine: cluster.ThisMachine(name, pool.Size()),
				Log: cmd.OutOrStdout(),
			}
			fmt.Fprintf(cmd.OutOrStdout(), "worker %s (%s, %d slot(s): %s) taking games from %s\n", w.Machine.Name, w.Machine.CPU, pool.Size(), mach.Why, ep.URL)
			err = w.Run(cmd.Context())
			if cmd.Context().Err() != nil {
				return nil
			}
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&join, "join", "", "the join token the coordinator printed (default $ARENA_JOIN)")
	f.StringVar(&ep.URL, "cluster", "", "the coordinator's NATS JetStream server, nats://HOST:PORT (with --join: overrides the token's address)")
	f.StringVar(&ep.CredsFile, "creds", "", "an external server's NATS .creds file")
	f.StringVar(&ep.CAFile, "tlscacert", "", "an external server's CA certificates (PEM)")
	f.StringVar(&ep.Scope, "cluster-scope", "", "the league's streams and subjects on an external server (as league run --cluster-scope)")
	f.StringVar(&name, "name", "", "this worker's name in the records and standings without --join (default HOST-PID)")
	f.StringVar(&agentDir, "agent-dir", "", "directory holding this machine's copies of the league's script, binary and course agents, found by content hash (default: the coordinator's paths)")
	f.StringVar(&isolation, "isolation", "auto", "agent sandboxes: auto, required or off (docs/security.md)")
	f.IntVar(&cores, "cores", 0, "use at most N CPU slots (default: every CPU the process may use)")
	f.IntVar(&concurrency, "concurrency", 0, "games at once (default: half the slots, at least 1)")
	return cmd
}
