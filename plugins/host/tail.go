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
	n := len(p)
	if len(p) >= t.max {
		t.dropped += int64(len(t.buf) + len(p) - t.max)
		t.buf = append(t.buf[:0], p[len(p)-t.max:]...)
		return n, nil
	}
	if over := len(t.buf) + len(p) - t.max; over > 0 {
		t.dropped += int64(over)
		t.buf = append(t.buf[:0], t.buf[over:]...)
	}
	t.buf = append(t.buf, p...)
	return n, nil
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
