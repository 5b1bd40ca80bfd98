package cluster

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"arena/arena/league"
	"arena/arena/record"
	"arena/arena/referee"
	"arena/arena/slots"
	"arena/engine"
	"arena/plugins/host"
)

// Worker plays jobs from the cluster.
type Worker struct {
	URL      string
	Registry *engine.Registry
	// Launch starts an agent from a local launch reference.
	Launch referee.Launcher
	// Runtime tells what runs the agent at a local launch reference, for
	// the profile's memory rule (nil: every agent is native).
	Runtime func(ref string) engine.Runtime
	// Slots are this machine's CPU slots (nil: none reserved).
	Slots *slots.Pool
	// Concurrency is the number of games at once (default: half the
	// slots, at least 1).
	Concurrency int
	// AgentDir, when set, is where this machine keeps its copies of the
	// league's script and binary agents, by file name; otherwise they are
	// expected at the coordinator's paths.
	AgentDir string
	// Machine describes this worker in every result.
	Machine record.Worker
	Config  Config
	// Log receives one line per game and per refused job.
	Log io.Writer
}

// Run takes jobs until ctx is cancelled. A game in progress when ctx ends
// is abandoned: its job goes back to the stream.
func (w *Worker) Run(ctx context.Context) error {
	logw := w.Log
	if logw == nil {
		logw = io.Discard
	}
	// A worker may start before its coordinator's server: it waits.
	nc, js, err := connect(ctx, w.URL, "arena worker "+w.Machine.Name)
	for said := false; err != nil; nc, js, err = connect(ctx, w.URL, "arena worker "+w.Machine.Name) {
		if !said {
			fmt.Fprintf(logw, "%v; retrying every second\n", err)
			said = true
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
	}
	defer nc.Close()
	cons, err := consumer(ctx, js, JobsStream, workerConsumer, w.Config)
	if err != nil {
		return fmt.Errorf("cluster %s: %w", w.URL, err)
	}
	n := w.Concurrency
	if n <= 0 {
		n = 1
		if w.Slots != nil {
			n = max(1, w.Slots.Size()/2)
		}
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				batch, err := cons.Fetch(1, jetstream.FetchMaxWait(2*time.Second))
				if err != nil {
					if ctx.Err() == nil {
						time.Sleep(250 * time.Millisecond)
					}
					continue
				}
				for msg := range batch.Messages() {
					line := w.handle(ctx, js, msg)
					mu.Lock()
					fmt.Fprintln(logw, line)
					mu.Unlock()
				}
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}

// handle plays one job and reports what happened, for the log.
func (w *Worker) handle(ctx context.Context, js jetstream.JetStream, msg jetstream.Msg) string {
	job, err := decode[Job](msg.Data(), "job")
	if err != nil {
		_ = msg.Term()
		return "dropped an unreadable job: " + err.Error()
	}
	m, launch, err := w.match(job)
	if err != nil {
		// Never a silent game: the coordinator is told, and the job waits
		// for a worker whose copies match.
		w.publish(ctx, js, &Result{League: job.League, MatchID: job.MatchID, Error: err.Error(), Worker: w.Machine}, job.MatchID+"/refused/"+w.Machine.Name)
		_ = msg.NakWithDelay(w.Config.ackWait())
		return fmt.Sprintf("refused match %s: %v", job.MatchID, err)
	}
	// Progress keeps a long game from being handed to another worker.
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		t := time.NewTicker(w.Config.ackWait() / 3)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				_ = msg.InProgress()
			}
		}
	}()
	ref := referee.Referee{Launch: func(ctx context.Context, p referee.Player, o host.Options) (referee.Handle, error) {
		p.Ref = launch[p.Name]
		return w.Launch(ctx, p, o)
	}}
	if w.Runtime != nil {
		ref.Runtime = func(p referee.Player) engine.Runtime { return w.Runtime(launch[p.Name]) }
	}
	rec, err := league.PlayPinned(ctx, w.Slots, ref, m, nil)
	if err != nil {
		// Not a verdict (those are records) but the worker failing: the
		// job goes to another worker, replayed from the start.
		_ = msg.Nak()
		return fmt.Sprintf("match %s not played: %v", job.MatchID, err)
	}
	rec.Worker = &w.Machine
	if err := w.publish(ctx, js, &Result{League: job.League, MatchID: job.MatchID, Record: rec, Worker: w.Machine}, job.MatchID); err != nil {
		_ = msg.Nak()
		return fmt.Sprintf("match %s played, result not published: %v", job.MatchID, err)
	}
	// The result is in the stream: the job is done. Should this
	// acknowledgement be lost, the job is replayed and the second result
	// is a duplicate the coordinator ignores.
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	_ = msg.DoubleAck(actx)
	return fmt.Sprintf("played %s: %s", job.MatchID, outcome(rec))
}

