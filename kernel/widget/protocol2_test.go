package widget

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gptnotes/gptnotes/kernel/comm"
	"github.com/gptnotes/gptnotes/kernel/display"
)

// schemaDir holds ipywidgets' own schema, npm @jupyter-widgets/schema 0.5.6 (BSD-3-Clause, its
// LICENSE beside it): every 8.x model's attributes and defaults, and the saved state's schema.
const schemaDir = "testdata/jupyter-widgets-schema-0.5.6/"

// schemaModels reads jupyterwidgetmodels.latest.json: model name → attribute → default.
func schemaModels(t *testing.T) map[string]map[string]any {
	raw, err := os.ReadFile(schemaDir + "jupyterwidgetmodels.latest.json")
	if err != nil {
		t.Fatal(err)
	}
	var spec []struct {
		Model      struct{ Name string }
		Attributes []struct {
			Name    string
			Default any
		}
	}
	if err := json.Unmarshal(raw, &spec); err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]any{}
	for _, m := range spec {
		attrs := map[string]any{}
		for _, a := range m.Attributes {
			attrs[a.Name] = a.Default
		}
		out[m.Model.Name] = attrs
	}
	return out
}

// controls2 makes one of each control, and the keys its constructor sets from its arguments.
var controls2 = map[string]struct {
	make func() Widget
	set  []string
}{
	"IntSliderModel":     {func() Widget { return NewIntSlider("n", 0, 10, 3) }, []string{"description", "min", "max", "value"}},
	"FloatSliderModel":   {func() Widget { return NewFloatSlider("t", 0, 2, 0.1, 0.5) }, []string{"description", "min", "max", "step", "value"}},
	"DropdownModel":      {func() Widget { return NewDropdown("d", []string{"a", "b"}, "b") }, []string{"description", "_options_labels", "index"}},
	"ToggleButtonsModel": {func() Widget { return NewToggleButtons("m", []string{"x", "y"}, "x") }, []string{"description", "_options_labels", "index"}},
	"RadioButtonsModel":  {func() Widget { return NewRadioButtons("r", []string{"p", "q"}, "q") }, []string{"description", "_options_labels", "index"}},
	"CheckboxModel":      {func() Widget { return NewCheckbox("c", true) }, []string{"description", "value"}},
	"ButtonModel":        {func() Widget { return NewButton("b") }, []string{"description"}},
	"TextModel":          {func() Widget { return NewText("p", "type", "hi") }, []string{"description", "placeholder", "value"}},
	"TextareaModel":      {func() Widget { return NewTextarea("t", "a\nb", 3) }, []string{"description", "rows", "value"}},
	"PlayModel":          {func() Widget { return NewPlay("p", 0, 5, 1, 50) }, []string{"description", "max", "interval"}},
	"LabelModel":         {func() Widget { return NewLabel("l") }, []string{"value"}},
	"HTMLModel":          {func() Widget { return NewHTML("<b>h</b>") }, []string{"value"}},
	"OutputModel":        {func() Widget { return NewOutput() }, nil},
	"ImageModel":         {func() Widget { return NewImage("png", []byte("\x89PNG")) }, []string{"value"}},
	"HBoxModel":          {func() Widget { return NewHBox(NewLabel("a")) }, []string{"children"}},
	"VBoxModel":          {func() Widget { return NewVBox() }, nil},
	"LinkModel": {func() Widget {
		return NewLink(NewIntSlider("a", 0, 1, 0), "value", NewIntSlider("b", 0, 1, 0), "value")
	}, []string{"source", "target"}},
	"DirectionalLinkModel": {func() Widget {
		return NewDirectionalLink(NewIntSlider("a", 0, 1, 0), "value", NewLabel(""), "value")
	}, []string{"source", "target"}},
}

