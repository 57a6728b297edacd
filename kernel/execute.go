package kernel

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/gptnotes/gptnotes/kernel/display"
)

type executeRequest struct {
	Code            string            `json:"code"`
	Silent          bool              `json:"silent"`
	StoreHistory    *bool             `json:"store_history"` // default true
	UserExpressions map[string]string `json:"user_expressions"`
	AllowStdin      bool              `json:"allow_stdin"`
	StopOnError     *bool             `json:"stop_on_error"` // default true
}

type executeReply struct {
	Status          string         `json:"status"` // ok, error, aborted
	ExecutionCount  int            `json:"execution_count"`
	UserExpressions map[string]any `json:"user_expressions"`
	Payload         []any          `json:"payload"`
	// On error:
	Ename     string   `json:"ename,omitempty"`
	Evalue    string   `json:"evalue,omitempty"`
	Traceback []string `json:"traceback,omitempty"`
}

type executeInput struct {
	Code           string `json:"code"`
	ExecutionCount int    `json:"execution_count"`
}

type executeResult struct {
	ExecutionCount int            `json:"execution_count"`
	Data           map[string]any `json:"data"`
	Metadata       map[string]any `json:"metadata"`
}

// execute runs one cell: execute_input, the cell's outputs as they happen, execute_result for
// a trailing expression, or exactly one error; then the reply.
func (k *Kernel) execute(s *socket, req *Message) {
	var r executeRequest
	if err := req.decodeContent(&r); err != nil {
		k.badRequest(s, req, err)
		return
	}
	store := (r.StoreHistory == nil || *r.StoreHistory) && !r.Silent
	stopOnError := r.StopOnError == nil || *r.StopOnError
	parent := &req.Header

	k.mu.Lock()
	if store {
		k.execCount++
	}
	count := k.execCount
	ctx, cancel := context.WithCancelCause(context.Background())
	k.cancel = func() { cancel(nil) }
	k.mu.Unlock()
	memStopped := k.mem.begin(parent, cancel)     // the memory limit's guard (memlimit.go) stops the cell past it
	stackStop := watchStack(k.stackLimit, cancel) // and a runaway recursion (stackguard.go)
	defer func() {
		cancel(nil)
		k.mu.Lock()
		k.cancel = nil
		k.mu.Unlock()
	}()

	if !r.Silent {
		k.publish(parent, MsgExecuteInput, executeInput{Code: r.Code, ExecutionCount: count})
	}
	reply := executeReply{Status: "ok", ExecutionCount: count, UserExpressions: map[string]any{}, Payload: []any{}}

	var result *display.Bundle
	var err error
	if topic, ok := helpTopic(r.Code); ok {
		reply.Payload = append(reply.Payload, k.page(topic))
	} else {
		sink := &cellSink{k: k, parent: parent, silent: r.Silent, ctx: ctx,
			allowStdin: r.AllowStdin, identities: req.Identities}
		result, err = k.run(ctx, r.Code, sink)
	}
	stackStop()
	if m := memStopped(); m != nil {
		result, err = nil, m.cellError()
	}
	var deep *StackOverflowError
	if err != nil && errors.As(context.Cause(ctx), &deep) {
		result, err = nil, deep.cellError()
	}

	var out string
	switch {
	case err != nil:
		e := cellError(err, ctx)
		k.publish(parent, MsgError, errorContent{Ename: e.Name, Evalue: e.Value, Traceback: e.Traceback})
		reply.Status, reply.Ename, reply.Evalue, reply.Traceback = "error", e.Name, e.Value, e.Traceback
	case result != nil && !r.Silent:
		data, metadata := wireBundle(*result)
		k.publish(parent, MsgExecuteResult, executeResult{ExecutionCount: count, Data: data, Metadata: metadata})
		out, _ = data[display.MIMEPlain].(string)
	}
	if err == nil && len(r.UserExpressions) > 0 {
		reply.UserExpressions = k.userExpressions(ctx, r.UserExpressions)
	}
	if store {
		k.remember(count, r.Code, out)
	}
	k.reply(s, req, MsgExecuteReply, reply)
	if err != nil && stopOnError {
		k.abortQueued()
	}
}

// run calls the session, turning a panic that escapes it into a cell error.
func (k *Kernel) run(ctx context.Context, code string, sink *cellSink) (result *display.Bundle, err error) {
	defer func() {
		if r := recover(); r != nil {
			k.log.Printf("execute: session panicked: %v", r)
			err = &CellError{Name: "panic", Value: fmt.Sprint(r), Traceback: []string{fmt.Sprintf("panic: %v", r)}}
		}
	}()
	return k.engine.Execute(ctx, code, sink)
}

// userExpressions evaluates the front end's user_expressions after a successful cell, each to
// {status, data, metadata} or {status: error, ename, evalue, traceback}. They print nowhere.
func (k *Kernel) userExpressions(ctx context.Context, exprs map[string]string) map[string]any {
	out := make(map[string]any, len(exprs))
	for name, expr := range exprs {
		result, err := k.run(ctx, expr, &cellSink{k: k, silent: true, ctx: ctx})
		switch {
		case err != nil:
			e := cellError(err, ctx)
			out[name] = errorContent{Status: "error", Ename: e.Name, Evalue: e.Value, Traceback: e.Traceback}
		case result == nil:
			out[name] = map[string]any{"status": "error", "ename": "NoValue", "evalue": expr + " has no value", "traceback": []string{}}
		default:
			data, metadata := wireBundle(*result)
			out[name] = map[string]any{"status": "ok", "data": data, "metadata": metadata}
		}
	}
	return out
}

