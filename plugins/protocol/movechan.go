package protocol

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/protobuf/proto"

	pb "arena/plugins/proto"
)

// The move channel (protocol version 3) carries move requests and replies
// over a connected socket pair that the arena opens for each agent process
// and hands it as an inherited descriptor, named by MoveFDEnv. A unary
// gRPC call costs several goroutine hand-offs and HTTP/2 framing on each
// side, several times a socket round trip; a move is the one call made
// dozens of times a game, so it gets the socket. Only the two processes
// hold the pair's ends, so it needs neither an address nor the plugin
// channel's TLS. Since protocol version 4 a game's start, observations
// and end travel on it too (a league of instant agents spent a tenth of
// its time in the start and end calls over gRPC); Describe stays on gRPC,
// and so does every call once the channel is down.
//
// A frame is a 4-byte big-endian length and a protobuf message: a
// MoveRequest from the arena (call_id numbers it; cancel gives up on it;
// start, observe or end make it that call instead of a move), a MoveReply
// from the agent carrying the call_id it answers.

// MoveFDEnv names the environment variable holding the descriptor number
// of an agent process's end of its move channel.
const MoveFDEnv = "ARENA_MOVE_FD"

// maxRequestFrame bounds a request frame as the agent reads it: a whole
// game's history and view are far smaller.
const maxRequestFrame = 64 << 20

// channelWriteTimeout bounds a frame's write. The socket's buffer holds
// many requests, so only an agent that stops reading its channel makes a
// write wait; the channel is then given up.
const channelWriteTimeout = 2 * time.Second

// errChannelDown means the move channel can no longer be used; the move
// goes through gRPC instead.
var errChannelDown = errors.New("move channel down")

// encodeFrame is m as one frame: its length, then its bytes.
func encodeFrame(m proto.Message) ([]byte, error) {
	size := proto.Size(m)
	buf := make([]byte, 4, 4+size)
	binary.BigEndian.PutUint32(buf, uint32(size))
	return proto.MarshalOptions{}.MarshalAppend(buf, m)
}

// readFrame reads one frame of at most limit() bytes (asked once the
// frame has begun). A longer one is reported by its announced size and
// not read.
func readFrame(r io.Reader, limit func() int) (body []byte, size int64, err error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, 0, err
	}
	size = int64(binary.BigEndian.Uint32(hdr[:]))
	if size > int64(limit()) {
		return nil, size, nil
	}
	body = make([]byte, size)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, size, err
	}
	return body, size, nil
}

// MoveChannelFromEnv returns the agent's end of its move channel, or nil
// when the arena gave it none (MoveFDEnv unset or not a socket).
func MoveChannelFromEnv() net.Conn {
	v := os.Getenv(MoveFDEnv)
	if v == "" {
		return nil
	}
	// The descriptor is taken (and closed below, the connection holding a
	// close-on-exec duplicate): a program the agent starts must not read
	// the variable as naming a descriptor of its own.
	os.Unsetenv(MoveFDEnv)
	fd, err := strconv.Atoi(v)
	if err != nil || fd < 3 {
		return nil
	}
	f := os.NewFile(uintptr(fd), "move channel")
	if f == nil {
		return nil
	}
	defer f.Close() // FileConn holds a duplicate
	conn, err := net.FileConn(f)
	if err != nil {
		return nil
	}
	return conn
}

// serveMoveChannel answers the move requests arriving on conn until it
// closes, each through the same agent and history as the gRPC Move.
func (s *server) serveMoveChannel(conn net.Conn) {
	a := newAgentChannel(s, conn)
	go a.watch()
	a.read()
}

func newAgentChannel(s *server, conn net.Conn) *agentChannel {
	base, stop := context.WithCancel(context.Background())
	return &agentChannel{s: s, conn: conn, r: bufio.NewReader(conn), base: base, stop: stop, cancels: map[uint64]context.CancelFunc{}, wake: make(chan struct{}, 1)}
}

// agentChannel is the agent's end of its move channel.
type agentChannel struct {
	s    *server
	conn net.Conn
	r    *bufio.Reader // read by one goroutine at a time (see read)
	base context.Context
	stop context.CancelFunc

	wmu     sync.Mutex
	mu      sync.Mutex
	cancels map[uint64]context.CancelFunc

	// The hand-on watch (see watch). begun counts the moves begun;
	// answering is the number of the move the reading goroutine is
	// answering, 0 when it reads; parked is set while the watcher waits
	// for a move to begin, and wake ends that wait.
	begun     atomic.Uint64
	answering atomic.Uint64
	parked    atomic.Bool
	wake      chan struct{}
}