// TestSchema checks every model a control opens in protocol 2.1 (the control, its layout, its
// style) against ipywidgets 8's schema: the same keys, and each key the constructor does not set
// at its default (a reference to a new instance: an IPY_MODEL_ id; bytes: a []byte).
func TestSchema(t *testing.T) {
	spec := schemaModels(t)
	for name, c := range controls2 {
		t.Run(name, func(t *testing.T) {
			w := newWire(t, v2{})
			c.make()
			opens := 0
			for i, m := range w.take() {
				if m.Type != "comm_open" {
					continue
				}
				opens++
				state, _ := m.Content["state"].(map[string]any)
				model, _ := state["_model_name"].(string)
				if err := putBuffers(state, m.Content["buffer_paths"].([]any), w.buffersAt(i)); err != nil {
					t.Fatal(err)
				}
				attrs, ok := spec[model]
				if !ok {
					t.Fatalf("%s is not a model of ipywidgets 8", model)
				}
				if got, want := sortedKeys(state), sortedKeys(attrs); !slices.Equal(got, want) {
					t.Errorf("%s keys:\n got %q\nwant %q", model, got, want)
				}
				if v := w.metadata[m.ID]["version"]; v != "2.1.0" {
					t.Errorf("%s: comm_open metadata version %v, want 2.1.0", model, v)
				}
				// Defaults: of the control, its layout and its style (a box's children and a
				// link's ends are checked in their own runs).
				own := model == name || state["_view_name"] == "LayoutView" || state["_view_name"] == "StyleView"
				for k, def := range attrs {
					if !own || model == name && slices.Contains(c.set, k) {
						continue
					}
					got := state[k]
					switch def {
					case "reference to new instance":
						if s, _ := got.(string); !strings.HasPrefix(s, "IPY_MODEL_") {
							t.Errorf("%s.%s = %v, want a model reference", model, k, got)
						}
					case "b''":
						if b, ok := got.([]byte); !ok || len(b) != 0 {
							t.Errorf("%s.%s = %v, want no bytes", model, k, got)
						}
					default:
						if !reflect.DeepEqual(got, def) {
							t.Errorf("%s.%s = %#v, want the default %#v", model, k, got, def)
						}
					}
				}
			}
			if opens == 0 {
				t.Fatal("no comm_open")
			}
		})
	}
}

// buffersAt is the buffers of the message at index i of the last take.
func (w *wire) buffersAt(i int) [][]byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.lastBuffers[i]
}

func update2(state map[string]any, paths ...any) map[string]any {
	if paths == nil {
		paths = []any{}
	}
	return map[string]any{"method": "update", "state": state, "buffer_paths": paths}
}

// TestBothWays2 moves every control from the front end (its Go callback runs, the change is
// echoed) and from Go (an update reaches the front end), in protocol 2.1.
func TestBothWays2(t *testing.T) {
	w := newWire(t, v2{})
	type step struct {
		w      Widget
		key    string
		front  any    // the value the front end sends
		seen   string // what the callback printed after it
		set    func() // a SetValue from Go
		update any    // the value the update carries after it
	}
	var got []string
	i, f := NewIntSlider("i", 0, 10, 1), NewFloatSlider("f", 0, 1, 0.1, 0.5)
	d := NewDropdown("d", []string{"a", "b", "c"}, "a")
	tb, rb := NewToggleButtons("t", []string{"x", "y"}, "x"), NewRadioButtons("r", []string{"p", "q"}, "p")
	c, tx, ta := NewCheckbox("c", false), NewText("t", "", ""), NewTextarea("a", "", 2)
	p, l, h := NewPlay("p", 0, 9, 1, 10), NewLabel(""), NewHTML("")
	i.OnChange(func(v int) { got = append(got, "i "+fmt1(v)) })
	f.OnChange(func(v float64) { got = append(got, "f "+fmt1(v)) })
	for _, s := range []*Selection{d, tb, rb} {
		s.OnChange(func(v string) { got = append(got, "sel "+v) })
	}
	c.OnChange(func(v bool) { got = append(got, "c "+fmt1(v)) })
	for _, x := range []*Text{tx, ta} {
		x.OnChange(func(v string) { got = append(got, "text "+v) })
	}
	p.OnChange(func(v int) { got = append(got, "p "+fmt1(v)) })
	steps := []step{
		{i, "value", 7.0, "i 7", func() { i.SetValue(2) }, 2.0},
		{f, "value", 0.25, "f 0.25", func() { f.SetValue(0.75) }, 0.75},
		{d, "index", 2.0, "sel c", func() { d.SetValue("b") }, 1.0},
		{tb, "index", 1.0, "sel y", func() { tb.SetValue("x") }, 0.0},
		{rb, "index", 1.0, "sel q", func() { rb.SetValue("p") }, 0.0},
		{c, "value", true, "c true", func() { c.SetValue(false) }, false},
		{tx, "value", "hey", "text hey", func() { tx.SetValue("ho") }, "ho"},
		{ta, "value", "a\nb", "text a\nb", func() { ta.SetValue("c") }, "c"},
		{p, "value", 4.0, "p 4", func() { p.SetValue(5) }, 5.0},
		{l, "", nil, "", func() { l.SetValue("L") }, "L"},
		{h, "", nil, "", func() { h.SetValue("<i>H</i>") }, "<i>H</i>"},
	}
	w.take()
	for _, s := range steps {
		id := s.w.ModelID()
		if s.key != "" {
			got = nil
			if err := comm.HandleMsg(id, update2(map[string]any{s.key: s.front})); err != nil {
				t.Fatal(err)
			}
			msgs := w.take()
			if len(got) != 1 || got[0] != s.seen {
				t.Errorf("%s from the front end: callback saw %q, want %q", s.w.model().kind, got, s.seen)
			}
			echo := map[string]any{"method": "echo_update", "state": map[string]any{s.key: s.front}, "buffer_paths": []any{}}
			if len(msgs) == 0 || !reflect.DeepEqual(msgs[0].Content, echo) {
				t.Errorf("%s: first message %v, want the echo %v", s.w.model().kind, msgs, echo)
			}
		}
		s.set()
		msgs := w.take()
		key := s.key
		if key == "" {
			key = "value"
		}
		want := update2(map[string]any{key: s.update})
		if len(msgs) == 0 || !reflect.DeepEqual(msgs[0].Content, want) {
			t.Errorf("%s from Go: %v, want %v", s.w.model().kind, msgs, want)
		}
	}
	// The button's click is a custom message.
	b := NewButton("b")
	clicks := 0
	b.OnClick(func() { clicks++ })
	comm.HandleMsg(b.ModelID(), map[string]any{"method": "custom", "content": map[string]any{"event": "click"}})
	if clicks != 1 {
		t.Errorf("%d clicks", clicks)
	}
	// The view bundle names the view format.
	bundle := display.Render(b)
	view := bundle.Data[MIMEWidgetView].(map[string]any)
	if view["version_major"] != 2 || view["version_minor"] != 0 || view["model_id"] != b.ModelID() {
		t.Errorf("view %v", view)
	}
}

