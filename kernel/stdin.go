package kernel

import (
	"context"
	"fmt"

	"github.com/gptnotes/gptnotes/kernel/display"
)

// The stdin channel: a cell asks the user for a line (display.Input) with input_request; the
// front end answers with input_reply. Only when the execute_request said allow_stdin.

type inputRequest struct {
	Prompt   string `json:"prompt"`
	Password bool   `json:"password"`
}

type inputReply struct {
	Value string `json:"value"`
}

// readStdin queues input replies for the cell waiting in Input.
func (k *Kernel) readStdin() {
	for {
		m := k.recv(k.stdin)
		if m == nil {
			return
		}
		if m.Header.MsgType != MsgInputReply {
			k.log.Printf("stdin: unexpected %q, ignored", m.Header.MsgType)
			continue
		}
		select {
		case k.inputReplies <- m:
		default:
			k.log.Printf("stdin: input_reply nobody asked for, dropped")
		}
	}
}

// Input sends input_request to the front end that ran the cell and waits for its reply, or for
// the cell to be interrupted.
func (c *cellSink) Input(prompt string, password bool) (string, error) {
	if !c.allowStdin {
		return "", display.ErrNoInput
	}
	k := c.k
	for len(k.inputReplies) > 0 { // a reply to an earlier, interrupted request
		<-k.inputReplies
	}
	req := &Message{
		Identities:   c.identities,
		Header:       newHeader(MsgInputRequest, k.id),
		ParentHeader: c.parent,
		Content:      inputRequest{Prompt: prompt, Password: password},
	}
	k.send(k.stdin, req)
	for {
		select {
		case m := <-k.inputReplies:
			var r inputReply
			if err := m.decodeContent(&r); err != nil {
				return "", fmt.Errorf("kernel: input_reply: %w", err)
			}
			return r.Value, nil
		case <-c.ctx.Done():
			return "", fmt.Errorf("kernel: input: %w", context.Cause(c.ctx))
		}
	}
}

var _ display.InputReader = (*cellSink)(nil)
