package widget

import (
	"fmt"
	"os"
	"reflect"
	"runtime/debug"
	"sort"
	"strings"
	"sync"

	"github.com/gptnotes/gptnotes/kernel/comm"
	"github.com/gptnotes/gptnotes/kernel/display"
)

// A Widget is anything with a model in the front end: every control, Output, HBox, VBox, Layout.
type Widget interface {
	// ModelID is the id of the widget's comm, which the front end knows its model by.
	ModelID() string
	model() *Model
}

// A Change is one key of a model's state changing, from the front end or from Go.
type Change struct {
	Name     string // the state key, e.g. "value"
	Old, New any
}

// A Model is one widget model: its state (the keys the front end's model has, with values that
// marshal to JSON), the comm that keeps it in step, and the Go code observing it. Controls
// embed a *Model; its methods work on all of them.
type Model struct {
	kind  string // the control's Go name, e.g. "IntSlider"
	proto protocol
	comm  *comm.Comm

	mu        sync.Mutex
	state     map[string]any
	settable  map[string]func(v any) (any, error) // keys the front end may set, each with its conversion
	observers map[string][]func(Change)           // by key; "" observes every key
	customs   []func(content map[string]any)
	closed    bool
	describe  func() string // the text fallback's sentence
	layout    *Layout
}

// open makes a model speaking p with state (besides the protocol's base keys) and opens its
// comm, as ipywidgets does when a widget is constructed.
func open(p protocol, kind, modelName, viewName string, state map[string]any, settable map[string]func(any) (any, error)) *Model {
	m := &Model{kind: kind, proto: p, settable: settable, observers: map[string][]func(Change){}}
	m.state = m.proto.base(modelName, viewName)
	for k, v := range state {
		m.state[k] = v
	}
	if m.settable == nil {
		m.settable = map[string]func(any) (any, error){}
	}
	data, metadata, buffers := m.proto.open(m.snapshot(nil))
	m.comm = comm.Open(TargetWidget, data, metadata, buffers...)
	if bin := binaryKeys(m.state); len(bin) > 0 && len(buffers) == 0 {
		m.send(m.proto.update(m.snapshot(bin))) // an open that cannot carry them: 1.0
	}
	m.comm.OnMsgBuffers(m.handle)
	m.comm.OnClose(func(map[string]any) {
		m.mu.Lock()
		m.closed = true
		m.mu.Unlock()
		unregister(m)
	})
	register(m)
	return m
}

// binaryKeys are the keys of state whose values are bytes.
func binaryKeys(state map[string]any) []string {
	var keys []string
	for _, k := range sortedKeys(state) {
		if _, ok := state[k].([]byte); ok {
			keys = append(keys, k)
		}
	}
	return keys
}

// ModelID is the id of the model's comm.
func (m *Model) ModelID() string { return m.comm.ID }

func (m *Model) model() *Model { return m }

// ref is how another model's state refers to this one.
func (m *Model) ref() string { return "IPY_MODEL_" + m.comm.ID }

// Get returns the value of a state key (nil if the model has no such key).
func (m *Model) Get(key string) any {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state[key]
}

func (m *Model) has(key string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.state[key]
	return ok
}

// Set sets a state key from Go: the front end is updated and observers run.
func (m *Model) Set(key string, v any) {
	m.SetState(map[string]any{key: v})
}

// SetState sets several keys at once, in one update message.
func (m *Model) SetState(state map[string]any) {
	changes := m.apply(state)
	if len(changes) == 0 {
		return
	}
	sent := map[string]any{}
	for _, c := range changes {
		sent[c.Name] = c.New
	}
	m.send(m.proto.update(sent))
	m.notify(changes)
}