// read reads frames and answers each move request itself, with no
// goroutine switch before the reply. A cancel must still be read while the
// agent thinks: if a move thinks for a tick of the watcher (see watch), a
// new goroutine takes the reading on and this one ends with the move. (The
// arena cancels a request only after giving up on it, which is never that
// soon.)
func (a *agentChannel) read() {
	for {
		body, size, err := readFrame(a.r, func() int { return maxRequestFrame })
		if err != nil || body == nil && size > 0 {
			a.shut()
			return
		}
		req := &pb.MoveRequest{}
		if err := proto.Unmarshal(body, req); err != nil {
			a.shut()
			return
		}
		id := req.CallId
		if req.Cancel {
			a.mu.Lock()
			if c := a.cancels[id]; c != nil {
				c()
			}
			a.mu.Unlock()
			continue
		}
		ctx, cancel := context.WithCancel(a.base)
		a.mu.Lock()
		a.cancels[id] = cancel
		a.mu.Unlock()
		n := a.begun.Add(1)
		a.answering.Store(n)
		if a.parked.Load() && a.parked.CompareAndSwap(true, false) {
			a.wake <- struct{}{}
		}
		a.answer(ctx, id, req)
		a.mu.Lock()
		delete(a.cancels, id)
		a.mu.Unlock()
		cancel()
		if !a.answering.CompareAndSwap(n, 0) {
			return // the watcher passed the reading on to another goroutine
		}
	}
}

// handOnTick is the watcher's tick: a move still thinking at two ticks in
// a row (so after one to two ticks) has the reading of its channel passed
// on to another goroutine. Until then a cancel, or a request sent after
// the arena gave up on this move, waits unread. Measured (go run ./bench
// -only move): a 2 ms tick added about 10 µs to every move's round trip,
// 10 ms nothing measurable.
const handOnTick = 10 * time.Millisecond

// watch passes the reading on (see read) for a move that thinks long.
// Moves cost no timer of their own: a timer armed per move wakes another
// thread of the agent each time (the runtime's poller must learn the new
// deadline), which cost more than the move's round trip. The watcher
// ticks while moves come, and sleeps without a timer once a tick saw none.
func (a *agentChannel) watch() {
	t := time.NewTimer(handOnTick)
	defer t.Stop()
	var seen, last uint64
	for {
		select {
		case <-a.base.Done():
			return
		case <-t.C:
		}
		now := a.answering.Load()
		if now != 0 && now == seen && a.answering.CompareAndSwap(now, 0) {
			go a.read()
		}
		seen = now
		if b := a.begun.Load(); b != last || now != 0 {
			last = b
			t.Reset(handOnTick)
			continue
		}
		// No move this tick: wait for the next to begin. A move begun
		// after parked is set finds it set (read sets begun first, then
		// looks); one begun before is seen here.
		a.parked.Store(true)
		if a.begun.Load() == last && a.answering.Load() == 0 || !a.parked.CompareAndSwap(true, false) {
			select {
			case <-a.base.Done():
				return
			case <-a.wake:
			}
		}
		seen, last = 0, a.begun.Load()
		t.Reset(handOnTick)
	}
}

func (a *agentChannel) answer(ctx context.Context, id uint64, req *pb.MoveRequest) {
	reply := a.s.channelCall(ctx, req)
	reply.CallId = id
	// Encoded before the write's deadline is set: the deadline bounds how
	// long the arena may leave a reply unread, not how long a large reply
	// takes to build on a busy machine.
	buf, err := encodeFrame(reply)
	a.wmu.Lock()
	defer a.wmu.Unlock()
	if err == nil {
		err = writeBounded(a.conn, buf, channelWriteTimeout)
	}
	if err != nil {
		a.shut() // the arena stopped reading: it falls back to gRPC
	}
}

// channelCall answers one request frame: a move, or (protocol version 4)
// the start, an observation or the end of a game. Errors and panics come
// back in the reply.
func (s *server) channelCall(ctx context.Context, req *pb.MoveRequest) *pb.MoveReply {
	var err error
	switch {
	case req.Start != nil:
		_, err = s.StartGame(ctx, req.Start)
	case req.Observe != nil:
		_, err = s.Observe(ctx, req.Observe)
	case req.End != nil:
		_, err = s.EndGame(ctx, req.End)
	default:
		reply, err := s.Move(ctx, req)
		if reply == nil {
			reply = &pb.MoveReply{Error: []byte(fmt.Sprint("agent failed: ", err))}
		}
		return reply
	}
	if err != nil {
		return &pb.MoveReply{Error: []byte(err.Error())}
	}
	return &pb.MoveReply{}
}

// shut ends the channel: the arena is gone or broke it; every move still
// thinking is cancelled.
func (a *agentChannel) shut() {
	a.stop()
	a.conn.Close()
}

