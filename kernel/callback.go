package kernel

import (
	"context"

	"github.com/gptnotes/gptnotes/kernel/comm"
)

// A CallbackRunner is an Engine that runs compiled code the way it runs a cell: with the cell's
// output capture sending to sink, display calls publishing there, and ctx interrupting the
// interpreted code f calls (a widget callback written in a cell). A panic in f is its error.
type CallbackRunner interface {
	RunCallback(ctx context.Context, f func(), sink Sink) error
}

// asCell serves a comm request as ipykernel serves it, like a cell: on the shell goroutine,
// so never while a cell runs; what its handlers print and display published with the request
// as parent (an Output widget captures it by that id); the interrupt button stopping it.
func (k *Kernel) asCell(req *Message, f func()) {
	r, ok := k.engine.(CallbackRunner)
	if !ok {
		f()
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	k.mu.Lock()
	k.cancel = cancel
	k.mu.Unlock()
	defer func() {
		cancel()
		k.mu.Lock()
		k.cancel = nil
		k.mu.Unlock()
	}()
	sink := &cellSink{k: k, parent: &req.Header, ctx: ctx}
	if err := r.RunCallback(ctx, f, sink); err != nil {
		e := cellError(err, ctx)
		k.log.Printf("%s: %s: %s", req.Header.MsgType, e.Name, e.Value)
		sink.Stream("stderr", e.Name+": "+e.Value+"\n")
	}
}

// arrived tells package comm about a comm_msg as soon as it is read, before it is served, so a
// handler can coalesce a burst of changes (comm.Later).
func (k *Kernel) arrived(m *Message) {
	if m.Header.MsgType != MsgCommMsg {
		return
	}
	var c commContent
	if err := m.decodeContent(&c); err == nil && c.CommID != "" {
		comm.Arrived(c.CommID, c.Data)
	}
}