func fmt1(v any) string { b, _ := json.Marshal(v); return strings.Trim(string(b), `"`) }

// TestImageBuffers: an Image's bytes travel as a buffer named by its path, never in the JSON.
func TestImageBuffers(t *testing.T) {
	w := newWire(t, v2{})
	img := NewImage("png", []byte("first"))
	msgs := w.take()
	last := msgs[len(msgs)-1]
	if last.Type != "comm_open" || !reflect.DeepEqual(last.Content["buffer_paths"], []any{[]any{"value"}}) {
		t.Fatalf("open: %v", last)
	}
	if _, in := last.Content["state"].(map[string]any)["value"]; in {
		t.Error("the bytes are in the JSON state")
	}
	if b := w.buffersAt(len(msgs) - 1); len(b) != 1 || string(b[0]) != "first" {
		t.Errorf("open buffers %q", b)
	}
	img.SetValue([]byte("second"))
	msgs = w.take()
	if !reflect.DeepEqual(msgs[0].Content, update2(map[string]any{}, []any{"value"})) || string(w.buffersAt(0)[0]) != "second" {
		t.Errorf("update %v %q", msgs[0].Content, w.buffersAt(0))
	}
	// request_state: the whole state, the bytes as a buffer again.
	comm.HandleMsg(img.ModelID(), map[string]any{"method": "request_state"})
	msgs = w.take()
	if len(msgs) != 1 || string(w.buffersAt(0)[0]) != "second" || msgs[0].Content["state"].(map[string]any)["format"] != "png" {
		t.Errorf("request_state: %v", msgs)
	}
}

