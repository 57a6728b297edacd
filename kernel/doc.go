// Package kernel speaks the Jupyter messaging protocol (5.3) for gptnotes: the wire (five
// ZeroMQ sockets over github.com/go-zeromq/zmq4, framing, HMAC-SHA256 signatures) and the
// dispatch (routing by message type, busy → outputs → reply → idle, execution counter,
// history, comms). Running cells is the Engine's job — package kernel/engine, the session of
// kernel/internal/session behind this package's interfaces — and turning values into MIME
// bundles is package display's.
//
// Reading order: connection.go, msgtype.go, message.go, wire.go (the wire); kernel.go (the
// sockets); dispatch.go, execute.go, control.go, stdin.go, history.go (the dispatch);
// callback.go (comm requests served like cells, for widgets); memlimit.go (the memory limit
// that stops a runaway cell); stackguard.go (the stack limit that stops a runaway recursion
// before Go's fatal stack overflow); gc.go (the collector's target over a long session); engine.go
// (what the session provides); client.go (the client side of the same wire, with which
// `gptnotes grade` drives a kernel); wirecap.go (the transports the client and the kernel's own sockets use, which refuse a frame
// larger than it can hold).
//
// Usage, as cmd/gptnotes runs it:
//
//	conn, err := kernel.ReadConnectionFile(path)
//	e, err := engine.New()                    // package kernel/engine: the interpreter
//	k := kernel.New(conn, e, engine.LogWriter())
//	err = k.Run(ctx) // until a shutdown_request; k.Interrupt() on SIGINT
package kernel
