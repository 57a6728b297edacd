package kernel

import (
	"context"
	"encoding/binary"
	"fmt"
	"net"
	"os"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/go-zeromq/zmq4/transport"
)

// MaxFrame is the largest ZeroMQ frame the Client or the kernel reads: 64 MiB, more than any message a
// kernel sends (a figure is a few MB), far less than what a frame's header may claim.
//
// zmq4 makes a frame's body as large as its header says before it reads it, so nine bytes
// from the peer claiming 2^62 bytes end the reading process. The Client reads a kernel that
// may run a student's code, so it dials through transports of its own, "capped+ipc" and
// "capped+tcp", whose connections read ZMTP 3's framing as it passes (a 64-byte greeting, then
// frames: a flags byte, the size in 1 byte or, with the long flag, 8, then the body) and end
// the connection at a frame larger than MaxFrame, before zmq4 sees its header.
//
// The kernel binds its own sockets through the same transports (Listen below): a peer that
// sends such a frame loses its connection, and the kernel goes on.
const MaxFrame = 64 << 20

// handshakeTimeout is how long a peer that connects to one of the kernel's sockets has to send
// its greeting and first frame. zmq4 runs each connection's handshake inside its accept loop,
// so a peer that connects and stays silent would keep every later peer (a reconnecting browser)
// waiting: past this time its connection is closed and the next one is accepted.
const handshakeTimeout = 3 * time.Second

const (
	zmtpGreeting = 64   // bytes of ZMTP 3's greeting
	zmtpLong     = 0x02 // a frame's flag: its size takes 8 bytes
)

func init() {
	for network, unix := range map[string]string{"ipc": "unix", "tcp": "tcp"} {
		if err := zmq4.RegisterTransport("capped+"+network, cappedTransport{transport.New(unix)}); err != nil {
			panic(fmt.Sprintf("kernel: register transport capped+%s: %v", network, err))
		}
	}
}

// cappedTransport is a zmq4 transport whose dialled connections refuse large frames.
type cappedTransport struct{ transport.Transport }

func (t cappedTransport) Dial(ctx context.Context, d transport.Dialer, addr string) (net.Conn, error) {
	c, err := t.Transport.Dial(ctx, d, addr)
	if err != nil {
		return nil, err
	}
	return &cappedConn{Conn: c, max: MaxFrame, greeting: zmtpGreeting}, nil
}

// Listen binds addr, and hands zmq4 connections that refuse large frames and must finish their
// handshake within handshakeTimeout. A unix socket is made readable and writable by its owner
// only (0600): on Linux, connecting to it needs write permission.
func (t cappedTransport) Listen(ctx context.Context, addr string) (net.Listener, error) {
	l, err := t.Transport.Listen(ctx, addr)
	if err != nil {
		return nil, err
	}
	if ul, ok := l.(*net.UnixListener); ok {
		if err := os.Chmod(ul.Addr().String(), 0o600); err != nil {
			l.Close()
			return nil, fmt.Errorf("kernel: make %s private: %w", addr, err)
		}
	}
	return cappedListener{l}, nil
}

// cappedListener accepts connections as cappedConns with a deadline for their handshake.
type cappedListener struct{ net.Listener }

func (l cappedListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	c.SetDeadline(time.Now().Add(handshakeTimeout))
	return &cappedConn{Conn: c, max: MaxFrame, greeting: zmtpGreeting, handshake: true}, nil
}

// cappedConn passes a ZMTP stream through, keeping count of where each frame's header is.
type cappedConn struct {
	net.Conn
	max      uint64
	greeting int    // bytes of the greeting still to come
	header   []byte // the frame header read so far
	body     uint64 // bytes of the current frame's body still to come
	err      error  // the frame refused, for every later Read

	handshake bool // a deadline is set until the greeting and the first frame have been read
}

func (c *cappedConn) Read(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.Conn.Read(p)
	frames, ferr := c.scan(p[:n])
	if ferr != nil {
		c.err = ferr
		c.Conn.Close()
		return 0, ferr
	}
	if c.handshake && frames > 0 { // the peer's READY command: the handshake is through
		c.handshake = false
		c.Conn.SetDeadline(time.Time{})
	}
	return n, err
}

// scan follows the stream over b, counting the frames it completes, and refuses a frame header
// whose size is past c.max.
func (c *cappedConn) scan(b []byte) (frames int, err error) {
	for len(b) > 0 {
		switch {
		case c.greeting > 0:
			k := min(c.greeting, len(b))
			c.greeting -= k
			b = b[k:]
		case c.body > 0:
			k := min(c.body, uint64(len(b)))
			c.body -= k
			b = b[k:]
			if c.body == 0 {
				frames++
			}
		default:
			c.header = append(c.header, b[0])
			b = b[1:]
			want := 2
			if c.header[0]&zmtpLong != 0 {
				want = 9
			}
			if len(c.header) < want {
				continue
			}
			size := uint64(c.header[1])
			if want == 9 {
				size = binary.BigEndian.Uint64(c.header[1:9])
			}
			c.header = c.header[:0]
			if size > c.max {
				return frames, fmt.Errorf("kernel: wire: the peer sent a frame of %d bytes, past the limit of %d (MaxFrame): connection closed", size, c.max)
			}
			c.body = size
			if size == 0 {
				frames++
			}
		}
	}
	return frames, nil
}