// TestControlTarget: request_states answers with every live model of protocol 2, buffers at
// [id, "state", key]; 1.0 models are left out.
func TestControlTarget(t *testing.T) {
	w := newWire(t, nil)
	old := NewCheckbox("made in 2.1", true)
	img := NewImage("png", []byte{1, 2, 3})
	protoMu.Lock()
	forced = v1{}
	protoMu.Unlock()
	classic := NewLabel("1.0")
	protoMu.Lock()
	forced = nil
	protoMu.Unlock()
	w.take()
	if err := comm.HandleOpen("ctl", TargetControl, map[string]any{}); err != nil {
		t.Fatal(err)
	}
	comm.HandleMsg("ctl", map[string]any{"method": "request_states"})
	msgs := w.take()
	if len(msgs) != 1 || msgs[0].Content["method"] != "update_states" {
		t.Fatalf("%v", msgs)
	}
	states := msgs[0].Content["states"].(map[string]any)
	if _, ok := states[old.ModelID()]; !ok {
		t.Error("a 2.1 model is missing")
	}
	if _, ok := states[classic.ModelID()]; ok {
		t.Error("a 1.0 model is in a 2.1 front end's states")
	}
	s := states[old.ModelID()].(map[string]any)
	if s["model_module"] != moduleControls || s["model_name"] != "CheckboxModel" || s["state"].(map[string]any)["value"] != true {
		t.Errorf("checkbox %v", s)
	}
	paths := msgs[0].Content["buffer_paths"].([]any)
	i := slices.IndexFunc(paths, func(p any) bool { return p.([]any)[0] == img.ModelID() })
	if i < 0 || !reflect.DeepEqual(paths[i], []any{img.ModelID(), "state", "value"}) || !bytes.Equal(w.buffersAt(0)[i], []byte{1, 2, 3}) {
		t.Errorf("buffer paths %v buffers %v", paths, w.buffersAt(0))
	}
	if _, in := states[img.ModelID()].(map[string]any)["state"].(map[string]any)["value"]; in {
		t.Error("the image's bytes are in the JSON")
	}
	if !strings.Contains(strings.Join(w.logs, "\n"), "widgets of protocol 1.0 left out") {
		t.Errorf("log %q", w.logs)
	}
}

// TestDetection: the rule of protocol.go. Before any front end speaks, widgets speak 2.1; the
// classic notebook's handshake turns new widgets to 1.0, a 2.x front end's control comm (or an
// update) back to 2.1; each widget keeps its own, and both kinds take their front end's changes.
func TestDetection(t *testing.T) {
	w := newWire(t, nil)
	early := NewIntSlider("before anyone spoke", 0, 9, 0)
	comm.HandleOpen("version", TargetVersion, map[string]any{})
	classic := NewIntSlider("after the classic notebook", 0, 9, 0)
	comm.HandleOpen("control", TargetControl, map[string]any{})
	lab := NewIntSlider("after a 2.x front end", 0, 9, 0)
	for _, c := range []struct {
		s    *IntSlider
		want string
	}{{early, "2.1"}, {classic, "1.0"}, {lab, "2.1"}} {
		if got := c.s.proto.name(); got != c.want {
			t.Errorf("%s: protocol %s, want %s", c.s.Get("description"), got, c.want)
		}
	}
	// Each takes changes in its own protocol: two front ends on one kernel.
	comm.HandleMsg(classic.ModelID(), backbone(classic.ModelID(), map[string]any{"value": 3.0}))
	comm.HandleMsg(early.ModelID(), update2(map[string]any{"value": 4.0}))
	if classic.Value() != 3 || early.Value() != 4 {
		t.Errorf("values %d %d", classic.Value(), early.Value())
	}
	// A backbone from the classic notebook makes the next widget 1.0 again.
	if NewCheckbox("", false).proto.name() != "2.1" {
		t.Error("after an update, not 2.1")
	}
	comm.HandleMsg(classic.ModelID(), backbone(classic.ModelID(), map[string]any{"value": 5.0}))
	if NewCheckbox("", false).proto.name() != "1.0" {
		t.Error("after a backbone, not 1.0")
	}
	if logs := strings.Join(w.logs, "\n"); !strings.Contains(logs, "speaks protocol 1.0") || !strings.Contains(logs, "speaks protocol 2.1") {
		t.Errorf("log %q", logs)
	}
	// A setting forces one, whatever is heard.
	if forcedProtocol("1.0").name() != "1.0" || forcedProtocol("2.1").name() != "2.1" || forcedProtocol("x") != nil {
		t.Error("EnvProtocol values")
	}
}