// moveChannel is the arena's end of an agent's move channel. One call at a
// time: the calling goroutine writes the request and reads the reply
// itself (no reader goroutine in between), dropping replies to calls
// given up on, which may arrive first.
type moveChannel struct {
	conn net.Conn

	callMu sync.Mutex // held for a whole call
	r      *bufio.Reader
	next   uint64 // the last call_id used

	mu  sync.Mutex
	err error // why the channel is down, once it is
}

func newMoveChannel(conn net.Conn) *moveChannel {
	return &moveChannel{conn: conn, r: bufio.NewReader(conn)}
}

// fail takes the channel down: later calls go through gRPC.
func (m *moveChannel) fail(err error) {
	m.mu.Lock()
	if m.err == nil {
		m.err = err
	}
	m.mu.Unlock()
	m.conn.Close()
}

func (m *moveChannel) down() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.err
}

// call sends msg and reads its reply, or gives up when ctx ends; sent,
// when not nil, is called once msg has left. It returns errChannelDown,
// having sent nothing, when the channel was already down.
func (m *moveChannel) call(ctx context.Context, msg *pb.MoveRequest, limit int, sent func()) (*pb.MoveReply, error) {
	m.callMu.Lock()
	defer m.callMu.Unlock()
	if m.down() != nil {
		return nil, errChannelDown
	}
	m.next++
	id := m.next
	msg.CallId = id
	if err := m.write(msg); err != nil {
		err = fmt.Errorf("move channel: send: %w", err)
		m.fail(err)
		return nil, err
	}
	if sent != nil {
		sent()
	}
	// The end of ctx interrupts the read; the deadline is cleared once the
	// interruption can no longer come.
	fired := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		_ = m.conn.SetReadDeadline(time.Unix(1, 0))
		close(fired)
	})
	defer func() {
		if !stop() {
			<-fired
			_ = m.conn.SetReadDeadline(time.Time{})
		}
	}()
	for {
		rep, clean, err := m.readReply(limit)
		if err != nil {
			if clean && ctx.Err() != nil && errors.Is(err, os.ErrDeadlineExceeded) {
				// Given up between frames: the channel stays in step. Tell
				// the agent to stop thinking, as a cancelled gRPC call would.
				if werr := m.write(&pb.MoveRequest{CallId: id, Cancel: true}); werr != nil {
					m.fail(fmt.Errorf("move channel: send: %w", werr))
				}
				return nil, ctx.Err()
			}
			m.fail(err)
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, err
		}
		switch {
		case rep.CallId == id:
			return rep, nil
		case rep.CallId != 0 && rep.CallId < id:
			continue // the reply to a call given up on
		default:
			err := fmt.Errorf("move channel: the agent answered call %d, which was never made", rep.CallId)
			m.fail(err)
			return nil, err
		}
	}
}

// readReply reads one reply frame of at most RecvLimit(limit) bytes.
// clean is set when the error came before any byte of a frame, so the
// channel is still in step.
func (m *moveChannel) readReply(limit int) (rep *pb.MoveReply, clean bool, err error) {
	if _, err := m.r.Peek(1); err != nil {
		return nil, true, fmt.Errorf("move channel: %w", err)
	}
	body, size, err := readFrame(m.r, func() int { return RecvLimit(limit) })
	if err != nil {
		return nil, false, fmt.Errorf("move channel: %w", err)
	}
	if body == nil && size > 0 {
		// Not read: the channel cannot find the next frame's start.
		return nil, false, &BadReplyError{Size: size, Limit: limit}
	}
	rep = &pb.MoveReply{}
	if err := proto.Unmarshal(body, rep); err != nil {
		return nil, false, fmt.Errorf("move channel: the agent sent a malformed frame: %w", err)
	}
	return rep, false, nil
}

func (m *moveChannel) write(msg *pb.MoveRequest) error {
	buf, err := encodeFrame(msg)
	if err != nil {
		return err
	}
	return writeBounded(m.conn, buf, channelWriteTimeout)
}

// writeBounded writes buf to conn, bounding by timeout only the wait on a
// full buffer: what the socket takes at once is written first, however
// long the writer was kept off the CPU before. A deadline set before the
// whole write would not do: Go fails a write whose deadline has passed
// without trying it, so on a busy machine a writer descheduled between
// the two calls would find its peer gone, and an honest agent would be
// judged dead.
func writeBounded(conn net.Conn, buf []byte, timeout time.Duration) error {
	n, err := writeNow(conn, buf)
	if err != nil {
		return err
	}
	if n == len(buf) {
		return nil
	}
	if err := conn.SetWriteDeadline(time.Now().Add(timeout)); err != nil {
		return err
	}
	_, err = conn.Write(buf[n:])
	return err
}

func (m *moveChannel) close() {
	m.fail(errChannelDown)
}
