package widget

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/gptnotes/gptnotes/kernel/comm"
	"github.com/gptnotes/gptnotes/kernel/display"
)

// wire records what the widgets send, as the kernel would put it on iopub.
type wire struct {
	mu       sync.Mutex
	msgs     []wireMsg
	parent   string
	logs     []string
	metadata map[string]map[string]any // comm_open's metadata by comm id
	buffers  map[int][][]byte          // a message's buffers by its index in msgs
	// lastBuffers are the buffers of the messages the last take returned.
	lastBuffers map[int][][]byte
}

type wireMsg struct {
	Type    string         // comm_open, comm_msg, comm_close, display_data, clear_output
	ID      string         // comm id
	Content map[string]any // data, or the display bundle's data
}

func (w *wire) add(t, id string, data map[string]any) {
	w.mu.Lock()
	w.msgs = append(w.msgs, wireMsg{t, id, roundTrip(data)})
	w.mu.Unlock()
}
func (w *wire) Open(id, target string, data, metadata map[string]any, buffers [][]byte) {
	w.mu.Lock()
	w.metadata[id] = metadata
	w.mu.Unlock()
	w.addBuffers(buffers)
	w.add("comm_open", id, data)
}
func (w *wire) Msg(id string, data map[string]any, buffers [][]byte) {
	w.addBuffers(buffers)
	w.add("comm_msg", id, data)
}
func (w *wire) Close(id string, data map[string]any) { w.add("comm_close", id, data) }
func (w *wire) ParentMsgID() string                  { return w.parent }

// addBuffers keeps the buffers of the message about to be added.
func (w *wire) addBuffers(buffers [][]byte) {
	w.mu.Lock()
	if len(buffers) > 0 {
		w.buffers[len(w.msgs)] = buffers
	}
	w.mu.Unlock()
}
func (w *wire) Logf(format string, args ...any) {
	w.mu.Lock()
	w.logs = append(w.logs, fmt.Sprintf(format, args...))
	w.mu.Unlock()
}
func (w *wire) Display(b display.Bundle, id string, update bool) {
	w.add("display_data", "", b.Data)
}
func (w *wire) ClearOutput(wait bool) { w.add("clear_output", "", nil) }

func (w *wire) take() []wireMsg {
	w.mu.Lock()
	defer w.mu.Unlock()
	m := w.msgs
	w.msgs = nil
	w.lastBuffers, w.buffers = w.buffers, map[int][][]byte{}
	return m
}

func roundTrip(v map[string]any) map[string]any {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	var out map[string]any
	json.Unmarshal(b, &out)
	return out
}

// newWire installs a wire, with protocol p forced (nil: none, the front ends' messages decide)
// and nothing heard from a front end yet.
func newWire(t *testing.T, p protocol) *wire {
	w := &wire{parent: "request-1", metadata: map[string]map[string]any{}, buffers: map[int][][]byte{}}
	comm.SetTransport(w)
	display.SetPublisher(w)
	protoMu.Lock()
	was := forced
	forced, heard = p, nil
	protoMu.Unlock()
	t.Cleanup(func() {
		comm.SetTransport(nil)
		display.SetPublisher(nil)
		protoMu.Lock()
		forced, heard = was, nil
		protoMu.Unlock()
	})
	return w
}

// A recording, as testdata/record.py writes it.
type recording struct {
	Control string
	Steps   []struct {
		From    string // kernel, frontend, cell
		MsgType string `json:"msg_type"`
		Code    string
		Content map[string]any
	}
	Widget string // the name of the control's model
}

// script does in Go what a recording's Python does: make the widget, and each cell step.
type script struct {
	make  func() Widget
	cells map[string]func(w Widget)
}

