package cachex

// Evaluate is the opponent's shortest connection distance minus seat's:
// the number of empty cells each side still has to fill to join its two
// edges (own stones free, opponent stones blocking), by 0-1 BFS. Captures
// are ignored, which is what keeps it cheap.
func (s *State) Evaluate(seat int) float64 {
	me := uint8(seat + 1)
	return float64(s.distance(3-me) - s.distance(me))
}

// unreachable is the distance reported for a side whose edges are cut off.
const unreachable = maxCells + 1

// distance is the fewest empty cells colour c needs to connect its edges.
func (s *State) distance(c uint8) int {
	g := s.g
	n := g.n
	axis := &g.row
	if c == blue {
		axis = &g.col
	}
	var dist [maxCells]int16
	for i := 0; i < g.cells; i++ {
		dist[i] = unreachable
	}
	// Every relaxation pushes once; six per cell plus the sources stays
	// well below the ring size, so the ring never overflows.
	const ringSize = 2048
	var ring [ringSize]int16
	head, tail := 0, 0 // head is the front; both wrap with the mask
	cost := func(i int) int16 {
		switch s.cells[i] {
		case c:
			return 0
		case empty:
			return 1
		}
		return -1
	}
	for k := 0; k < n; k++ {
		i := k * n // column 0 of row k: blue's source edge
		if c == red {
			i = k // row 0
		}
		w := cost(i)
		if w < 0 {
			continue
		}
		dist[i] = w
		if w == 0 {
			head = (head - 1) & (ringSize - 1)
			ring[head] = int16(i)
		} else {
			ring[tail] = int16(i)
			tail = (tail + 1) & (ringSize - 1)
		}
	}
	best := unreachable
	last := uint8(n - 1)
	for head != tail {
		v := ring[head]
		head = (head + 1) & (ringSize - 1)
		dv := dist[v]
		if axis[v] == last && int(dv) < best {
			best = int(dv)
		}
		for k := 0; k < int(g.nnb[v]); k++ {
			u := g.nb[v][k]
			w := cost(int(u))
			if w < 0 || dv+w >= dist[u] {
				continue
			}
			dist[u] = dv + w
			if w == 0 {
				head = (head - 1) & (ringSize - 1)
				ring[head] = u
			} else {
				ring[tail] = u
				tail = (tail + 1) & (ringSize - 1)
			}
		}
	}
	return best
}
