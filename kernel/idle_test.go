package kernel

import (
	"context"
	"io"
	"path/filepath"
	"testing"
	"time"
)

// Once the shell has been idle after a reply, the kernel gives freed memory back to the
// system: once per idle spell, again after the next request. (Not timed: the release only has to
// come, within a generous wait.)
func TestIdleShellReleasesMemory(t *testing.T) {
	conn := ConnectionInfo{Transport: "ipc", IP: filepath.Join(t.TempDir(), "k"), ShellPort: 1, ControlPort: 2,
		StdinPort: 3, IOPubPort: 4, HBPort: 5, Key: "secret", SignatureScheme: "hmac-sha256"}
	k := New(conn, echoEngine{}, io.Discard)
	released := make(chan struct{}, 10)
	k.release = func() { released <- struct{}{} }
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go k.Run(ctx)

	dial, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	c, err := Dial(dial, conn)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	waitRelease := func(after string) {
		t.Helper()
		select {
		case <-released:
		case <-dial.Done():
			t.Fatalf("no release of memory after %s", after)
		}
	}
	time.Sleep(3 * idleRelease) // Dial's own requests may have been followed by a release
	for len(released) > 0 {
		<-released
	}
	for _, cell := range []string{"print one", "print two"} {
		if run, err := c.Execute(dial, cell); err != nil || run.Status != "ok" {
			t.Fatalf("%s: %+v, %v", cell, run, err)
		}
		waitRelease(cell)
	}
	// Idle, nothing served since the last release: no other.
	time.Sleep(3 * idleRelease)
	if n := len(released); n != 0 {
		t.Errorf("%d more releases while idle with nothing served; want none", n)
	}
}
