// Package bitsel finds the k-th set bit of a word, the step that lets a
// game draw a uniformly random member of a bitboard set without listing it.
package bitsel

import "math/bits"

// inByte[b][k] is the position of the k-th set bit of byte b (0 where b
// has no k-th bit). Filled once, never changed.
var inByte = func() (t [256][8]uint8) {
	for b := 0; b < 256; b++ {
		k := 0
		for i := 0; i < 8; i++ {
			if b>>i&1 == 1 {
				t[b][k] = uint8(i)
				k++
			}
		}
	}
	return t
}()

// Select returns the index of the k-th (counting from 0) set bit of x.
// x must have more than k set bits.
func Select(x uint64, k int) int {
	off := 0
	if n := bits.OnesCount32(uint32(x)); k >= n {
		k -= n
		x >>= 32
		off = 32
	}
	if n := bits.OnesCount16(uint16(x)); k >= n {
		k -= n
		x >>= 16
		off += 16
	}
	if n := bits.OnesCount8(uint8(x)); k >= n {
		k -= n
		x >>= 8
		off += 8
	}
	return off + int(inByte[uint8(x)][k&7])
}
