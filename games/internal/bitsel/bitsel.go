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
// x must have more than k set bits. Each halving step is arithmetic, not
// a branch: k is random in a playout, so a branch would mispredict half
// the time.
func Select(x uint64, k int) int {
	off := 0
	// past is all ones when the k-th bit lies beyond the low half, else 0.
	n := bits.OnesCount32(uint32(x))
	past := (n - k - 1) >> 63
	k -= n & past
	off += 32 & past
	x >>= uint(32 & past)
	n = bits.OnesCount16(uint16(x))
	past = (n - k - 1) >> 63
	k -= n & past
	off += 16 & past
	x >>= uint(16 & past)
	n = bits.OnesCount8(uint8(x))
	past = (n - k - 1) >> 63
	k -= n & past
	off += 8 & past
	x >>= uint(8 & past)
	return off + int(inByte[uint8(x)][k&7])
}
