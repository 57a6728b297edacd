package kernel

import (
	"context"
	"encoding/binary"
	"fmt"
	"net"

	"github.com/go-zeromq/zmq4"
	"github.com/go-zeromq/zmq4/transport"
)

// MaxFrame is the largest ZeroMQ frame the Client reads: 64 MiB, more than any message a
// kernel sends (a figure is a few MB), far less than what a frame's header may claim.
//
// zmq4 makes a frame's body as large as its header says before it reads it, so nine bytes
// from the peer claiming 2^62 bytes end the reading process. The Client reads a kernel that
// may run a student's code, so it dials through transports of its own, "capped+ipc" and
// "capped+tcp", whose connections read ZMTP 3's framing as it passes (a 64-byte greeting, then
// frames: a flags byte, the size in 1 byte or, with the long flag, 8, then the body) and end
// the connection at a frame larger than MaxFrame, before zmq4 sees its header.
const MaxFrame = 64 << 20

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

// cappedConn passes a ZMTP stream through, keeping count of where each frame's header is.
type cappedConn struct {
	net.Conn
	max      uint64
	greeting int    // bytes of the greeting still to come
	header   []byte // the frame header read so far
	body     uint64 // bytes of the current frame's body still to come
	err      error  // the frame refused, for every later Read
}

func (c *cappedConn) Read(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.Conn.Read(p)
	if ferr := c.scan(p[:n]); ferr != nil {
		c.err = ferr
		c.Conn.Close()
		return 0, ferr
	}
	return n, err
}

// scan follows the stream over b, and refuses a frame header whose size is past c.max.
func (c *cappedConn) scan(b []byte) error {
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
				return fmt.Errorf("kernel: client: the peer sent a frame of %d bytes, past the limit of %d (MaxFrame): connection closed", size, c.max)
			}
			c.body = size
		}
	}
	return nil
}