// Keys lists the model's state keys, sorted.
func (m *Model) Keys() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	keys := make([]string, 0, len(m.state))
	for k := range m.state {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Observe runs f after key changes, whoever changed it; key "" observes every key.
func (m *Model) Observe(key string, f func(Change)) {
	m.mu.Lock()
	m.observers[key] = append(m.observers[key], f)
	m.mu.Unlock()
}

// OnCustom runs f for each custom message from the front end (a button's click arrives so).
func (m *Model) OnCustom(f func(content map[string]any)) {
	m.mu.Lock()
	m.customs = append(m.customs, f)
	m.mu.Unlock()
}

// Send sends a custom message to the front end's model.
func (m *Model) Send(content map[string]any) {
	m.send(map[string]any{"method": methodCustom, "content": content}, nil)
}

// Close closes the model's comm: the front end removes its views.
func (m *Model) Close() {
	m.mu.Lock()
	m.closed = true
	m.mu.Unlock()
	m.comm.Close(nil)
	unregister(m)
}

// String is the text fallback: a sentence saying what the widget is and its current value.
func (m *Model) String() string {
	if m.describe != nil {
		return m.describe()
	}
	return fmt.Sprintf("%s widget", m.kind)
}

// MIMEBundle shows the widget: its view, for front ends with widgets, and the sentence of String
// for those without (nbconvert, a console). Like ipywidgets, it tells the model it is displayed.
//
// The classic notebook's widgets (protocol 1.0) show the view on that display message and do
// not know the view's MIME type, so they would show the sentence too, under the widget: once
// such a front end has opened the version handshake, the sentence is left empty.
func (m *Model) MIMEBundle() display.Bundle {
	if d := m.proto.display(); d != nil {
		m.send(d, nil)
	}
	data := m.proto.view(m.comm.ID)
	data[display.MIMEPlain] = m.String()
	if m.proto.display() != nil && frontendValidated.Load() {
		data[display.MIMEPlain] = ""
	}
	return display.Bundle{Data: data, Metadata: map[string]any{}}
}

// snapshot copies the state, or only keys when not nil.
func (m *Model) snapshot(keys []string) map[string]any {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := map[string]any{}
	if keys == nil {
		for k, v := range m.state {
			out[k] = v
		}
		return out
	}
	for _, k := range keys {
		out[k] = m.state[k]
	}
	return out
}

func (m *Model) send(data map[string]any, buffers [][]byte) {
	m.mu.Lock()
	closed := m.closed
	m.mu.Unlock()
	if !closed && data != nil {
		m.comm.Send(data, buffers...)
	}
}

// apply sets state keys and returns those whose value changed.
func (m *Model) apply(state map[string]any) []Change {
	m.mu.Lock()
	defer m.mu.Unlock()
	keys := make([]string, 0, len(state))
	for k := range state {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var changes []Change
	for _, k := range keys {
		old, v := m.state[k], state[k]
		if reflect.DeepEqual(old, v) {
			continue
		}
		m.state[k] = v
		changes = append(changes, Change{Name: k, Old: old, New: v})
	}
	return changes
}

// notify runs the observers of each change, each protected by run.
func (m *Model) notify(changes []Change) {
	for _, c := range changes {
		m.mu.Lock()
		fs := append(append([]func(Change){}, m.observers[c.Name]...), m.observers[""]...)
		m.mu.Unlock()
		for _, f := range fs {
			run(m, func() { f(c) })
		}
	}
}

// run calls a callback; a panic is printed, with its stack, to the callback's stderr (an
// Output capturing it shows it) and the widget works on.
func run(m *Model, f func()) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(os.Stderr, "panic in a callback of %s: %v\n\n%s", m.kind, p, cleanStack(debug.Stack()))
		}
	}()
	f()
}

// cleanStack keeps the frames of the callback's own code, dropping the runtime's and this
// package's.
func cleanStack(stack []byte) string {
	var b strings.Builder
	lines := strings.Split(string(stack), "\n")
	for i := 1; i+1 < len(lines); i += 2 {
		fn, at := lines[i], lines[i+1]
		if strings.HasPrefix(fn, "runtime") || strings.HasPrefix(fn, "panic(") || strings.Contains(fn, "kernel/widget.") ||
			strings.HasPrefix(fn, "reflect.") || strings.Contains(fn, "yaegi/interp.") {
			continue
		}
		b.WriteString(fn + "\n" + at + "\n")
	}
	return b.String()
}

