package bohnenspiel

import (
	"math/rand/v2"
	"testing"

	"arena/engine"
	"arena/games/bohnenspiel"
)

// The compact board must agree with the engine move by move, to the end
// of random games (skips, sweeps and the round limit included).
func TestModelMatchesEngine(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for game := 0; game < 300; game++ {
		st, err := bohnenspiel.Game{}.NewState(nil)
		if err != nil {
			t.Fatal(err)
		}
		p, err := fromEngine(st)
		if err != nil {
			t.Fatal(err)
		}
		for !st.Terminal() {
			var want, got []string
			for _, m := range st.LegalMoves(nil) {
				want = append(want, st.FormatMove(m))
			}
			for _, m := range p.LegalMoves(nil) {
				got = append(got, p.FormatMove(m))
			}
			if len(want) != len(got) {
				t.Fatalf("game %d ply %d: moves %v, engine %v", game, st.Ply(), got, want)
			}
			for i := range want {
				if want[i] != got[i] {
					t.Fatalf("game %d ply %d: moves %v, engine %v", game, st.Ply(), got, want)
				}
			}
			// Skips often, so the skip rules get exercised.
			ms := p.LegalMoves(nil)
			m := ms[r.IntN(len(ms))]
			if r.IntN(4) == 0 && ms[len(ms)-1] == skipMove {
				m = skipMove
			}
			em, err := st.ParseMove(p.FormatMove(m))
			if err != nil {
				t.Fatal(err)
			}
			st.Apply(em)
			p.Apply(m)
			if p.Scores() != st.Scores() || p.ToMove() != st.ToMove() || p.Terminal() != st.Terminal() {
				t.Fatalf("game %d ply %d: model %v/%d/%v, engine %v/%d/%v", game, st.Ply(), p.Scores(), p.ToMove(), p.Terminal(), st.Scores(), st.ToMove(), st.Terminal())
			}
			if !st.Terminal() {
				q, err := fromEngine(st)
				if err != nil {
					t.Fatal(err)
				}
				if q.pits != p.pits || q.credits != p.credits || q.barred != p.barred || q.turn != p.turn {
					t.Fatalf("game %d ply %d: model %s, engine %s", game, st.Ply(), p.Text(), st.Text())
				}
			}
		}
		if pr, er := p.Result(), st.Result(); pr.Winner != er.Winner || pr.Draw != er.Draw {
			t.Fatalf("game %d: result %+v, engine %+v", game, pr, er)
		}
	}
}

var _ engine.State = (*pos)(nil)
