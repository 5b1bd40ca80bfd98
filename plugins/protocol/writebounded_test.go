package protocol

import (
	"bytes"
	"errors"
	"io"
	"net"
	"os"
	"testing"
	"time"
)

// A frame the socket takes at once is written however late its writer
// comes to it: a deadline already past when the write begins (a writer
// kept off the CPU for longer than the bound, as on a busy machine) must
// not fail it. With the deadline set before the write, as before, this
// failed at once with "i/o timeout".
func TestFrameThatFitsIsWrittenPastTheBound(t *testing.T) {
	a, b := socketPair(t)
	msg := []byte("a reply that fits the socket's buffer")
	if err := writeBounded(a, msg, 0); err != nil {
		t.Fatalf("write with the bound already past: %v", err)
	}
	got := make([]byte, len(msg))
	if _, err := io.ReadFull(b, got); err != nil || !bytes.Equal(got, msg) {
		t.Fatalf("read %q, %v; want %q", got, err, msg)
	}
}

// A peer that stops reading is found out within the bound: the writer
// waits on the full buffer no longer than that, and the timeout is
// reported. Once the peer reads again, the next frame goes through,
// the past deadline of the failed write notwithstanding.
func TestFullBufferWaitIsBounded(t *testing.T) {
	a, b := socketPair(t)
	big := make([]byte, 64<<20) // far more than a socket buffer holds
	start := time.Now()
	err := writeBounded(a, big, 200*time.Millisecond)
	if !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("write to a peer that does not read: %v, want a timeout", err)
	}
	if d := time.Since(start); d > time.Minute {
		t.Errorf("the bounded write took %v", d)
	}
	// Drain what was written, then a small frame must pass.
	go io.Copy(io.Discard, b)
	if err := writeBounded(a, []byte("next"), time.Minute); err != nil {
		t.Fatalf("write after a timed-out one: %v", err)
	}
}

// A conn that is not a socket (net.Pipe) is written through the bounded
// write alone.
func TestBoundedWriteOnAPipe(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	done := make(chan []byte)
	go func() {
		got := make([]byte, 4)
		io.ReadFull(b, got)
		done <- got
	}()
	if err := writeBounded(a, []byte("pipe"), time.Minute); err != nil {
		t.Fatal(err)
	}
	if got := <-done; string(got) != "pipe" {
		t.Fatalf("read %q", got)
	}
}
