package host

import "sync"

// Tail keeps the last bytes written to it, so a chatty agent's stderr costs
// bounded memory while the end of it (usually the error) is kept.
type Tail struct {
	mu      sync.Mutex
	buf     []byte
	max     int
	dropped int64
}

// NewTail keeps at most max bytes.
func NewTail(max int) *Tail {
	if max <= 0 {
		max = 8 << 10
	}
	return &Tail{max: max}
}

// Write never fails; old bytes are dropped past the cap.
func (t *Tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	// Only the last max bytes of p can stay; then drop from the front
	// whatever the kept bytes push over the cap (no branch for a write
	// larger than the cap, and never more than twice the cap held).
	n := len(p)
	p = p[max(0, n-t.max):]
	t.dropped += int64(n - len(p))
	t.buf = append(t.buf, p...)
	over := max(0, len(t.buf)-t.max)
	t.dropped += int64(over)
	t.buf = t.buf[:copy(t.buf, t.buf[over:])]
	return n, nil
}

// Written is how many bytes were written in all, kept or dropped.
func (t *Tail) Written() int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.dropped + int64(len(t.buf))
}

// String returns the kept bytes, prefixed with a note when some were dropped.
func (t *Tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.dropped > 0 {
		return "[... " + itoa(t.dropped) + " earlier bytes dropped]\n" + string(t.buf)
	}
	return string(t.buf)
}

func itoa(n int64) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	return string(b[i:])
}