var scripts = map[string]script{
	"IntSlider": {func() Widget { return NewIntSlider("n", 0, 10, 3) },
		map[string]func(Widget){"w.value = 4": func(w Widget) { w.(*IntSlider).SetValue(4) }}},
	"FloatSlider": {func() Widget { return NewFloatSlider("t", 0, 2, 0.1, 0.5) },
		map[string]func(Widget){"w.value = 0.25": func(w Widget) { w.(*FloatSlider).SetValue(0.25) }}},
	"Dropdown": {func() Widget { return NewDropdown("pick", []string{"a", "b", "c"}, "b") },
		map[string]func(Widget){"w.value = 'a'": func(w Widget) { w.(*Selection).SetValue("a") }}},
	"ToggleButtons": {func() Widget { return NewToggleButtons("mode", []string{"x", "y"}, "x") }, nil},
	"RadioButtons":  {func() Widget { return NewRadioButtons("r", []string{"p", "q"}, "q") }, nil},
	"Checkbox": {func() Widget { return NewCheckbox("cached", false) },
		map[string]func(Widget){"w.value = False": func(w Widget) { w.(*Checkbox).SetValue(false) }}},
	"Button": {func() Widget {
		b := NewButton("Step")
		clicks := 0
		b.OnClick(func() { clicks++; b.SetDescription(fmt.Sprintf("Step %d", clicks)) })
		return b
	}, map[string]func(Widget){"w.description = 'Step %d' % len(clicks)": func(Widget) {}}},
	"Text": {func() Widget {
		t := NewText("prompt", "type", "hi")
		t.OnSubmit(func(s string) { t.SetValue("['" + s + "']") })
		return t
	}, map[string]func(Widget){"w.value = str(subs)": func(Widget) {}}},
	"Textarea": {func() Widget { return NewTextarea("text", "a\nb", 3) }, nil},
	"Play":     {func() Widget { return NewPlay("play", 0, 5, 1, 100) }, nil},
	"Label": {func() Widget { return NewLabel("p = 0.5") },
		map[string]func(Widget){"w.value = 'p = 0.7'": func(w Widget) { w.(*Label).SetValue("p = 0.7") }}},
	"HTML": {func() Widget { return NewHTML("<b>hi</b>") },
		map[string]func(Widget){"w.value = '<i>bye</i>'": func(w Widget) { w.(*Label).SetValue("<i>bye</i>") }}},
	"Output": {func() Widget { return NewOutput() }, map[string]func(Widget){
		"with w:\n    print('inside')\n    display(HTML('<b>x</b>'))": func(w Widget) {
			w.(*Output).Capture(func() { display.HTML("<b>x</b>") })
		},
		"w.clear_output()": func(w Widget) { w.(*Output).Clear(false) },
	}},
	"HBox": {func() Widget {
		a, b := NewIntSlider("a", 0, 100, 0), NewLabel("v")
		return NewLayout("50%", "1px solid gray").HBox(a, b)
	}, nil},
	"VBox": {func() Widget { return NewVBox(NewCheckbox("a", false)) }, nil},
}

