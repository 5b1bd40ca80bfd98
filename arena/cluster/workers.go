package cluster

import (
	"context"
	"encoding/json"
	"time"

	"github.com/nats-io/nats.go"

	"arena/arena/cluster/workerbook"
	"arena/arena/record"
)

// workerBook is what the coordinator knows of its workers, written to
// Config.Book (the viewer's workers page) at every check and on Close.
type workerBook struct {
	book   *workerbook.Book
	byName map[string]*workerbook.Worker
}

// load starts from what an earlier run of this league wrote, so games and
// refusals add up across coordinator restarts; nothing is in progress.
func (b *workerBook) load(ctx context.Context) error {
	b.byName = map[string]*workerbook.Worker{}
	if b.book == nil {
		return nil
	}
	ws, err := b.book.List(ctx)
	if err != nil {
		return err
	}
	for i := range ws {
		ws[i].InProgress = 0
		b.byName[ws[i].Name] = &ws[i]
	}
	return nil
}

// get is the worker's entry, made on first word from it.
func (b *workerBook) get(name string) *workerbook.Worker {
	w := b.byName[name]
	if w == nil {
		w = &workerbook.Worker{Name: name}
		b.byName[name] = w
	}
	return w
}

// seen notes a worker's machine and the time it spoke; c.mu is held.
func (c *Coordinator) seen(name string, m record.Worker, now time.Time) {
	w := c.book.get(name)
	if m.Host != "" {
		w.Host, w.CPU, w.Cores = m.Host, m.CPU, m.Cores
		if _, ok := c.measured[name]; ok || w.Score == 0 {
			// What it reports stands only until it is measured.
			w.Score = c.scoreOf(name, m.Score)
			w.Class = c.cfg.classOf(w.Score)
		}
	}
	w.LastSeen = now
}

// refused counts a refusal against a worker; c.mu is held.
func (c *Coordinator) refused(name, why string) {
	w := c.book.get(name)
	w.Refusals++
	w.LastRefusal = why
}

func (c *Coordinator) onHello(msg *nats.Msg) {
	var m record.Worker
	_ = json.Unmarshal(msg.Data, &m)
	now := c.cfg.now()
	user := subjectUser(msg.Subject)
	c.mu.Lock()
	c.heard, c.heardFrom = now, user
	c.seen(user, m, now)
	c.mu.Unlock()
}

// saveBook writes the workers, with the leases each holds now.
func (c *Coordinator) saveBook() {
	if c.book.book == nil {
		return
	}
	now := c.cfg.now()
	c.mu.Lock()
	held := map[string]int{}
	for _, l := range c.leases {
		if now.Sub(l.seen) < c.cfg.ackWait() {
			held[l.worker]++
		}
	}
	ws := make([]workerbook.Worker, 0, len(c.book.byName))
	for name, w := range c.book.byName {
		w.InProgress = held[name]
		ws = append(ws, *w)
	}
	c.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.book.book.Save(ctx, ws); err != nil {
		c.logf("cluster: %v", err)
	}
}
