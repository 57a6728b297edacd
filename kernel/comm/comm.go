// Package comm is the kernel's side of Jupyter comms: named two-way channels between Go code in
// the kernel and JavaScript in the notebook, the transport widgets are built on.
//
// Go code registers a target; when the frontend opens a comm to it, the target's open function
// receives the new Comm and hooks its handlers:
//
//	comm.Register("echo", func(c *comm.Comm, data map[string]any) {
//		c.OnMsg(func(data map[string]any) { c.Send(data) })
//	})
//
// The kernel opens comms too (comm.Open), for a widget created by a cell, with metadata (the
// widget protocol's version goes there). Messages both ways may carry binary buffers besides
// their JSON data (a widget's image, as raw PNG bytes). The kernel installs
// the Transport that puts comm_open / comm_msg / comm_close on the wire; without one, sends are
// dropped. The API is non-generic so the interpreter can call it.
package comm

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"sort"
	"sync"
)

// A Transport sends comm messages to the frontend; the kernel implements it.
type Transport interface {
	Open(id, target string, data, metadata map[string]any, buffers [][]byte)
	Msg(id string, data map[string]any, buffers [][]byte)
	Close(id string, data map[string]any)
}

// Optional methods of a Transport: the request being served, and the kernel's log.
type (
	parentReporter interface{ ParentMsgID() string }
	logger         interface {
		Logf(format string, args ...any)
	}
)

// A Comm is one open channel.
type Comm struct {
	ID     string
	Target string

	mu      sync.Mutex
	later   []map[string]any // messages received but not yet served, oldest first
	onMsg   func(data map[string]any, buffers [][]byte)
	onClose func(data map[string]any)
	closed  bool
}

var (
	mu        sync.Mutex
	transport Transport
	targets   = map[string]func(c *Comm, data map[string]any){}
	comms     = map[string]*Comm{}
)

// SetTransport installs the kernel's transport.
func SetTransport(t Transport) {
	mu.Lock()
	transport = t
	mu.Unlock()
}

func currentTransport() Transport {
	mu.Lock()
	defer mu.Unlock()
	return transport
}

// Register makes target openable from the frontend; open runs for each comm_open to it.
// Registering a target again replaces its open function.
func Register(target string, open func(c *Comm, data map[string]any)) {
	mu.Lock()
	targets[target] = open
	mu.Unlock()
}

// Unregister removes target; comms already open stay open.
func Unregister(target string) {
	mu.Lock()
	delete(targets, target)
	mu.Unlock()
}

// Targets lists the registered target names, sorted.
func Targets() []string {
	mu.Lock()
	defer mu.Unlock()
	names := make([]string, 0, len(targets))
	for t := range targets {
		names = append(names, t)
	}
	sort.Strings(names)
	return names
}

// Open opens a comm from the kernel side to a target the frontend knows, with data, the
// comm_open's metadata (nil for none) and binary buffers.
func Open(target string, data, metadata map[string]any, buffers ...[]byte) *Comm {
	c := &Comm{ID: newID(), Target: target}
	mu.Lock()
	comms[c.ID] = c
	t := transport
	mu.Unlock()
	if t != nil {
		t.Open(c.ID, target, data, metadata, buffers)
	}
	return c
}

// OnMsg sets the handler for messages from the frontend: their data. A comm that also takes
// binary buffers sets OnMsgBuffers instead; the last of the two set is the one that runs.
func (c *Comm) OnMsg(f func(data map[string]any)) {
	c.OnMsgBuffers(func(data map[string]any, _ [][]byte) { f(data) })
}

// OnMsgBuffers sets the handler for messages from the frontend: their data and binary buffers
// (a widget's image as raw PNG bytes, say).
func (c *Comm) OnMsgBuffers(f func(data map[string]any, buffers [][]byte)) {
	c.mu.Lock()
	c.onMsg = f
	c.mu.Unlock()
}