// TestRecordings replays each recording of ipywidgets 6: the Go widget must open the same
// models with the same state, and answer the front end's messages and the cell's changes with
// the same messages. (Stream output, which the Go code does not print, is not compared.)
func TestRecordings(t *testing.T) {
	files, _ := filepath.Glob("testdata/ipywidgets6/*.json")
	if len(files) < 15 {
		t.Fatalf("found %d recordings, want 15", len(files))
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		if name == "handshake" {
			continue
		}
		t.Run(name, func(t *testing.T) {
			w := newWire(t, v1{})
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var rec recording
			if err := json.Unmarshal(raw, &rec); err != nil {
				t.Fatal(err)
			}
			sc, ok := scripts[name]
			if !ok {
				t.Fatalf("no Go script for %s", name)
			}
			names := map[string]string{} // comm id → recording's name, in order of opening
			ids := map[string]string{}
			var got []wireMsg
			collect := func() {
				for _, m := range w.take() {
					if m.Type == "comm_open" {
						n := fmt.Sprintf("m%d", len(names))
						names[m.ID], ids[n] = n, m.ID
					}
					got = append(got, m)
				}
			}
			wid := sc.make()
			collect()
			b := display.Render(wid)
			collect()
			got = append(got, wireMsg{"display_data", "", roundTrip(b.Data)})
			var want []wireMsg
			for _, s := range rec.Steps {
				switch {
				case s.From == "kernel" && s.MsgType == "stream":
				case s.From == "kernel" && (s.MsgType == "comm_open" || s.MsgType == "comm_msg" || s.MsgType == "comm_close"):
					want = append(want, wireMsg{s.MsgType, s.Content["comm_id"].(string), s.Content["data"].(map[string]any)})
				case s.From == "kernel":
					data, _ := s.Content["data"].(map[string]any)
					want = append(want, wireMsg{s.MsgType, "", data})
				case s.From == "cell":
					f, ok := sc.cells[s.Code]
					if !ok {
						t.Fatalf("no Go for the cell %q", s.Code)
					}
					f(wid)
					collect()
				case s.From == "frontend":
					id := ids[s.Content["comm_id"].(string)]
					data := roundTrip(unscrub(s.Content["data"].(map[string]any), ids))
					comm.Arrived(id, data)
					var err error
					if s.MsgType == "comm_close" {
						err = comm.HandleClose(id, data)
					} else {
						err = comm.HandleMsg(id, data)
					}
					if err != nil {
						t.Fatal(err)
					}
					collect()
				}
			}
			for i := range got {
				got[i] = scrub(got[i], names, w.parent)
				if got[i].Type == "comm_open" { // our one addition, for nbclient (protocol.go)
					if !reflect.DeepEqual(got[i].Content[compatStateKey], withoutKey(got[i].Content, compatStateKey)) {
						t.Errorf("comm_open %s: the copy of the state for nbclient differs", got[i].ID)
					}
					delete(got[i].Content, compatStateKey)
				}
			}
			if len(got) != len(want) {
				t.Errorf("%d messages, want %d", len(got), len(want))
			}
			for i := 0; i < len(got) || i < len(want); i++ {
				var g, x wireMsg
				if i < len(got) {
					g = got[i]
				}
				if i < len(want) {
					x = want[i]
				}
				if g.Type == "display_data" && x.Type == "display_data" {
					// The text fallbacks are each language's own (ipywidgets 6 sends none for a widget).
					delete(g.Content, display.MIMEPlain)
					delete(x.Content, display.MIMEPlain)
				}
				if !reflect.DeepEqual(g, x) {
					gj, _ := json.Marshal(g)
					xj, _ := json.Marshal(x)
					t.Errorf("message %d:\n got %s\nwant %s", i, gj, xj)
				}
			}
		})
	}
}

func withoutKey(m map[string]any, key string) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if k != key {
			out[k] = v
		}
	}
	return out
}

// scrub names comm ids and the request id as the recordings do.
func scrub(m wireMsg, names map[string]string, parent string) wireMsg {
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			out := map[string]any{}
			for k, v := range x {
				if k == "msg_id" && v == parent {
					out[k] = "<request msg_id>"
					continue
				}
				out[k] = walk(v)
			}
			return out
		case []any:
			out := make([]any, len(x))
			for i, v := range x {
				out[i] = walk(v)
			}
			return out
		case string:
			for id, n := range names {
				x = strings.ReplaceAll(x, id, n)
			}
			return x
		}
		return v
	}
	if n, ok := names[m.ID]; ok {
		m.ID = n
	}
	if m.Content != nil {
		m.Content = walk(m.Content).(map[string]any)
	}
	return m
}

func unscrub(data map[string]any, ids map[string]string) map[string]any {
	b, _ := json.Marshal(data)
	s := string(b)
	for n, id := range ids {
		s = strings.ReplaceAll(s, `"IPY_MODEL_`+n+`"`, `"IPY_MODEL_`+id+`"`)
	}
	var out map[string]any
	json.Unmarshal([]byte(s), &out)
	return out
}

