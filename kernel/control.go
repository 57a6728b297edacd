package kernel

// controlHandlers routes control requests. kernel_info is answered here too, as some clients
// ask on control to see whether a busy kernel is alive.
var controlHandlers = map[MsgType]handler{
	MsgShutdownRequest:   (*Kernel).shutdownRequest,
	MsgInterruptRequest:  (*Kernel).interruptRequest,
	MsgKernelInfoRequest: (*Kernel).kernelInfo,
}

// serveControl runs on its own goroutine, never blocked by a running cell.
func (k *Kernel) serveControl() {
	for {
		m := k.recv(k.control)
		if m == nil {
			return
		}
		k.dispatch(k.control, m, controlHandlers)
		if m.Header.MsgType == MsgShutdownRequest {
			k.shutdown()
			return
		}
	}
}

type shutdownContent struct {
	Status  string `json:"status,omitempty"`
	Restart bool   `json:"restart"`
}

// shutdownRequest replies; serveControl then ends the kernel once idle has been published.
// A restart is the client's job: it starts a new process after this one exits.
func (k *Kernel) shutdownRequest(s *socket, req *Message) {
	var r shutdownContent
	if err := req.decodeContent(&r); err != nil {
		k.log.Printf("shutdown_request: bad content, shutting down anyway: %v", err)
	}
	k.Interrupt()
	reply := shutdownContent{Status: "ok", Restart: r.Restart}
	k.reply(s, req, MsgShutdownReply, reply)
	k.publish(&req.Header, MsgShutdownReply, reply) // protocol 5.4 broadcasts it; older clients ignore it
}

type interruptReply struct {
	Status string `json:"status"`
}

func (k *Kernel) interruptRequest(s *socket, req *Message) {
	k.Interrupt()
	k.reply(s, req, MsgInterruptReply, interruptReply{Status: "ok"})
}
