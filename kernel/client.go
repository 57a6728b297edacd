package kernel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/go-zeromq/zmq4"
)

// A Client is the other side of a kernel's sockets, as Jupyter's client is: it sends execute
// requests on shell and collects what the kernel publishes about them on iopub. `gptnotes grade`
// drives one kernel per submission with it.
//
//	c, err := kernel.Dial(ctx, conn)
//	defer c.Close()
//	run, err := c.Execute(ctx, `fmt.Println("hi")`) // run.Status "ok", run.Outputs[0].Text "hi\n"
type Client struct {
	signer  signer
	session string
	shell   zmq4.Socket // DEALER
	iopub   zmq4.Socket // SUB, subscribed to everything

	shellIn chan *Message // decoded by the readers, closed when the socket closes
	iopubIn chan *Message
	stop    context.CancelFunc
	once    sync.Once
}

// An Output is one thing a cell showed: a stream's text, a display or result (its MIME bundle),
// or an error.
type Output struct {
	Type      MsgType        // MsgStream, MsgDisplayData, MsgExecuteResult or MsgError
	Name      string         // a stream's name: "stdout" or "stderr"
	Text      string         // a stream's text
	Data      map[string]any // a display's or result's MIME bundle, e.g. "text/plain": "3"
	EName     string         // an error's name, e.g. "Panic", "CompileError", "Interrupted"
	EValue    string         // an error's value, e.g. "not yet: …"
	Traceback []string
}

// An Execution is what one execute request came to.
type Execution struct {
	Status  string // the execute_reply's status: "ok", "error" or "aborted"
	Outputs []Output
	EName   string // the reply's error, when Status is "error"
	EValue  string
}