func TestHandshake(t *testing.T) {
	w := newWire(t, v1{})
	if err := comm.HandleOpen("v1", TargetVersion, map[string]any{}); err != nil {
		t.Fatal(err)
	}
	got := w.take()
	want := []wireMsg{{"comm_msg", "v1", map[string]any{"version": "~2.1.4"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("handshake: got %v, want %v", got, want)
	}
	comm.HandleMsg("v1", map[string]any{"validated": false, "frontend_version": "1.0"})
	if len(w.logs) != 1 {
		t.Errorf("an invalid front end is not logged: %q", w.logs)
	}
}

func backbone(id string, state map[string]any) map[string]any {
	return map[string]any{"method": "backbone", "sync_data": state, "buffer_keys": []any{}}
}

func TestFrontendChanges(t *testing.T) {
	w := newWire(t, v1{})
	s := NewIntSlider("n", 0, 10, 3)
	var seen []int
	s.OnChange(func(v int) { seen = append(seen, v) })
	w.take()
	send := func(data map[string]any) {
		comm.Arrived(s.ModelID(), data)
		if err := comm.HandleMsg(s.ModelID(), data); err != nil {
			t.Fatal(err)
		}
	}
	send(backbone(s.ModelID(), map[string]any{"value": 7.0}))
	if s.Value() != 7 || !reflect.DeepEqual(seen, []int{7}) {
		t.Errorf("after the front end sets 7: value %d, callbacks saw %v", s.Value(), seen)
	}
	if m := w.take(); len(m) != 0 {
		t.Errorf("an accepted change is echoed: %v", m)
	}
	// Out of range: clamped, and the clamped value sent back.
	send(backbone(s.ModelID(), map[string]any{"value": 99.0}))
	if s.Value() != 10 {
		t.Errorf("99 on a 0…10 slider: value %d, want 10", s.Value())
	}
	if m := w.take(); len(m) != 1 || m[0].Content["state"].(map[string]any)["value"] != 10.0 {
		t.Errorf("clamping sends back %v", m)
	}
	// Wrong type, unknown key, malformed: refused, logged, the value sent back; nothing runs.
	seen = nil
	send(backbone(s.ModelID(), map[string]any{"value": "seven"}))
	send(backbone(s.ModelID(), map[string]any{"no_such_key": 1.0}))
	send(map[string]any{"method": "backbone", "sync_data": "not an object"})
	send(map[string]any{"method": "nonsense"})
	send(map[string]any{})
	if s.Value() != 10 || seen != nil {
		t.Errorf("bad messages changed the value to %d or ran callbacks %v", s.Value(), seen)
	}
	if len(w.logs) != 5 {
		t.Errorf("%d bad messages logged, want 5: %q", len(w.logs), w.logs)
	}
	if m := w.take(); len(m) != 1 {
		t.Errorf("a value of the wrong type is answered by %d messages, want 1 (the value): %v", len(m), m)
	}
}

// TestCoalesce: changes of one control queued behind the one being served run the callbacks
// only for the newest.
func TestCoalesce(t *testing.T) {
	newWire(t, v1{})
	s := NewFloatSlider("t", 0, 2, 0.1, 1)
	var seen []float64
	s.OnChange(func(v float64) { seen = append(seen, v) })
	var msgs []map[string]any
	for i := 1; i <= 5; i++ {
		m := backbone(s.ModelID(), map[string]any{"value": float64(i) / 10})
		msgs = append(msgs, m)
		comm.Arrived(s.ModelID(), m)
	}
	for _, m := range msgs {
		comm.HandleMsg(s.ModelID(), m)
	}
	if !reflect.DeepEqual(seen, []float64{0.5}) {
		t.Errorf("five queued changes ran callbacks with %v, want [0.5]", seen)
	}
}

func TestPanickingCallback(t *testing.T) {
	w := newWire(t, v1{})
	b := NewButton("boom")
	out := NewOutput()
	n := 0
	b.OnClick(func() {
		n++
		out.Capture(func() {
			var m map[string]int
			m["x"] = 1 // panics
		})
	})
	w.take()
	b.Click()
	b.Click()
	if n != 2 {
		t.Errorf("the button ran %d times after a panic, want 2", n)
	}
	// msg_id set, then reset, twice: the panic was printed while the Output captured.
	var ids []any
	for _, m := range w.take() {
		if m.Type == "comm_msg" {
			ids = append(ids, m.Content["state"].(map[string]any)["msg_id"])
		}
	}
	if !reflect.DeepEqual(ids, []any{"request-1", "", "request-1", ""}) {
		t.Errorf("the Output's msg_id went %v", ids)
	}
}

func TestLoopButtons(t *testing.T) {
	newWire(t, v1{})
	var got []int
	var buttons []*Button
	for i := 0; i < 3; i++ {
		b := NewButton(fmt.Sprint(i))
		b.OnClick(func() { got = append(got, i) })
		buttons = append(buttons, b)
	}
	for _, b := range []*Button{buttons[2], buttons[0], buttons[1]} {
		b.Click()
	}
	if !reflect.DeepEqual(got, []int{2, 0, 1}) {
		t.Errorf("buttons made in a loop did %v, want [2 0 1]", got)
	}
}

func TestInteract(t *testing.T) {
	w := newWire(t, v1{})
	k := NewIntSlider("k", 1, 10, 2)
	d := NewDropdown("op", []string{"double", "square"}, "double")
	var got []string
	box := Interact(func(v []any) {
		n := v[0].(int)
		if v[1] == "square" {
			n *= n
		} else {
			n *= 2
		}
		got = append(got, fmt.Sprint(n))
	}, k, d)
	comm.HandleMsg(k.ModelID(), backbone(k.ModelID(), map[string]any{"value": 5.0}))
	comm.HandleMsg(d.ModelID(), backbone(d.ModelID(), map[string]any{"value": "square"}))
	if !reflect.DeepEqual(got, []string{"4", "10", "25"}) {
		t.Errorf("interact computed %v, want [4 10 25]", got)
	}
	if n := len(box.Children()); n != 3 {
		t.Errorf("the box holds %d widgets, want 3", n)
	}
	clears := 0
	for _, m := range w.take() {
		if m.Type == "clear_output" {
			clears++
		}
	}
	if clears != 3 {
		t.Errorf("interact cleared its output %d times, want 3", clears)
	}
}

func TestTextFallback(t *testing.T) {
	newWire(t, v1{})
	for _, c := range []struct {
		w    Widget
		want string
	}{
		{NewIntSlider("n", 0, 10, 3), `IntSlider "n" = 3 (a widget; its view shows in a notebook with widgets)`},
		{NewDropdown("", []string{"a"}, "a"), `Dropdown = "a" (a widget; its view shows in a notebook with widgets)`},
		{NewVBox(NewCheckbox("c", true), NewLabel("x")), `VBox of 2 widgets: Checkbox "c" = true; Label: x`},
	} {
		if got := display.Render(c.w).Data[display.MIMEPlain]; got != c.want {
			t.Errorf("text/plain %q, want %q", got, c.want)
		}
	}
}

// TestConcurrentSet: Go code setting values from a goroutine while front-end messages are
// served; run under -race.
func TestConcurrentSet(t *testing.T) {
	newWire(t, v1{})
	s := NewIntSlider("n", 0, 1000, 0)
	s.OnChange(func(int) {})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 200; i++ {
			s.SetValue(i)
		}
	}()
	for i := 0; i < 200; i++ {
		m := backbone(s.ModelID(), map[string]any{"value": float64(i)})
		comm.Arrived(s.ModelID(), m)
		comm.HandleMsg(s.ModelID(), m)
		_ = s.Value()
	}
	wg.Wait()
}

// TestValidatedFrontend: once the classic notebook's widgets pass the handshake, the text
// fallback is left empty (they show the view and would show the sentence under it).
func TestValidatedFrontend(t *testing.T) {
	newWire(t, v1{})
	defer frontendValidated.Store(false)
	comm.HandleOpen("v2", TargetVersion, map[string]any{})
	comm.HandleMsg("v2", map[string]any{"validated": true, "frontend_version": "2.1.4"})
	if got := display.Render(NewIntSlider("n", 0, 1, 0)).Data[display.MIMEPlain]; got != "" {
		t.Errorf("text/plain %q after a validated handshake, want empty", got)
	}
}
