package bitsel

import (
	"math/bits"
	"math/rand/v2"
	"testing"
)

// TestSelect compares Select with clearing the lowest bits one by one.
func TestSelect(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		x := r.Uint64()
		switch i % 4 {
		case 1:
			x &= r.Uint64()
		case 2:
			x &= r.Uint64() & r.Uint64() & r.Uint64()
		case 3:
			x = 1 << (i % 64)
		}
		n := bits.OnesCount64(x)
		y := x
		for k := 0; k < n; k++ {
			if got, want := Select(x, k), bits.TrailingZeros64(y); got != want {
				t.Fatalf("Select(%#x, %d) = %d, want %d", x, k, got, want)
			}
			y &= y - 1
		}
	}
}
