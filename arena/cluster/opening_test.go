package cluster_test

import (
	"slices"
	"testing"

	"arena/arena/cluster"
	"arena/arena/record"
)

// A job's opening travels to the worker and back: the record must have
// been played from it, and one played from another opening, or from the
// start, is refused.
func TestVerifyChecksTheOpening(t *testing.T) {
	job, g := testJob(t)
	base := honest(t, job)
	job.Opening = &record.Opening{Index: 3, Moves: []string{base.Moves[0].Text, base.Moves[1].Text}}
	fromOpening := func() *record.Game {
		rec := honest(t, job)
		rec.Opening = &record.Opening{Index: 3, Moves: slices.Clone(job.Opening.Moves)}
		rec.Moves[0].Source, rec.Moves[1].Source = record.SourceOpening, record.SourceOpening
		return rec
	}
	if err := cluster.Verify(g, nil, job, fromOpening()); err != nil {
		t.Fatalf("a record played from the job's opening refused: %v", err)
	}
	if err := cluster.Verify(g, nil, job, honest(t, job)); err == nil {
		t.Error("a record played from the start passed for a job with an opening")
	}
	other := fromOpening()
	other.Opening.Index = 4
	if err := cluster.Verify(g, nil, job, other); err == nil {
		t.Error("a record of another opening passed")
	}
}
