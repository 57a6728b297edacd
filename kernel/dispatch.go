package kernel

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/gptnotes/gptnotes/kernel/comm"
)

// A handler serves one request; the dispatcher has already published busy and publishes idle
// after it returns.
type handler func(k *Kernel, s *socket, req *Message)

// shellHandlers routes shell requests by message type. (Filled in init: execute refers back
// to it when aborting queued requests.)
var shellHandlers map[MsgType]handler

func init() {
	shellHandlers = map[MsgType]handler{
		MsgExecuteRequest:    (*Kernel).execute,
		MsgKernelInfoRequest: (*Kernel).kernelInfo,
		MsgCompleteRequest:   (*Kernel).complete,
		MsgInspectRequest:    (*Kernel).inspect,
		MsgIsCompleteRequest: (*Kernel).isComplete,
		MsgHistoryRequest:    (*Kernel).historyRequest,
		MsgCommInfoRequest:   (*Kernel).commInfo,
		MsgCommOpen:          (*Kernel).commOpen,
		MsgCommMsg:           (*Kernel).commMsg,
		MsgCommClose:         (*Kernel).commClose,
	}
}

// readShell reads shell messages ahead of the one being served, so stop_on_error can abort the
// executes already queued behind a failing cell.
func (k *Kernel) readShell() {
	for {
		m := k.recv(k.shell)
		if m == nil {
			return
		}
		k.arrived(m)
		select {
		case k.shellQueue <- m:
		case <-k.done:
			return
		}
	}
}

// serveShell serves queued shell requests one at a time, and once the shell has been idle for
// idleRelease after a reply, returns the memory the collector freed to the system (idle.go).
func (k *Kernel) serveShell() {
	var idle idleTimer
	defer idle.busy()
	for {
		select {
		case m := <-k.shellQueue:
			idle.busy()
			k.dispatch(k.shell, m, shellHandlers)
			idle.served()
		case <-idle.C:
			idle.fired()
			k.release()
		case <-k.done:
			return
		}
	}
}

// dispatch wraps every request in busy … idle on iopub and recovers from a panicking handler,
// so a bug in one reply never takes the user's state down with it.
func (k *Kernel) dispatch(s *socket, req *Message, handlers map[MsgType]handler) {
	parent := &req.Header
	k.publish(parent, MsgStatus, statusContent{"busy"})
	defer k.publish(parent, MsgStatus, statusContent{"idle"})
	if s == k.shell {
		k.mu.Lock()
		k.parent = parent
		k.mu.Unlock()
		defer func() {
			k.mu.Lock()
			k.parent = nil
			k.mu.Unlock()
		}()
	}
	h, ok := handlers[req.Header.MsgType]
	if !ok {
		k.log.Printf("%s: unknown message type %q, ignored", s.name, req.Header.MsgType)
		return
	}
	defer func() {
		if r := recover(); r != nil {
			k.log.Printf("%s: %s handler panicked: %v", s.name, req.Header.MsgType, r)
		}
	}()
	h(k, s, req)
}

// badRequest answers a request whose content does not decode, with an error reply of the
// matching type.
func (k *Kernel) badRequest(s *socket, req *Message, err error) {
	k.log.Printf("%s: %s: bad content: %v", s.name, req.Header.MsgType, err)
	reply := MsgType(strings.TrimSuffix(string(req.Header.MsgType), "_request") + "_reply")
	k.reply(s, req, reply, errorContent{
		Status: "error", Ename: "BadRequest",
		Evalue:    fmt.Sprintf("%s: %v", req.Header.MsgType, err),
		Traceback: []string{},
	})
}

type errorContent struct {
	Status    string   `json:"status,omitempty"` // "error" in replies; absent on iopub
	Ename     string   `json:"ename"`
	Evalue    string   `json:"evalue"`
	Traceback []string `json:"traceback"`
}

// kernel_info ------------------------------------------------------------------------------

type languageInfo struct {
	Name           string `json:"name"`
	Version        string `json:"version"`
	Mimetype       string `json:"mimetype"`
	FileExtension  string `json:"file_extension"`
	PygmentsLexer  string `json:"pygments_lexer"`
	CodemirrorMode string `json:"codemirror_mode"`
}

type helpLink struct {
	Text string `json:"text"`
	URL  string `json:"url"`
}

type kernelInfoReply struct {
	Status                string       `json:"status"`
	ProtocolVersion       string       `json:"protocol_version"`
	Implementation        string       `json:"implementation"`
	ImplementationVersion string       `json:"implementation_version"`
	LanguageInfo          languageInfo `json:"language_info"`
	Banner                string       `json:"banner"`
	HelpLinks             []helpLink   `json:"help_links"`
}

func (k *Kernel) kernelInfo(s *socket, req *Message) {
	goVersion := strings.TrimPrefix(runtime.Version(), "go")
	k.reply(s, req, MsgKernelInfoReply, kernelInfoReply{
		Status:                "ok",
		ProtocolVersion:       ProtocolVersion,
		Implementation:        "gptnotes",
		ImplementationVersion: Version,
		LanguageInfo: languageInfo{
			Name: "go", Version: goVersion, Mimetype: "text/x-go", FileExtension: ".go",
			PygmentsLexer: "go", CodemirrorMode: "go",
		},
		Banner: fmt.Sprintf("gptnotes %s: Go %s interpreted by yaegi, with GPT-2 inside", Version, goVersion),
		HelpLinks: []helpLink{
			{Text: "Go documentation", URL: "https://go.dev/doc/"},
			{Text: "Go standard library", URL: "https://pkg.go.dev/std"},
			{Text: "yaegi", URL: "https://github.com/traefik/yaegi"},
		},
	})
}

// complete, inspect, is_complete: routed to the session -----------------------------------

