package kernel

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"sync"
	"time"

	"github.com/go-zeromq/zmq4"

	"github.com/gptnotes/gptnotes/kernel/comm"
)

// Version is gptnotes' version, reported in kernel_info_reply and by `gptnotes version`.
const Version = "0.1.0"

// A Kernel serves one connection file: five ZeroMQ sockets, one interpreter session.
//
// Goroutines: shell messages are read ahead into a queue and served one at a time (a cell runs
// on the shell goroutine); control is served on its own goroutine, so interrupt and shutdown work
// while a cell runs; the heartbeat echoes on a third.
type Kernel struct {
	conn   ConnectionInfo
	signer signer
	log    *log.Logger
	engine Engine
	id     string // the session field of every header this kernel sends

	shell, control, stdin, iopub, hb *socket

	shellQueue   chan *Message
	inputReplies chan *Message // input_reply messages from stdin, for the cell in Input
	done         chan struct{} // closed by shutdown
	doneOnce     sync.Once

	mu         sync.Mutex
	cancel     context.CancelFunc // cancels the running cell; nil when idle
	mem        *memGuard          // stops a cell past the memory limit; nil without one (memlimit.go)
	stackLimit int64              // stops a cell whose goroutines' stacks pass it (stackguard.go)
	parent     *Header            // the shell request being served, parent of comm output
	execCount  int                // execute requests with store_history so far
	history    []historyEntry

	release func() // gives freed memory back to the system when the shell is idle (idle.go)
}

// A socket is a ZeroMQ socket whose sends are serialized: iopub is written by the shell
// goroutine, the output capture and cell goroutines at once.
type socket struct {
	name string
	zmq4.Socket
	mu sync.Mutex
}

// New prepares a kernel for conn, running cells in e, logging to logw (never the captured
// os.Stderr: the session redirects fd 2 into the running cell; use session.LogWriter()).
func New(conn ConnectionInfo, e Engine, logw io.Writer) *Kernel {
	k := &Kernel{
		conn:         conn,
		signer:       signer{key: []byte(conn.Key)},
		log:          log.New(logw, "gptnotes kernel: ", log.LstdFlags|log.Lmicroseconds),
		engine:       e,
		id:           newID(),
		shellQueue:   make(chan *Message, 256),
		inputReplies: make(chan *Message, 1),
		done:         make(chan struct{}),
		release:      releaseMemory,
		stackLimit:   defaultStackLimit,
	}
	return k
}

// Run binds the sockets and serves until a shutdown_request arrives or ctx is cancelled.
func (k *Kernel) Run(ctx context.Context) error {
	setSessionGC()
	sctx, stop := context.WithCancel(context.Background())
	defer stop()
	opt := zmq4.WithLogger(k.log)
	k.shell = &socket{name: "shell", Socket: zmq4.NewRouter(sctx, opt)}
	k.control = &socket{name: "control", Socket: zmq4.NewRouter(sctx, opt)}
	k.stdin = &socket{name: "stdin", Socket: zmq4.NewRouter(sctx, opt)}
	k.iopub = &socket{name: "iopub", Socket: zmq4.NewPub(sctx, opt)}
	k.hb = &socket{name: "hb", Socket: zmq4.NewRep(sctx, opt)}
	all := []*socket{k.shell, k.control, k.stdin, k.iopub, k.hb}
	defer func() {
		for _, s := range all {
			s.Close()
		}
	}()
	ports := []int{k.conn.ShellPort, k.conn.ControlPort, k.conn.StdinPort, k.conn.IOPubPort, k.conn.HBPort}
	for i, s := range all {
		if err := s.Listen("capped+" + k.conn.endpoint(ports[i])); err != nil { // wirecap.go
			return fmt.Errorf("kernel: bind %s on %s: %w", s.name, k.conn.endpoint(ports[i]), err)
		}
	}
	comm.SetTransport(commTransport{k})
	defer comm.SetTransport(nil)

	k.publish(nil, MsgStatus, statusContent{"starting"})
	go k.heartbeat()
	go k.readShell()
	go k.readStdin()
	go k.serveShell()
	go k.serveControl()
	k.log.Printf("listening on %s (shell %d, iopub %d, control %d)", k.conn.IP, k.conn.ShellPort, k.conn.IOPubPort, k.conn.ControlPort)

	select {
	case <-k.done:
	case <-ctx.Done():
		k.Interrupt()
	}
	return nil
}

// Interrupt cancels the running cell, if any. SIGINT and interrupt_request both land here.
func (k *Kernel) Interrupt() {
	k.mu.Lock()
	cancel := k.cancel
	k.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// shutdown ends Run; the caller exits the process, leaving no goroutine of a cell behind.
func (k *Kernel) shutdown() {
	k.Interrupt()
	k.doneOnce.Do(func() { close(k.done) })
}

// heartbeat echoes every ping so the client knows the process is alive, even mid-cell.
func (k *Kernel) heartbeat() {
	for {
		m, err := k.hb.Recv()
		if err != nil {
			return
		}
		if err := k.hb.Send(m); err != nil {
			return
		}
	}
}

// recv reads the next message from s that is well-formed and correctly signed; others are
// logged and dropped. It returns nil when the socket is closed.
func (k *Kernel) recv(s *socket) *Message {
	for {
		zm, err := s.Recv()
		if err != nil {
			select {
			case <-k.done:
				return nil
			default:
			}
			if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
				return nil
			}
			k.log.Printf("%s: receive: %v", s.name, err)
			time.Sleep(10 * time.Millisecond) // a broken socket must not spin
			continue
		}
		m, err := k.signer.decode(zm.Frames)
		if err != nil {
			k.log.Printf("%s: dropped a message: %v", s.name, err)
			continue
		}
		return m
	}
}

// send signs m and writes it to s, logging failures: a reply that cannot be sent is not worth
// crashing a kernel that holds the user's state.
func (k *Kernel) send(s *socket, m *Message) {
	frames, err := k.signer.encode(m)
	if err != nil {
		k.log.Printf("%s: %v", s.name, err)
		return
	}
	s.mu.Lock()
	err = s.SendMulti(zmq4.NewMsgFrom(frames...)) // all frames in one writev where zmq4 can
	s.mu.Unlock()
	if err != nil {
		k.log.Printf("%s: send %s: %v", s.name, m.Header.MsgType, err)
	}
}

// reply answers req on s (shell or control) with the request's identities.
func (k *Kernel) reply(s *socket, req *Message, t MsgType, content any) {
	k.send(s, &Message{
		Identities:   req.Identities,
		Header:       newHeader(t, k.id),
		ParentHeader: &req.Header,
		Content:      content,
	})
}

// publish broadcasts on iopub; the topic frame is the message type, as ipykernel's
// "kernel.<id>.<type>" topics are only read by filters nobody sets.
func (k *Kernel) publish(parent *Header, t MsgType, content any) {
	k.publishWith(parent, t, content, nil, nil)
}

// publishWith publishes a message with metadata and binary buffers (a comm's).
func (k *Kernel) publishWith(parent *Header, t MsgType, content any, metadata map[string]any, buffers [][]byte) {
	k.send(k.iopub, &Message{
		Identities:   [][]byte{[]byte(t)},
		Header:       newHeader(t, k.id),
		ParentHeader: parent,
		Metadata:     metadata,
		Content:      content,
		Buffers:      buffers,
	})
}

type statusContent struct {
	ExecutionState string `json:"execution_state"` // busy, idle, starting
}
