package kernel

import (
	"bytes"
	"context"
	"io"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// greeting is a ZMTP 3.0 greeting of the NULL mechanism, as a kernel sends it.
func greeting() []byte {
	g := make([]byte, zmtpGreeting)
	g[0], g[9], g[10] = 0xff, 0x7f, 3
	copy(g[12:], "NULL")
	return g
}

// A huge frame: the long flag and a size of 2^62 bytes.
var hugeFrame = []byte{zmtpLong, 0x40, 0, 0, 0, 0, 0, 0, 0}

func TestCappedConnPassesFramesUnderTheLimit(t *testing.T) {
	var stream bytes.Buffer
	stream.Write(greeting())
	stream.Write([]byte{0x01, 3, 'a', 'b', 'c'}) // short, more to come
	long := bytes.Repeat([]byte{'x'}, 300)
	stream.Write([]byte{zmtpLong, 0, 0, 0, 0, 0, 0, 1, 44})
	stream.Write(long)
	want := stream.Bytes()
	a, b := net.Pipe()
	go func() { b.Write(want); b.Close() }()
	c := &cappedConn{Conn: a, max: 1000, greeting: zmtpGreeting}
	got, err := io.ReadAll(iotest1(c))
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("read %d bytes, %v; want the %d written", len(got), err, len(want))
	}
}

// iotest1 reads one byte at a time, so every header is split across reads.
func iotest1(r io.Reader) io.Reader {
	return readerFunc(func(p []byte) (int, error) { return r.Read(p[:min(len(p), 1)]) })
}

type readerFunc func([]byte) (int, error)

func (f readerFunc) Read(p []byte) (int, error) { return f(p) }

func TestCappedConnRefusesAHugeFrame(t *testing.T) {
	a, b := net.Pipe()
	go func() { b.Write(append(greeting(), hugeFrame...)); b.Close() }()
	c := &cappedConn{Conn: a, max: MaxFrame, greeting: zmtpGreeting}
	_, err := io.ReadAll(c)
	if err == nil || !strings.Contains(err.Error(), "past the limit") {
		t.Errorf("err = %v, want the frame refused", err)
	}
}

// A peer that answers the greeting with a frame claiming 2^62 bytes: Dial fails, and the
// process goes on (zmq4 alone would allocate the claimed size, and panic).
func TestDialSurvivesAHugeFrame(t *testing.T) {
	dir := t.TempDir()
	conn := ConnectionInfo{Transport: "ipc", IP: filepath.Join(dir, "k"), ShellPort: 1, IOPubPort: 2, Key: "k", SignatureScheme: "hmac-sha256"}
	for _, port := range []int{conn.ShellPort, conn.IOPubPort} {
		l, err := net.Listen("unix", strings.TrimPrefix(conn.endpoint(port), "ipc://"))
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				c.Write(append(greeting(), hugeFrame...))
				go io.Copy(io.Discard, c)
			}
		}()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if c, err := Dial(ctx, conn); err == nil {
		c.Close()
		t.Fatal("Dial succeeded with a peer that sends garbage")
	}
}
