package main

import (
	"arena/agents/course"
	"fmt"

	"github.com/spf13/cobra"

	"arena/arena/cluster"
	"arena/arena/referee"
	"arena/arena/slots"
)

func newWorkerCmd(e *env) *cobra.Command {
	var (
		url, name, agentDir, isolation string
		cores, concurrency             int
	)
	cmd := &cobra.Command{
		Use:   "worker --cluster nats://HOST:4222",
		Short: "Play league games handed out by a coordinator (league run --cluster)",
		Long: `Take games from a league coordinator's NATS JetStream server, referee them on
this machine and send back their records, until Ctrl-C.

Each game gets this machine's own CPU slots (one core per agent under a
wall-clock profile, shared with every other arena process here). Agents are
this machine's copies: scripts and binaries at the coordinator's paths, or
by file name in --agent-dir; each copy must have the content hash the league
recorded, or the game is refused and the coordinator stops with the reason.
A worker killed in the middle of a game loses nothing: the game goes to
another worker after the ack wait and is played from the start.
See docs/cluster.md.`,
		Example: `  arena worker --cluster nats://coordinator:4222
  arena worker --cluster nats://10.0.0.5:4222 --agent-dir ~/agents --cores 8`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if url == "" {
				return fmt.Errorf("worker: --cluster nats://HOST:PORT is required")
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
				URL: url, Registry: e.registry, Launch: referee.HostLauncher(e.launcher), Runtime: course.Runtime, Slots: pool,
				Concurrency: concurrency, AgentDir: agentDir, Machine: cluster.ThisMachine(name, pool.Size()),
				Log: cmd.OutOrStdout(),
			}
			fmt.Fprintf(cmd.OutOrStdout(), "worker %s (%s, %d slot(s): %s) taking games from %s\n", w.Machine.Name, w.Machine.CPU, pool.Size(), mach.Why, url)
			err = w.Run(cmd.Context())
			if cmd.Context().Err() != nil {
				return nil
			}
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&url, "cluster", "", "the coordinator's NATS JetStream server, nats://HOST:PORT")
	f.StringVar(&name, "name", "", "this worker's name in the records and standings (default HOST-PID)")
	f.StringVar(&agentDir, "agent-dir", "", "directory holding this machine's copies of the league's script and binary agents, by file name (default: the coordinator's paths)")
	f.StringVar(&isolation, "isolation", "auto", "agent sandboxes: auto, required or off (docs/security.md)")
	f.IntVar(&cores, "cores", 0, "use at most N CPU slots (default: every CPU the process may use)")
	f.IntVar(&concurrency, "concurrency", 0, "games at once (default: half the slots, at least 1)")
	return cmd
}