// cellError turns any error from Execute into the name, value and traceback a client shows.
func cellError(err error, ctx context.Context) *CellError {
	var ce *CellError
	if errors.As(err, &ce) {
		if ce.Traceback == nil {
			ce.Traceback = []string{ce.Name + ": " + ce.Value}
		}
		return ce
	}
	name := "Error"
	if ctx.Err() != nil {
		name = "Interrupted"
	}
	return &CellError{Name: name, Value: err.Error(), Traceback: []string{name + ": " + err.Error()}}
}

// abortGrace is how long abortQueued waits for requests the front end sent before it saw the
// error but that are still on the way: a cell failing at compile time replies within a
// millisecond, faster than a "run all" finishes sending.
const abortGrace = 10 * time.Millisecond

// abortQueued answers the executes already queued behind a failing cell with status aborted,
// as a notebook's "run all" expects; other requests in the queue are served normally.
func (k *Kernel) abortQueued() {
	for {
		select {
		case m := <-k.shellQueue:
			if m.Header.MsgType != MsgExecuteRequest {
				k.dispatch(k.shell, m, shellHandlers)
				continue
			}
			k.publish(&m.Header, MsgStatus, statusContent{"busy"})
			k.reply(k.shell, m, MsgExecuteReply, executeReply{
				Status: "aborted", ExecutionCount: k.count(), UserExpressions: map[string]any{}, Payload: []any{},
			})
			k.publish(&m.Header, MsgStatus, statusContent{"idle"})
		case <-time.After(abortGrace):
			return
		}
	}
}

func (k *Kernel) count() int {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.execCount
}

// helpTopic recognizes IPython's help syntax, `?fmt.Println` or `fmt.Println?`, on one line.
func helpTopic(code string) (string, bool) {
	c := strings.TrimSpace(code)
	if c == "" || strings.ContainsAny(c, "\n;") {
		return "", false
	}
	switch {
	case strings.HasPrefix(c, "?"):
		c = strings.TrimLeft(c, "?")
	case strings.HasSuffix(c, "?"):
		c = strings.TrimRight(c, "?")
	default:
		return "", false
	}
	c = strings.TrimSpace(c)
	return c, c != ""
}

// page builds the pager payload for a help topic from the session's inspection.
func (k *Kernel) page(topic string) map[string]any {
	data, found := k.engine.Inspect(topic, len([]rune(topic)), 1)
	if !found || data == nil {
		data = map[string]any{display.MIMEPlain: fmt.Sprintf("no documentation found for %s", topic)}
	}
	if _, ok := data[display.MIMEPlain]; !ok {
		data[display.MIMEPlain] = topic
	}
	return map[string]any{"source": "page", "data": data, "start": 0}
}

// A cellSink sends one cell's outputs to iopub, parented to its execute_request.
type cellSink struct {
	k      *Kernel
	parent *Header
	silent bool

	ctx        context.Context // the cell's: cancelled on interrupt
	allowStdin bool            // the front end accepts input_request
	identities [][]byte        // the front end's routing ids, for input_request
}

type streamContent struct {
	Name string `json:"name"` // stdout or stderr
	Text string `json:"text"`
}

type displayData struct {
	Data      map[string]any `json:"data"`
	Metadata  map[string]any `json:"metadata"`
	Transient map[string]any `json:"transient"`
}

type clearOutput struct {
	Wait bool `json:"wait"`
}

func (c *cellSink) Stream(name, text string) {
	if c.silent || text == "" {
		return
	}
	c.k.publish(c.parent, MsgStream, streamContent{Name: name, Text: text})
}

func (c *cellSink) Display(b display.Bundle, displayID string, update bool) {
	if c.silent {
		return
	}
	data, metadata := wireBundle(b)
	transient := map[string]any{}
	if displayID != "" {
		transient["display_id"] = displayID
	}
	t := MsgDisplayData
	if update && displayID != "" {
		t = MsgUpdateDisplayData
	}
	c.k.publish(c.parent, t, displayData{Data: data, Metadata: metadata, Transient: transient})
}

func (c *cellSink) ClearOutput(wait bool) {
	if !c.silent {
		c.k.publish(c.parent, MsgClearOutput, clearOutput{Wait: wait})
	}
}

var _ Sink = (*cellSink)(nil)

// wireBundle makes a bundle JSON-ready: binary data base64-encoded, and any value that does
// not marshal replaced by a note in text/plain rather than losing the whole output.
func wireBundle(b display.Bundle) (data, metadata map[string]any) {
	data = make(map[string]any, len(b.Data))
	var bad []string
	for mime, v := range b.Data {
		switch x := v.(type) {
		case []byte:
			data[mime] = base64.StdEncoding.EncodeToString(x)
			continue
		case string:
			data[mime] = x
			continue
		}
		if _, err := json.Marshal(v); err != nil {
			bad = append(bad, fmt.Sprintf("%s: %v", mime, err))
			continue
		}
		data[mime] = v
	}
	if len(bad) > 0 {
		plain, _ := data[display.MIMEPlain].(string)
		data[display.MIMEPlain] = strings.TrimSpace(plain + "\n(display: left out " + strings.Join(bad, "; ") + ")")
	}
	if _, ok := data[display.MIMEPlain]; !ok {
		data[display.MIMEPlain] = ""
	}
	metadata = map[string]any{}
	for mime, v := range b.Metadata {
		if _, err := json.Marshal(v); err == nil {
			metadata[mime] = v
		}
	}
	return data, metadata
}