type codeRequest struct {
	Code        string `json:"code"`
	CursorPos   int    `json:"cursor_pos"` // in unicode code points
	DetailLevel int    `json:"detail_level"`
}

type completeReply struct {
	Status      string         `json:"status"`
	Matches     []string       `json:"matches"`
	CursorStart int            `json:"cursor_start"`
	CursorEnd   int            `json:"cursor_end"`
	Metadata    map[string]any `json:"metadata"`
}

func (k *Kernel) complete(s *socket, req *Message) {
	var r codeRequest
	if err := req.decodeContent(&r); err != nil {
		k.badRequest(s, req, err)
		return
	}
	matches, start, end := k.engine.Complete(r.Code, r.CursorPos)
	if matches == nil {
		matches = []string{}
	}
	k.reply(s, req, MsgCompleteReply, completeReply{
		Status: "ok", Matches: matches, CursorStart: start, CursorEnd: end, Metadata: map[string]any{},
	})
}

type inspectReply struct {
	Status   string         `json:"status"`
	Found    bool           `json:"found"`
	Data     map[string]any `json:"data"`
	Metadata map[string]any `json:"metadata"`
}

func (k *Kernel) inspect(s *socket, req *Message) {
	var r codeRequest
	if err := req.decodeContent(&r); err != nil {
		k.badRequest(s, req, err)
		return
	}
	data, found := k.engine.Inspect(r.Code, r.CursorPos, r.DetailLevel)
	if data == nil {
		data = map[string]any{}
	}
	k.reply(s, req, MsgInspectReply, inspectReply{Status: "ok", Found: found, Data: data, Metadata: map[string]any{}})
}

type isCompleteReply struct {
	Status string `json:"status"` // complete, incomplete, invalid, unknown
	Indent string `json:"indent,omitempty"`
}

func (k *Kernel) isComplete(s *socket, req *Message) {
	var r codeRequest
	if err := req.decodeContent(&r); err != nil {
		k.badRequest(s, req, err)
		return
	}
	status, indent := k.engine.IsComplete(r.Code)
	if status != "incomplete" {
		indent = ""
	}
	k.reply(s, req, MsgIsCompleteReply, isCompleteReply{Status: status, Indent: indent})
}

// comms ------------------------------------------------------------------------------------

type commContent struct {
	CommID     string         `json:"comm_id"`
	TargetName string         `json:"target_name,omitempty"`
	Data       map[string]any `json:"data"`
}

type commInfoRequest struct {
	TargetName string `json:"target_name"`
}

type commInfoReply struct {
	Status string                       `json:"status"`
	Comms  map[string]map[string]string `json:"comms"` // comm id → {"target_name": …}
}

func (k *Kernel) commInfo(s *socket, req *Message) {
	var r commInfoRequest
	if err := req.decodeContent(&r); err != nil {
		k.badRequest(s, req, err)
		return
	}
	comms := map[string]map[string]string{}
	for id, target := range comm.Info(r.TargetName) {
		comms[id] = map[string]string{"target_name": target}
	}
	k.reply(s, req, MsgCommInfoReply, commInfoReply{Status: "ok", Comms: comms})
}

func (k *Kernel) commOpen(s *socket, req *Message) {
	var c commContent
	if err := req.decodeContent(&c); err != nil {
		k.log.Printf("comm_open: bad content: %v", err)
		return
	}
	var err error
	k.asCell(req, func() { err = comm.HandleOpen(c.CommID, c.TargetName, c.Data) })
	if err != nil {
		k.log.Print(err)
		// The protocol's answer to an open nobody can serve: close it again.
		k.publish(&req.Header, MsgCommClose, commContent{CommID: c.CommID, Data: map[string]any{}})
	}
}

func (k *Kernel) commMsg(s *socket, req *Message) {
	var c commContent
	if err := req.decodeContent(&c); err != nil {
		k.log.Printf("comm_msg: bad content: %v", err)
		return
	}
	var err error
	k.asCell(req, func() { err = comm.HandleMsg(c.CommID, c.Data, req.Buffers...) })
	if err != nil {
		k.log.Print(err)
	}
}

func (k *Kernel) commClose(s *socket, req *Message) {
	var c commContent
	if err := req.decodeContent(&c); err != nil {
		k.log.Printf("comm_close: bad content: %v", err)
		return
	}
	var err error
	k.asCell(req, func() { err = comm.HandleClose(c.CommID, c.Data) })
	if err != nil {
		k.log.Print(err)
	}
}

// commTransport puts the kernel's side of comms on iopub, parented to the request being
// served (the cell that opened a widget, or the comm_msg that answered).
type commTransport struct{ k *Kernel }

func (t commTransport) parent() *Header {
	t.k.mu.Lock()
	defer t.k.mu.Unlock()
	return t.k.parent
}

// ParentMsgID is the msg_id of the request being served, "" between requests.
func (t commTransport) ParentMsgID() string {
	if p := t.parent(); p != nil {
		return p.MsgID
	}
	return ""
}

// Logf writes to the kernel's log.
func (t commTransport) Logf(format string, args ...any) { t.k.log.Printf(format, args...) }

func (t commTransport) Open(id, target string, data, metadata map[string]any, buffers [][]byte) {
	t.k.publishWith(t.parent(), MsgCommOpen, commContent{CommID: id, TargetName: target, Data: nonNil(data)}, metadata, buffers)
}

func (t commTransport) Msg(id string, data map[string]any, buffers [][]byte) {
	t.k.publishWith(t.parent(), MsgCommMsg, commContent{CommID: id, Data: nonNil(data)}, nil, buffers)
}

func (t commTransport) Close(id string, data map[string]any) {
	t.k.publish(t.parent(), MsgCommClose, commContent{CommID: id, Data: nonNil(data)})
}

func nonNil(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}
