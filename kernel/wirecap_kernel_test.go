package kernel

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// freePorts returns n tcp ports free on loopback now.
func freePorts(t *testing.T, n int) []int {
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports
}

// A kernel on tcp, as a hub that asks for tcp starts it, meets what any local user can send to
// its ports: a greeting and a frame header claiming 2^62 bytes (73 bytes in all), garbage, and a
// connection that never says anything. Each costs that connection only: the kernel still
// answers a client that connects afterwards, within the handshake's timeout.
func TestKernelSurvivesHostilePeers(t *testing.T) {
	p := freePorts(t, 5)
	conn := ConnectionInfo{Transport: "tcp", IP: "127.0.0.1", ShellPort: p[0], ControlPort: p[1],
		StdinPort: p[2], IOPubPort: p[3], HBPort: p[4], Key: "secret", SignatureScheme: "hmac-sha256"}
	k := New(conn, echoEngine{}, io.Discard)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go k.Run(ctx)
	time.Sleep(200 * time.Millisecond) // the sockets bound

	attacks := map[string][]byte{
		"huge frame": append(greeting(), hugeFrame...),
		"garbage":    []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n\xff\x00\x00\x00\x00\x00\x00\x00\x00\x7f\x03\x00NULL\x00\x01\x02\xff\xff\xff\xff\xff\xff\xff\xff\xff"),
		"silent":     nil,
	}
	var silent []net.Conn
	for name, b := range attacks {
		for _, port := range p {
			c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
			if err != nil {
				t.Fatalf("%s: dial %d: %v", name, port, err)
			}
			if b == nil {
				silent = append(silent, c) // held open, saying nothing
				continue
			}
			c.Write(b)
			go io.Copy(io.Discard, c)
			defer c.Close()
		}
	}
	defer func() {
		for _, c := range silent {
			c.Close()
		}
	}()

	dial, cancel := context.WithTimeout(ctx, 4*handshakeTimeout)
	defer cancel()
	start := time.Now()
	c, err := Dial(dial, conn)
	if err != nil {
		t.Fatalf("a client after the attacks: %v", err)
	}
	defer c.Close()
	run, err := c.Execute(dial, "print still here")
	if err != nil || run.Status != "ok" || len(run.Outputs) != 1 || run.Outputs[0].Text != "still here\n" {
		t.Fatalf("after the attacks: %+v, %v", run, err)
	}
	t.Logf("a client served %v after the attacks", time.Since(start).Round(time.Millisecond))
}

// An ipc socket the kernel binds is its owner's only (0600): on Linux another user cannot
// connect to it, whatever the directory's mode.
func TestKernelIPCSocketsArePrivate(t *testing.T) {
	dir := t.TempDir()
	conn := ConnectionInfo{Transport: "ipc", IP: filepath.Join(dir, "k"), ShellPort: 1, ControlPort: 2,
		StdinPort: 3, IOPubPort: 4, HBPort: 5, Key: "secret", SignatureScheme: "hmac-sha256"}
	k := New(conn, echoEngine{}, io.Discard)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go k.Run(ctx)
	for port := 1; port <= 5; port++ {
		path := fmt.Sprintf("%s-%d", conn.IP, port)
		var fi os.FileInfo
		var err error
		for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if fi, err = os.Stat(path); err == nil && fi.Mode().Perm() == 0o600 {
				break
			}
		}
		if err != nil {
			t.Fatalf("socket %s: %v", path, err)
		}
		if fi.Mode()&os.ModeSocket == 0 || fi.Mode().Perm() != 0o600 {
			t.Errorf("socket %s: mode %v, want a socket of mode 0600", path, fi.Mode())
		}
	}
}