// handle serves a message from the front end, which also says which protocol it speaks.
func (m *Model) handle(data map[string]any, buffers [][]byte) {
	switch data["method"] {
	case methodBackbone:
		heardFrom(v1{})
	case methodUpdate:
		heardFrom(v2{})
	}
	msg, err := m.proto.decode(data, buffers)
	if err != nil {
		comm.Logf("widget: %s %s (protocol %s): %v", m.kind, m.comm.ID, m.proto.name(), err)
		return
	}
	switch msg.method {
	case methodRequestState:
		m.send(m.proto.update(m.snapshot(nil)))
	case methodCustom:
		m.mu.Lock()
		fs := append([]func(map[string]any){}, m.customs...)
		m.mu.Unlock()
		for _, f := range fs {
			run(m, func() { f(msg.content) })
		}
	case methodState:
		m.fromFrontend(msg.state)
	}
}

// fromFrontend applies a state change the user made. Keys the front end may not set, and values
// of the wrong type, are refused: logged, and the model's value sent back so the view shows it
// again. The keys accepted are echoed (2.1's echo_update) so other front ends show them too;
// a value the model adjusts (clamped into a slider's range) is sent back as an update. When a
// newer change of the same keys is already waiting, observers wait for it: dragging a slider
// computes only the newest value.
func (m *Model) fromFrontend(state map[string]any) {
	ok := map[string]any{}
	var resend []string
	for k, v := range state {
		conv := m.settable[k]
		if conv == nil {
			comm.Logf("widget: %s %s: the front end may not set %q", m.kind, m.comm.ID, k)
			if m.has(k) {
				resend = append(resend, k)
			}
			continue
		}
		x, err := conv(v)
		if err != nil {
			comm.Logf("widget: %s %s: %s: %v", m.kind, m.comm.ID, k, err)
			resend = append(resend, k)
			continue
		}
		if !reflect.DeepEqual(jsonish(x), v) {
			resend = append(resend, k)
		}
		ok[k] = x
	}
	if len(ok) > 0 {
		echo := map[string]any{}
		for k := range ok {
			echo[k] = state[k]
		}
		m.send(m.proto.echo(echo))
	}
	changes := m.apply(ok)
	if len(resend) > 0 {
		sort.Strings(resend)
		m.send(m.proto.update(m.snapshot(resend)))
	}
	if m.supersededBy(state) {
		return
	}
	m.notify(changes)
}

// supersededBy reports whether a change of at least the keys of state has arrived at the kernel
// behind this one.
func (m *Model) supersededBy(state map[string]any) bool {
	for _, later := range m.comm.Later() {
		msg, err := m.proto.decode(later, nil)
		if err != nil || msg.method != methodState {
			continue
		}
		all := true
		for k := range state {
			if _, ok := msg.state[k]; !ok {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

// jsonish is v as it reads back from JSON, for comparing with what the front end sent.
func jsonish(v any) any {
	switch x := v.(type) {
	case int:
		return float64(x)
	case []string:
		out := make([]any, len(x))
		for i, s := range x {
			out[i] = s
		}
		return out
	}
	return v
}

// The models alive, by id: the front end's request_state after a page reload finds them
// through their comms, 2.1's request_states through this map; it keeps them from being
// collected while their views exist.
var (
	liveMu sync.Mutex
	live   = map[string]*Model{}
)

func register(m *Model) {
	liveMu.Lock()
	live[m.comm.ID] = m
	liveMu.Unlock()
}

func unregister(m *Model) {
	liveMu.Lock()
	delete(live, m.comm.ID)
	liveMu.Unlock()
}