// OnClose sets the handler run when the frontend closes the comm.
func (c *Comm) OnClose(f func(data map[string]any)) {
	c.mu.Lock()
	c.onClose = f
	c.mu.Unlock()
}

// Send sends data and binary buffers to the frontend; after Close it does nothing.
func (c *Comm) Send(data map[string]any, buffers ...[]byte) {
	c.mu.Lock()
	closed := c.closed
	c.mu.Unlock()
	if t := currentTransport(); t != nil && !closed {
		t.Msg(c.ID, data, buffers)
	}
}

// Close closes the comm from the kernel side.
func (c *Comm) Close(data map[string]any) {
	if !c.markClosed() {
		return
	}
	if t := currentTransport(); t != nil {
		t.Close(c.ID, data)
	}
}

// markClosed forgets the comm and reports whether it was open.
func (c *Comm) markClosed() bool {
	c.mu.Lock()
	was := !c.closed
	c.closed = true
	c.mu.Unlock()
	mu.Lock()
	delete(comms, c.ID)
	mu.Unlock()
	return was
}

// HandleOpen serves a comm_open from the frontend. An unknown target is an error; the kernel
// then answers with comm_close, as the protocol asks.
func HandleOpen(id, target string, data map[string]any) error {
	mu.Lock()
	open, ok := targets[target]
	c := &Comm{ID: id, Target: target}
	if ok {
		comms[id] = c
	}
	mu.Unlock()
	if !ok {
		return fmt.Errorf("comm: open %s: no target %q registered", id, target)
	}
	open(c, data)
	return nil
}

// Arrived tells the comm that a message for it has been received, ahead of HandleMsg serving
// it; the kernel calls it as it reads requests. Handlers see what waits behind the message they
// serve with Later, so a burst of changes can be coalesced.
func Arrived(id string, data map[string]any) {
	if c := lookup(id); c != nil {
		c.mu.Lock()
		c.later = append(c.later, data)
		c.mu.Unlock()
	}
}

// Later returns the messages that arrived for c after the one being served (see Arrived),
// oldest first.
func (c *Comm) Later() []map[string]any {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]map[string]any(nil), c.later...)
}

// HandleMsg serves a comm_msg from the frontend: its data and binary buffers.
func HandleMsg(id string, data map[string]any, buffers ...[]byte) error {
	c := lookup(id)
	if c == nil {
		return fmt.Errorf("comm: message to %s: no such comm", id)
	}
	c.mu.Lock()
	if len(c.later) > 0 {
		c.later = c.later[1:]
	}
	f := c.onMsg
	c.mu.Unlock()
	if f != nil {
		f(data, buffers)
	}
	return nil
}

// HandleClose serves a comm_close from the frontend.
func HandleClose(id string, data map[string]any) error {
	c := lookup(id)
	if c == nil {
		return fmt.Errorf("comm: close %s: no such comm", id)
	}
	c.markClosed()
	c.mu.Lock()
	f := c.onClose
	c.mu.Unlock()
	if f != nil {
		f(data)
	}
	return nil
}

// Info lists open comms as id → target, only those of target when it is not empty
// (the comm_info_reply).
func Info(target string) map[string]string {
	mu.Lock()
	defer mu.Unlock()
	out := map[string]string{}
	for id, c := range comms {
		if target == "" || c.Target == target {
			out[id] = c.Target
		}
	}
	return out
}

// ParentMsgID is the msg_id of the request the kernel is serving (a cell's execute_request,
// or the comm_msg whose handler runs), "" between requests or without a kernel.
func ParentMsgID() string {
	if p, ok := currentTransport().(parentReporter); ok {
		return p.ParentMsgID()
	}
	return ""
}

// Logf writes to the kernel's log (not to the notebook): for messages a handler refuses.
func Logf(format string, args ...any) {
	if l, ok := currentTransport().(logger); ok {
		l.Logf(format, args...)
	}
}

func lookup(id string) *Comm {
	mu.Lock()
	defer mu.Unlock()
	return comms[id]
}

func newID() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
