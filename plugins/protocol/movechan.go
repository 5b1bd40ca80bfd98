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
	"time"

	"google.golang.org/protobuf/proto"

	"arena/engine"
	pb "arena/plugins/proto"
)

// The move channel (protocol version 3) carries move requests and replies
// over a connected socket pair that the arena opens for each agent process
// and hands it as an inherited descriptor, named by MoveFDEnv. A unary
// gRPC call costs several goroutine hand-offs and HTTP/2 framing on each
// side, several times a socket round trip; a move is the one call made
// dozens of times a game, so it gets the socket. Only the two processes
// hold the pair's ends, so it needs neither an address nor the plugin
// channel's TLS. Everything else (describe, start, observe, end) stays on
// gRPC, and so does a move once the channel is down.
//
// A frame is a 4-byte big-endian length and a protobuf message: a
// MoveRequest from the arena (call_id numbers it; cancel gives up on it),
// a MoveReply from the agent carrying the call_id it answers.

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

func writeFrame(w io.Writer, m proto.Message) error {
	body, err := proto.Marshal(m)
	if err != nil {
		return err
	}
	buf := make([]byte, 4+len(body))
	binary.BigEndian.PutUint32(buf, uint32(len(body)))
	copy(buf[4:], body)
	_, err = w.Write(buf)
	return err
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
	defer conn.Close()
	base, stop := context.WithCancel(context.Background())
	defer stop()
	var (
		wmu     sync.Mutex
		mu      sync.Mutex
		cancels = map[uint64]context.CancelFunc{}
	)
	r := bufio.NewReader(conn)
	for {
		body, size, err := readFrame(r, func() int { return maxRequestFrame })
		if err != nil || body == nil && size > 0 {
			return
		}
		req := &pb.MoveRequest{}
		if err := proto.Unmarshal(body, req); err != nil {
			return
		}
		id := req.CallId
		if req.Cancel {
			mu.Lock()
			if c := cancels[id]; c != nil {
				c()
			}
			mu.Unlock()
			continue
		}
		ctx, cancel := context.WithCancel(base)
		mu.Lock()
		cancels[id] = cancel
		mu.Unlock()
		go func() {
			reply, err := s.Move(ctx, req) // errors and panics come back in the reply
			if reply == nil {
				reply = &pb.MoveReply{Error: []byte(fmt.Sprint("agent failed: ", err))}
			}
			mu.Lock()
			delete(cancels, id)
			mu.Unlock()
			cancel()
			reply.CallId = id
			wmu.Lock()
			defer wmu.Unlock()
			_ = conn.SetWriteDeadline(time.Now().Add(channelWriteTimeout))
			if writeFrame(conn, reply) != nil {
				conn.Close() // the arena stopped reading: it falls back to gRPC
			}
		}()
	}
}

// moveChannel is the arena's end of an agent's move channel. One call is
// outstanding at a time (the referee asks one move of an agent at a
// time); a reply to a call given up on is dropped.
type moveChannel struct {
	conn net.Conn
	wmu  sync.Mutex

	mu      sync.Mutex
	limit   int    // the longest reply accepted, in bytes
	next    uint64 // the last call_id used
	pending uint64 // the call waiting for its reply (0: none)
	replies chan channelReply
	err     error // why the channel is down, once it is
}

type channelReply struct {
	r   *pb.MoveReply
	err error
}

func newMoveChannel(conn net.Conn) *moveChannel {
	m := &moveChannel{conn: conn, limit: engine.DefaultMaxReplyBytes}
	go m.read()
	return m
}

// fail takes the channel down: the waiting call gets err, later calls go
// through gRPC.
func (m *moveChannel) fail(err error) {
	m.mu.Lock()
	if m.err == nil {
		m.err = err
		if m.pending != 0 {
			m.replies <- channelReply{err: err}
			m.pending = 0
		}
	}
	m.mu.Unlock()
	m.conn.Close()
}

func (m *moveChannel) read() {
	r := bufio.NewReader(m.conn)
	var limit int
	frameLimit := func() int {
		m.mu.Lock()
		limit = m.limit
		m.mu.Unlock()
		return RecvLimit(limit)
	}
	for {
		body, size, err := readFrame(r, frameLimit)
		if err != nil {
			m.fail(fmt.Errorf("move channel: %w", err))
			return
		}
		if body == nil && size > 0 {
			// Not read: the channel cannot find the next frame's start.
			m.fail(&BadReplyError{Size: size, Limit: limit})
			return
		}
		rep := &pb.MoveReply{}
		if err := proto.Unmarshal(body, rep); err != nil {
			m.fail(fmt.Errorf("move channel: the agent sent a malformed frame: %w", err))
			return
		}
		m.mu.Lock()
		switch id := rep.CallId; {
		case id != 0 && id == m.pending:
			m.replies <- channelReply{r: rep}
			m.pending = 0
			m.mu.Unlock()
		case id != 0 && id < m.next:
			m.mu.Unlock() // the reply to a call given up on
		default:
			m.mu.Unlock()
			m.fail(fmt.Errorf("move channel: the agent answered call %d, which was never made", id))
			return
		}
	}
}

// call sends msg and waits for its reply or the end of ctx. It returns
// errChannelDown, having sent nothing, when the channel was already down.
func (m *moveChannel) call(ctx context.Context, msg *pb.MoveRequest, limit int) (*pb.MoveReply, error) {
	m.mu.Lock()
	if m.err != nil {
		m.mu.Unlock()
		return nil, errChannelDown
	}
	m.limit = limit
	m.next++
	id := m.next
	m.pending = id
	replies := make(chan channelReply, 1)
	m.replies = replies
	m.mu.Unlock()

	msg.CallId = id
	if err := m.write(msg); err != nil {
		m.fail(fmt.Errorf("move channel: send: %w", err))
	}
	select {
	case rp := <-replies:
		return rp.r, rp.err
	case <-ctx.Done():
		m.mu.Lock()
		if m.pending == id {
			m.pending = 0
		}
		down := m.err != nil
		m.mu.Unlock()
		if !down {
			// Tell the agent to stop thinking about it, as a cancelled
			// gRPC call would.
			if err := m.write(&pb.MoveRequest{CallId: id, Cancel: true}); err != nil {
				m.fail(fmt.Errorf("move channel: send: %w", err))
			}
		}
		return nil, ctx.Err()
	}
}

func (m *moveChannel) write(msg *pb.MoveRequest) error {
	m.wmu.Lock()
	defer m.wmu.Unlock()
	if err := m.conn.SetWriteDeadline(time.Now().Add(channelWriteTimeout)); err != nil {
		return err
	}
	return writeFrame(m.conn, msg)
}

func (m *moveChannel) close() {
	m.fail(errChannelDown)
}
