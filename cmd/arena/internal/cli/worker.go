package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"arena/agents/course"
	"arena/arena/cluster"
	"arena/arena/referee"
	"arena/arena/slots"
)

// workerFlags are arena worker's options.
type workerFlags struct {
	join, name, agentDir, isolation string
	cacheDir                        string
	cacheUnused                     time.Duration
	ep                              cluster.Endpoint
	cores, concurrency              int
	maxAgentMB                      int64
}

func newWorkerCmd(e *Env) *cobra.Command {
	wf := &workerFlags{}
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
fetched from the coordinator (it ships every script, binary, built Go
package and course folder to its server, named by content hash) into
--agent-cache, one folder per hash, checked against the hash the league
recorded, and prepared once (a COMP424 repository compiled, a Python
agent's imports checked): this machine needs only the arena binary, and
Java and Python for course agents. --agent-dir, when given, is searched
first for this machine's own copies (any names, up to two levels down). A
copy with another hash is refused and the coordinator stops with the
reason.
A worker killed in the middle of a game loses nothing: the game goes to
another worker after the ack wait and is played from the start. A worker
that was silent past the ack wait and finds its game given to another
abandons it and says so. See docs/cluster.md.`,
		Example: `  arena worker --join arena-join-1.eyJ1cmwiOi...
  ARENA_JOIN=arena-join-1.eyJ1cmwiOi... arena worker --agent-dir ~/submissions --cores 8
  arena worker --cluster tls://nats.lab:4222 --creds worker.creds --tlscacert ca.pem --name lab-07`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runWorker(cmd, e, wf) },
	}
	f := cmd.Flags()
	f.StringVar(&wf.join, "join", "", "the join token the coordinator printed (default $ARENA_JOIN)")
	f.StringVar(&wf.ep.URL, "cluster", "", "the coordinator's NATS JetStream server, nats://HOST:PORT (with --join: overrides the token's address)")
	f.StringVar(&wf.ep.CredsFile, "creds", "", "an external server's NATS .creds file")
	f.StringVar(&wf.ep.CAFile, "tlscacert", "", "an external server's CA certificates (PEM)")
	f.StringVar(&wf.ep.Scope, "cluster-scope", "", "the league's streams and subjects on an external server (as league run --cluster-scope)")
	f.StringVar(&wf.name, "name", "", "this worker's name in the records and standings without --join (default HOST-PID)")
	f.StringVar(&wf.agentDir, "agent-dir", "", "directory holding this machine's own copies of the league's script, binary and course agents, found by content hash before any is fetched")
	f.StringVar(&wf.cacheDir, "agent-cache", "", "where agents fetched from the coordinator are kept, one folder per content hash (default: the user's cache folder, arena/agents)")
	f.DurationVar(&wf.cacheUnused, "agent-cache-unused", cluster.DefaultCacheUnused, "fetched agents unused for longer are removed from --agent-cache when the worker starts")
	f.Int64Var(&wf.maxAgentMB, "max-agent-mb", cluster.DefaultMaxAgentBytes>>20, "the most one fetched agent may hold, its files together, in MiB")
	f.StringVar(&wf.isolation, "isolation", "auto", "agent sandboxes: auto, required or off (docs/security.md)")
	f.IntVar(&wf.cores, "cores", 0, "use at most N CPU slots (default: every CPU the process may use)")
	f.IntVar(&wf.concurrency, "concurrency", 0, "games at once (default: half the slots, at least 1)")
	return cmd
}

// runWorker joins the cluster and plays until the command is cancelled.
func runWorker(cmd *cobra.Command, e *Env, wf *workerFlags) error {
	if wf.join == "" {
		wf.join = os.Getenv("ARENA_JOIN")
	}
	if wf.join != "" {
		tok, err := cluster.ParseToken(wf.join)
		if err != nil {
			return err
		}
		if wf.ep.URL != "" {
			tok.URL = wf.ep.URL // the coordinator as this machine reaches it
		}
		wf.ep = tok
		wf.name = tok.User
	}
	if wf.ep.URL == "" {
		return fmt.Errorf("worker: --join TOKEN (printed by the coordinator) or --cluster nats://HOST:PORT is required")
	}
	e.Launcher.Isolation = wf.isolation
	if err := e.Launcher.Check(); err != nil {
		return err
	}
	mach, err := slots.Detect(wf.cores)
	if err != nil {
		return err
	}
	pool, err := slots.New(slots.DefaultDir(), mach)
	if err != nil {
		return err
	}
	if wf.cacheDir == "" {
		d, err := os.UserCacheDir()
		if err != nil {
			return fmt.Errorf("worker: no cache folder for fetched agents (give --agent-cache): %w", err)
		}
		wf.cacheDir = filepath.Join(d, "arena", "agents")
	}
	w := &cluster.Worker{
		Endpoint: wf.ep, Registry: e.Registry, Launch: referee.HostLauncher(e.Launcher), Runtime: course.Runtime, Slots: pool,
		Concurrency: wf.concurrency, AgentDir: wf.agentDir, CacheDir: wf.cacheDir, CacheUnused: wf.cacheUnused, Prepare: course.CheckRef,
		Machine: cluster.ThisMachine(wf.name, pool.Size()), Config: cluster.Config{MaxAgentBytes: wf.maxAgentMB << 20},
		Log: cmd.OutOrStdout(),
	}
	fmt.Fprintf(cmd.OutOrStdout(), "worker %s (%s, %d slot(s): %s) taking games from %s\n", w.Machine.Name, w.Machine.CPU, pool.Size(), mach.Why, wf.ep.URL)
	err = w.Run(cmd.Context())
	if cmd.Context().Err() != nil {
		return nil
	}
	return err
}
