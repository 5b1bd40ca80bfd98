package main

import (
	"context"
	"fmt"
	"time"

	"arena/plugins/sdk/search"
)

// searchRow is the speed of the SDK's searchers on one game's start
// position: what an agent built on the engine gets.
type searchRow struct {
	c                 gameCase
	abNodes, playouts int64
	abCPU, mctsCPU    time.Duration
	abDepth           int
}

// measureSearch runs one alpha-beta and one MCTS search of d of CPU time
// each from the start position (the wall-clock deadline is only a guard).
func measureSearch(c gameCase, d time.Duration) searchRow {
	row := searchRow{c: c}
	lim := func() search.Limits {
		return search.Limits{CPU: d, Deadline: time.Now().Add(20*d + time.Second)}
	}
	ab := &search.AlphaBeta{TT: search.NewTT(16)}
	start := cpuTime()
	res := ab.Search(context.Background(), c.Start(), lim())
	row.abCPU, row.abNodes, row.abDepth = cpuTime()-start, res.Nodes, res.Depth
	m := &search.MCTS{Seed: 1, NoReuse: true}
	start = cpuTime()
	res = m.Search(context.Background(), c.Start(), lim())
	row.mctsCPU, row.playouts = cpuTime()-start, res.Nodes
	return row
}

func perSecond(n int64, d time.Duration) float64 { return float64(n) / d.Seconds() }

// searchTable renders the search rows as Markdown.
func searchTable(rows []searchRow) string {
	s := "| game | alpha-beta nodes/s (depth reached) | MCTS playouts/s |\n|---|---:|---:|\n"
	for _, r := range rows {
		name := r.c.label()
		s += fmt.Sprintf("| %s | %.0f (%d) | %.0f |\n", name, perSecond(r.abNodes, r.abCPU), r.abDepth, perSecond(r.playouts, r.mctsCPU))
	}
	return s
}