// Dial connects to the kernel of conn and waits, until ctx ends, for it to answer a
// kernel_info_request with iopub connected (what Jupyter's wait_for_ready does: a SUB socket
// misses whatever is published before its subscription reaches the kernel).
func Dial(ctx context.Context, conn ConnectionInfo) (*Client, error) {
	sctx, stop := context.WithCancel(context.Background())
	c := &Client{
		signer:  signer{key: []byte(conn.Key)},
		session: newID(),
		shell:   zmq4.NewDealer(sctx, zmq4.WithDialerMaxRetries(-1)),
		iopub:   zmq4.NewSub(sctx, zmq4.WithDialerMaxRetries(-1)),
		shellIn: make(chan *Message, 64),
		iopubIn: make(chan *Message, 1024),
		stop:    stop,
	}
	if err := c.iopub.SetOption(zmq4.OptionSubscribe, ""); err != nil {
		c.Close()
		return nil, fmt.Errorf("kernel: client: subscribe: %w", err)
	}
	// The sockets retry a connection until the kernel is listening (a loaded machine may take
	// seconds to start one), or until ctx ends, which stops them.
	unwatch := context.AfterFunc(ctx, stop)
	defer unwatch()
	for _, s := range []struct {
		sock zmq4.Socket
		port int
	}{{c.shell, conn.ShellPort}, {c.iopub, conn.IOPubPort}} {
		if err := s.sock.Dial("capped+" + conn.endpoint(s.port)); err != nil { // wirecap.go
			c.Close()
			return nil, fmt.Errorf("kernel: client: connect to %s: %w", conn.endpoint(s.port), err)
		}
	}
	go c.read(c.shell, c.shellIn)
	go c.read(c.iopub, c.iopubIn)
	if err := c.waitReady(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// Close disconnects; the kernel keeps running.
func (c *Client) Close() error {
	c.once.Do(func() {
		c.stop()
		c.shell.Close()
		c.iopub.Close()
	})
	return nil
}

// read decodes the messages of s into ch until s closes; messages that fail to decode (a bad
// signature) are dropped, as the kernel drops them.
func (c *Client) read(s zmq4.Socket, ch chan<- *Message) {
	defer close(ch)
	for {
		zm, err := s.Recv()
		if err != nil {
			return
		}
		if m, err := c.signer.decode(zm.Frames); err == nil {
			ch <- m
		}
	}
}

func (c *Client) send(t MsgType, content any) (*Header, error) {
	h := newHeader(t, c.session)
	h.Username = "gptnotes"
	frames, err := c.signer.encode(&Message{Header: h, Content: content})
	if err != nil {
		return nil, err
	}
	if err := c.shell.Send(zmq4.NewMsgFrom(frames...)); err != nil {
		return nil, fmt.Errorf("kernel: client: send %s: %w", t, err)
	}
	return &h, nil
}

// waitReady sends kernel_info_request until one is answered on shell and iopub has carried a
// status message, so iopub's subscription is in place.
func (c *Client) waitReady(ctx context.Context) error {
	replied, published := false, false
	for !replied || !published {
		if _, err := c.send(MsgKernelInfoRequest, struct{}{}); err != nil {
			return err
		}
		tick := time.NewTimer(200 * time.Millisecond)
	wait:
		for !replied || !published {
			select {
			case m, ok := <-c.shellIn:
				if !ok {
					return errors.New("kernel: client: shell closed before the kernel answered")
				}
				replied = replied || m.Header.MsgType == MsgKernelInfoReply
			case m, ok := <-c.iopubIn:
				if !ok {
					return errors.New("kernel: client: iopub closed before the kernel answered")
				}
				published = published || m.Header.MsgType == MsgStatus
			case <-tick.C:
				break wait
			case <-ctx.Done():
				tick.Stop()
				return fmt.Errorf("kernel: client: the kernel did not answer: %w", context.Cause(ctx))
			}
		}
		tick.Stop()
	}
	// Forget the status messages of the requests sent while waiting.
	for {
		select {
		case <-c.iopubIn:
		case <-time.After(100 * time.Millisecond):
			return nil
		}
	}
}

// MaxOutputText is how much text of one cell's streams Execute keeps; the rest is dropped and
// the last stream output says so. A cell that prints without end cannot fill the client's memory.
const MaxOutputText = 1 << 20

// MaxOutputData is how much of one cell's displays (display_data, execute_result) Execute keeps,
// counted as their JSON; the rest is dropped, with a stderr line that says so.
const MaxOutputData = 16 << 20

// Execute runs code and returns, once the kernel has replied and gone idle, the reply's status
// and the cell's outputs. When ctx ends first it returns what came so far with ctx's cause;
// the cell may still be running (interrupt the kernel, or kill it).
func (c *Client) Execute(ctx context.Context, code string) (*Execution, error) {
	yes, no := true, false
	req, err := c.send(MsgExecuteRequest, executeRequest{Code: code, StoreHistory: &yes, StopOnError: &no,
		UserExpressions: map[string]string{}})
	if err != nil {
		return nil, err
	}
	run := &Execution{}
	text, truncated := 0, false
	data, dropped := 0, false
	replied, idle := false, false
	for !replied || !idle {
		select {
		case m, ok := <-c.shellIn:
			if !ok {
				return run, errors.New("kernel: client: shell closed during a cell")
			}
			if m.Header.MsgType != MsgExecuteReply || m.ParentHeader == nil || m.ParentHeader.MsgID != req.MsgID {
				continue
			}
			var reply struct {
				Status string `json:"status"`
				EName  string `json:"ename"`
				EValue string `json:"evalue"`
			}
			if err := m.decodeContent(&reply); err != nil {
				return run, fmt.Errorf("kernel: client: execute_reply: %w", err)
			}
			run.Status, run.EName, run.EValue = reply.Status, reply.EName, reply.EValue
			replied = true
		case m, ok := <-c.iopubIn:
			if !ok {
				return run, errors.New("kernel: client: iopub closed during a cell")
			}
			if m.ParentHeader == nil || m.ParentHeader.MsgID != req.MsgID {
				continue
			}
			if t := m.Header.MsgType; t == MsgDisplayData || t == MsgExecuteResult {
				raw, _ := m.Content.(json.RawMessage)
				if dropped || data+len(raw) > MaxOutputData {
					if !dropped {
						run.Outputs = append(run.Outputs, Output{Type: MsgStream, Name: "stderr",
							Text: fmt.Sprintf("[display output past %d bytes dropped]\n", MaxOutputData)})
						dropped = true
					}
					continue
				}
				data += len(raw)
			}
			var o struct {
				Name           string         `json:"name"`
				Text           string         `json:"text"`
				Data           map[string]any `json:"data"`
				EName          string         `json:"ename"`
				EValue         string         `json:"evalue"`
				Traceback      []string       `json:"traceback"`
				ExecutionState string         `json:"execution_state"`
			}
			if err := m.decodeContent(&o); err != nil {
				continue
			}
			switch t := m.Header.MsgType; t {
			case MsgStatus:
				idle = idle || o.ExecutionState == "idle"
			case MsgStream:
				if truncated {
					continue
				}
				if text+len(o.Text) > MaxOutputText {
					o.Text = strings.ToValidUTF8(o.Text[:MaxOutputText-text], "") + fmt.Sprintf("\n[output past %d bytes dropped]\n", MaxOutputText)
					truncated = true
				}
				text += len(o.Text)
				run.Outputs = append(run.Outputs, Output{Type: t, Name: o.Name, Text: o.Text})
			case MsgDisplayData, MsgExecuteResult:
				run.Outputs = append(run.Outputs, Output{Type: t, Data: o.Data})
			case MsgError:
				run.Outputs = append(run.Outputs, Output{Type: t, EName: o.EName, EValue: o.EValue, Traceback: o.Traceback})
			}
		case <-ctx.Done():
			return run, context.Cause(ctx)
		}
	}
	return run, nil
}