func outcome(rec *record.Game) string {
	switch {
	case rec.Result.Draw:
		return "draw"
	case rec.Result.Winner >= 0:
		return rec.Agents[rec.Result.Winner].Name + " won"
	}
	return "no result"
}

func (w *Worker) publish(ctx context.Context, js jetstream.JetStream, res *Result, id string) error {
	body, err := json.Marshal(res)
	if err != nil {
		return err
	}
	pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	_, err = js.Publish(pctx, ResultsSubject, body, jetstream.WithMsgID(id))
	return err
}

// match turns a job into a referee match with this machine's agent
// copies, each checked against the hash the league recorded.
func (w *Worker) match(j *Job) (referee.Match, map[string]string, error) {
	g, err := w.Registry.Lookup(j.Game)
	if err != nil {
		return referee.Match{}, nil, err
	}
	params := engine.Params{}
	for k, v := range j.Params {
		params[k] = v
	}
	prof, err := g.Profile(params)
	if err != nil {
		return referee.Match{}, nil, err
	}
	if prof.Name != j.Profile {
		return referee.Match{}, nil, fmt.Errorf("game %s is played under profile %s here, the league used %s", j.Game, prof.Name, j.Profile)
	}
	prof = prof.Clone()
	var overrides []engine.Override
	for _, o := range j.Overrides {
		ov, err := prof.Apply(o.Setting, o.Value)
		if err != nil {
			return referee.Match{}, nil, fmt.Errorf("override %s: %w", o.Setting, err)
		}
		overrides = append(overrides, ov)
	}
	m := referee.Match{ID: j.MatchID, Game: g, Params: params, Profile: prof, Overrides: overrides, Seed: j.Seed}
	launch := map[string]string{}
	for seat, a := range j.Seats {
		local, err := w.localCopy(a)
		if err != nil {
			return referee.Match{}, nil, err
		}
		launch[a.Name] = local
		m.Players[seat] = referee.Player{Name: a.Name, Ref: a.Ref, Options: a.Options, Hash: a.Hash}
	}
	return m, launch, nil
}

// localCopy finds this machine's copy of an agent and checks its hash.
func (w *Worker) localCopy(a Agent) (string, error) {
	if a.Kind == league.KindBuiltin || a.Hash == "" {
		if a.Kind != league.KindBuiltin {
			return "", fmt.Errorf("agent %s (%s): the league recorded no content hash to check this machine's copy against", a.Name, a.Ref)
		}
		return a.Launch, nil
	}
	path, query, prefix := a.Launch, "", ""
	if rest, ok := strings.CutPrefix(path, "lua:"); ok {
		prefix = "lua:"
		path, query, _ = strings.Cut(rest, "?")
		if query != "" {
			query = "?" + query
		}
	}
	if w.AgentDir != "" {
		path = filepath.Join(w.AgentDir, filepath.Base(path))
	}
	h, err := league.FileHash(path)
	if err != nil {
		return "", fmt.Errorf("agent %s (%s): no copy on this machine: %w", a.Name, a.Ref, err)
	}
	if h != a.Hash {
		return "", fmt.Errorf("agent %s (%s): this machine's copy %s has content hash %s, the league recorded %s", a.Name, a.Ref, path, h, a.Hash)
	}
	return prefix + path + query, nil
}

// ThisMachine describes the machine a worker runs on.
func ThisMachine(name string, cores int) record.Worker {
	hostName, _ := os.Hostname()
	if name == "" {
		name = fmt.Sprintf("%s-%d", hostName, os.Getpid())
	}
	return record.Worker{Name: name, Host: hostName, CPU: cpuModel(), Cores: cores}
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return "unknown"
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}