// TestBadMessages2: each is logged and changes nothing; the widget works on.
func TestBadMessages2(t *testing.T) {
	w := newWire(t, v2{})
	s := NewIntSlider("n", 0, 10, 5)
	img := NewImage("png", nil)
	runs := 0
	s.OnChange(func(int) { runs++ })
	w.take()
	bad := []struct {
		id      string
		data    map[string]any
		buffers [][]byte
		log     string
	}{
		{s.ModelID(), map[string]any{"method": "backbone", "sync_data": map[string]any{"value": 1.0}}, nil, `unknown method "backbone"`},
		{s.ModelID(), map[string]any{"method": "frobnicate"}, nil, `unknown method "frobnicate"`},
		{s.ModelID(), map[string]any{"method": "update", "state": "oops"}, nil, "without state object"},
		{s.ModelID(), map[string]any{"method": "update", "state": map[string]any{}, "buffer_paths": "x"}, nil, "buffer_paths is string"},
		{s.ModelID(), update2(map[string]any{}, []any{"a"}, []any{"b"}), [][]byte{{1}}, "2 buffer paths for 1 buffers"},
		{s.ModelID(), update2(map[string]any{}, []any{"deep", "value"}), [][]byte{{1}}, `no "deep" in the state`},
		{s.ModelID(), update2(map[string]any{"l": []any{}}, []any{"l", 3.0}), [][]byte{{1}}, "not an index of a list of 0"},
		{img.ModelID(), update2(map[string]any{}, []any{"value"}), [][]byte{make([]byte, maxBuffers+1)}, "more than the"},
		{s.ModelID(), update2(map[string]any{"value": "seven"}), nil, "want an integer"},
		{s.ModelID(), update2(map[string]any{"_model_name": "Evil"}), nil, "may not set"},
	}
	for _, b := range bad {
		w.logs = nil
		comm.HandleMsg(b.id, b.data, b.buffers...)
		if logs := strings.Join(w.logs, "\n"); !strings.Contains(logs, b.log) {
			t.Errorf("%v: log %q, want %q", b.data, logs, b.log)
		}
	}
	if s.Value() != 5 || s.Get("_model_name") != "IntSliderModel" || runs != 0 || len(img.Value()) != 0 {
		t.Errorf("a bad message changed the model: %d %v %d", s.Value(), s.Get("_model_name"), runs)
	}
	// A state for a closed comm: an error the kernel logs.
	s.Close()
	if err := comm.HandleMsg(s.ModelID(), update2(map[string]any{"value": 1.0})); err == nil || !strings.Contains(err.Error(), "no such comm") {
		t.Errorf("closed comm: %v", err)
	}
	// The image still takes bytes.
	img.SetValue([]byte("ok"))
	if string(img.Value()) != "ok" {
		t.Error("image")
	}
}

func TestRemoveAndPutBuffers(t *testing.T) {
	state := map[string]any{"a": []byte("A"), "l": []any{1.0, []byte("B")}, "m": map[string]any{"c": []byte("C"), "d": 2.0}}
	s, paths, bufs := removeBuffers(state)
	want := []any{[]any{"a"}, []any{"l", 1}, []any{"m", "c"}}
	if !reflect.DeepEqual(paths, want) || len(bufs) != 3 {
		t.Fatalf("paths %v", paths)
	}
	if _, ok := s["a"]; ok || s["l"].([]any)[1] != nil {
		t.Errorf("state %v", s)
	}
	// As the front end sends them back: JSON numbers.
	var back []any
	b, _ := json.Marshal(paths)
	json.Unmarshal(b, &back)
	if err := putBuffers(s, back, bufs); err != nil || !reflect.DeepEqual(s, state) {
		t.Errorf("put: %v %v", err, s)
	}
}

// TestImageBuffers1: in protocol 1.0 the comm_open cannot name buffers; the bytes follow in an
// update that names the key, as ipywidgets 6 sends them.
func TestImageBuffers1(t *testing.T) {
	w := newWire(t, v1{})
	NewImage("png", []byte("png"))
	msgs := w.take()
	last := msgs[len(msgs)-1]
	if _, in := msgs[len(msgs)-2].Content["value"]; in || msgs[len(msgs)-2].Type != "comm_open" {
		t.Errorf("open %v", msgs[len(msgs)-2])
	}
	want := map[string]any{"method": "update", "state": map[string]any{}, "buffers": []any{"value"}}
	if !reflect.DeepEqual(last.Content, want) || string(w.buffersAt(len(msgs) - 1)[0]) != "png" {
		t.Errorf("after the open: %v %q", last.Content, w.buffersAt(len(msgs)-1))
	}
}

// TestOutputOutputs2: a 2.x front end (nbclient among them) sets the outputs it captured.
func TestOutputOutputs2(t *testing.T) {
	w := newWire(t, v2{})
	o := NewOutput()
	w.take()
	outs := []any{map[string]any{"output_type": "stream", "name": "stdout", "text": "hi\n"}}
	comm.HandleMsg(o.ModelID(), update2(map[string]any{"outputs": outs}))
	if !reflect.DeepEqual(o.Get("outputs"), outs) || len(w.logs) != 0 {
		t.Errorf("outputs %v, log %q", o.Get("outputs"), w.logs)
	}
	comm.HandleMsg(o.ModelID(), update2(map[string]any{"outputs": "x"}))
	if !reflect.DeepEqual(o.Get("outputs"), outs) || len(w.logs) != 1 {
		t.Errorf("bad outputs: %v, log %q", o.Get("outputs"), w.logs)
	}
}
