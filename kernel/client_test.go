package kernel

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gptnotes/gptnotes/kernel/display"
)

// echoEngine runs "print X" (X on stdout), "fail X" (a CellError), "show" (20 MiB of displays)
// and "wait" (until interrupted).
type echoEngine struct{}

func (echoEngine) Execute(ctx context.Context, code string, sink Sink) (*display.Bundle, error) {
	switch verb, arg, _ := strings.Cut(code, " "); verb {
	case "print":
		sink.Stream("stdout", arg+"\n")
	case "fail":
		return nil, &CellError{Name: "Panic", Value: arg, Traceback: []string{"panic: " + arg}}
	case "show": // 20 displays of 1 MiB each
		for range 20 {
			sink.Display(display.Bundle{Data: map[string]any{"text/plain": strings.Repeat("x", 1<<20)}}, "", false)
		}
	case "wait":
		<-ctx.Done()
		return nil, &CellError{Name: "Interrupted", Value: "the cell was interrupted"}
	}
	return nil, nil
}
func (echoEngine) Complete(string, int) ([]string, int, int)       { return nil, 0, 0 }
func (echoEngine) Inspect(string, int, int) (map[string]any, bool) { return nil, false }
func (echoEngine) IsComplete(string) (string, string)              { return "complete", "" }

func TestClientExecutes(t *testing.T) {
	conn := ConnectionInfo{Transport: "ipc", IP: filepath.Join(t.TempDir(), "k"), ShellPort: 1, ControlPort: 2,
		StdinPort: 3, IOPubPort: 4, HBPort: 5, Key: "secret", SignatureScheme: "hmac-sha256"}
	k := New(conn, echoEngine{}, io.Discard)
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	go k.Run(ctx)

	dial, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	c, err := Dial(dial, conn)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	run, err := c.Execute(dial, "print hello")
	if err != nil || run.Status != "ok" || len(run.Outputs) != 1 || run.Outputs[0].Text != "hello\n" {
		t.Fatalf("print: %+v, %v", run, err)
	}
	run, err = c.Execute(dial, "fail not yet: 2 ≠ 3")
	if err != nil || run.Status != "error" || run.EName != "Panic" || run.EValue != "not yet: 2 ≠ 3" {
		t.Fatalf("fail: %+v, %v", run, err)
	}
	if o := run.Outputs; len(o) != 1 || o[0].Type != MsgError || o[0].EValue != "not yet: 2 ≠ 3" {
		t.Errorf("fail: outputs %+v", o)
	}

	// Displays past MaxOutputData are dropped, and a line says so.
	run, err = c.Execute(dial, "show")
	if err != nil || run.Status != "ok" {
		t.Fatalf("show: %v", err)
	}
	if o := run.Outputs; len(o) != 16 || o[15].Type != MsgStream || !strings.Contains(o[15].Text, "display output past") {
		t.Errorf("show: %d outputs, the last %+v; want 15 displays and the line", len(o), o[len(o)-1].Type)
	}

	// A cell past its deadline: Execute returns the cause; the interrupt ends the cell and the
	// next request is answered.
	short, cancelShort := context.WithTimeoutCause(ctx, 200*time.Millisecond, context.DeadlineExceeded)
	defer cancelShort()
	if _, err := c.Execute(short, "wait"); err != context.DeadlineExceeded {
		t.Fatalf("wait: err %v, want the deadline", err)
	}
	k.Interrupt()
	if run, err := c.Execute(dial, "print after"); err != nil || run.Status != "ok" || run.Outputs[0].Text != "after\n" {
		t.Fatalf("after the interrupt: %+v, %v", run, err)
	}
}

// Dial waits for a kernel that starts listening seconds later (zmq4 alone gives up after 2.5 s),
// and gives up when its context ends.
func TestDialWaitsForASlowKernel(t *testing.T) {
	conn := ConnectionInfo{Transport: "ipc", IP: filepath.Join(t.TempDir(), "k"), ShellPort: 1, ControlPort: 2,
		StdinPort: 3, IOPubPort: 4, HBPort: 5, Key: "secret", SignatureScheme: "hmac-sha256"}
	ctx, stop := context.WithCancel(context.Background())
	defer stop()
	early, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if _, err := Dial(early, conn); err == nil {
		t.Fatal("Dial with no kernel succeeded")
	}
	time.AfterFunc(4*time.Second, func() { go New(conn, echoEngine{}, io.Discard).Run(ctx) })
	dial, cancel2 := context.WithTimeout(ctx, 20*time.Second)
	defer cancel2()
	c, err := Dial(dial, conn)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
}
