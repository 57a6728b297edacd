package widget

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gptnotes/gptnotes/kernel/comm"
)

// A recording of ipywidgets 8's front end against this kernel, as tests/widgets8/drive.mjs writes
// it (make record-widgets8): one control check's cells, and every widget message both ways in
// the order the page saw them.
type recording8 struct {
	Control  string
	Frontend string
	Steps    []struct {
		From     string // cell, frontend, kernel
		Code     string // a cell's source
		MsgType  string `json:"msg_type"`
		Content  map[string]any
		Metadata map[string]any
		Buffers  []string // base64
	}
}

// say is drive.mjs's say: replace what o shows with one printed line.
func say(o *Output, format string, args ...any) {
	o.Capture(func() {
		o.Clear(true)
		fmt.Printf(format+"\n", args...) // to the test binary's stdout, as the cell's goes to its Output
	})
}

// pngOf is drive.mjs's pngOf: a w×h grey PNG.
func pngOf(w, h int) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// cells8 does in Go what each recorded check's cells do in the kernel, one func per cell, in order.
func cells8() map[string][]func() {
	var (
		oDl                                                                           *Output
		sSrc, sDst                                                                    *IntSlider
		dl                                                                            *Link
		oInt, oFloat, oDrop, oTog, oRadio, oCheck, oButton, oText, oArea, oPlay, oOut *Output
		sInt, sPlay, iN                                                               *IntSlider
		sFloat                                                                        *FloatSlider
		dDrop, tTog, rRadio, iOp                                                      *Selection
		cCheck                                                                        *Checkbox
		bButton                                                                       *Button
		tText, tArea                                                                  *Text
		pPlay                                                                         *Play
		lLabel, hHTML                                                                 *Label
		iImage                                                                        *Image
		lay                                                                           *Layout
	)
	return map[string][]func(){
		"IntSlider": {func() {
			oInt, sInt = NewOutput(), NewIntSlider("int", 0, 10, 3)
			sInt.OnChange(func(v int) { say(oInt, "int is %d, squared %d", v, v*v) })
			NewVBox(sInt, oInt)
		}, func() { sInt.SetValue(8) }},
		"FloatSlider": {func() {
			oFloat, sFloat = NewOutput(), NewFloatSlider("float", 0, 2, 0.25, 1)
			sFloat.OnChange(func(v float64) { say(oFloat, "float is %.2f", v) })
			NewVBox(sFloat, oFloat)
		}, func() { sFloat.SetValue(1.5) }},
		"Dropdown": {func() {
			oDrop, dDrop = NewOutput(), NewDropdown("drop", []string{"alpha", "beta", "gamma"}, "alpha")
			dDrop.OnChange(func(v string) { say(oDrop, "drop is %s (index %d)", v, dDrop.Index()) })
			NewVBox(dDrop, oDrop)
		}, func() { dDrop.SetValue("beta") }},
		"ToggleButtons": {func() {
			oTog, tTog = NewOutput(), NewToggleButtons("tog", []string{"left", "middle", "right"}, "left")
			tTog.OnChange(func(v string) { say(oTog, "toggle is %s", v) })
			NewVBox(tTog, oTog)
		}, func() { tTog.SetValue("middle") }},
		"RadioButtons": {func() {
			oRadio, rRadio = NewOutput(), NewRadioButtons("radio", []string{"red", "green", "blue"}, "red")
			rRadio.OnChange(func(v string) { say(oRadio, "radio is %s", v) })
			NewVBox(rRadio, oRadio)
		}, func() { rRadio.SetValue("green") }},
		"Checkbox": {func() {
			oCheck, cCheck = NewOutput(), NewCheckbox("check", false)
			cCheck.OnChange(func(v bool) { say(oCheck, "check is %v", v) })
			NewVBox(cCheck, oCheck)
		}, func() { cCheck.SetValue(false) }},
		"Button": {func() {
			oButton, bButton = NewOutput(), NewButton("Press")
			presses := 0
			bButton.OnClick(func() { presses++; say(oButton, "pressed %d times", presses) })
			NewVBox(bButton, oButton)
		}, func() { bButton.SetDescription("Pressed twice") }},
		"Text": {func() {
			oText, tText = NewOutput(), NewText("text", "type here", "")
			tText.OnSubmit(func(s string) { say(oText, "submitted %q", s) })
			NewVBox(tText, oText)
		}, func() { tText.SetValue("from Go") }},
		"Textarea": {func() {
			oArea, tArea = NewOutput(), NewTextarea("area", "", 3)
			tArea.OnChange(func(s string) { say(oArea, "area has %d bytes", len(s)) })
			NewVBox(tArea, oArea)
		}, func() { tArea.SetValue("one") }},
		"Play": {func() {
			oPlay, pPlay = NewOutput(), NewPlay("play", 0, 3, 1, 50)
			sPlay = NewIntSlider("linked", 0, 3, 0)
			NewLink(pPlay, "value", sPlay, "value")
			pPlay.OnChange(func(v int) { say(oPlay, "play is %d, slider %d", v, sPlay.Value()) })
			NewVBox(pPlay, sPlay, oPlay)
		}, func() { pPlay.SetValue(1) }, func() {}},
		"DirectionalLink": {func() {
			oDl = NewOutput()
			sSrc, sDst = NewIntSlider("source", 0, 10, 2), NewIntSlider("target", 0, 10, 2)
			dl = NewDirectionalLink(sSrc, "value", sDst, "value")
			sDst.OnChange(func(v int) { say(oDl, "target is %d", v) })
			NewVBox(sSrc, sDst, oDl)
		}, func() { sDst.SetValue(9) }, func() { dl.Unlink() }, func() {}},
		"Label": {func() {
			lLabel, hHTML = NewLabel("label before"), NewHTML("<b>html before</b>")
			NewVBox(lLabel, hHTML)
		}, func() { lLabel.SetValue("label after"); hHTML.SetValue(`<i id="gn-html">html after</i>`) }},
		"Image": {func() { iImage = NewImage("png", pngOf(3, 2)) }, func() { iImage.SetValue(pngOf(7, 5)) }},
		"Output": {func() { oOut = NewOutput() },
			func() { oOut.Capture(func() { fmt.Println("printed into the Output") }) },
			func() { oOut.Clear(false); oOut.Display(NewLabel("a label displayed in it")) }},
		"Layout": {func() {
			lay = NewLayout("300px", "2px solid red")
			hb := lay.HBox(NewLabel("left"), NewLabel("right"))
			NewVBox(hb, NewLabel("below"))
		}, func() { lay.SetWidth("420px") }},
		"Interact": {func() {
			iN, iOp = NewIntSlider("n", 0, 10, 3), NewDropdown("op", []string{"square", "cube"}, "square")
			Interact(func(v []any) {
				k := v[0].(int)
				if v[1].(string) == "cube" {
					fmt.Printf("%d cubed = %d\n", k, k*k*k)
					return
				}
				fmt.Printf("%d squared = %d\n", k, k*k)
			}, iN, iOp)
		}, func() { iN.SetValue(5) }},
	}
}

// TestRecordings8 replays what ipywidgets 8's own front end sent, recorded in Chromium against
// the kernel (testdata/ipywidgets8/): the same widgets made in Go, then each recorded front-end
// message handed to them as the kernel hands it, and each cell's Go run where the cell ran. The
// widgets must send exactly the recorded kernel messages (comm ids and request ids named by
// order), buffers included, and log no complaint about any front-end message.
func TestRecordings8(t *testing.T) {
	files, _ := filepath.Glob("testdata/ipywidgets8/*.json")
	scripts := cells8()
	if len(files) != len(scripts) {
		t.Fatalf("found %d recordings, want %d (one per script)", len(files), len(scripts))
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var rec recording8
			if err := json.Unmarshal(raw, &rec); err != nil {
				t.Fatal(err)
			}
			cells, ok := cells8()[name]
			if !ok {
				t.Fatalf("no Go cells for %s", name)
			}
			w := newWire(t, v2{})
			// Comm ids: the recording's and ours, named m0, m1, … in the order the kernel opened them.
			recNames, goNames, goIDs := map[string]string{}, map[string]string{}, map[string]string{}
			var want, got []string
			collect := func() {
				msgs := w.take()
				for i, m := range msgs {
					if m.Type != "comm_open" && m.Type != "comm_msg" && m.Type != "comm_close" {
						continue // clear_output, display_data: iopub outputs, not widget messages
					}
					if m.Type == "comm_open" {
						n := fmt.Sprintf("m%d", len(goNames))
						goNames[m.ID], goIDs[n] = n, m.ID
					}
					var b64 []string
					for _, b := range w.lastBuffers[i] {
						b64 = append(b64, base64.StdEncoding.EncodeToString(b))
					}
					var md map[string]any
					if m.Type == "comm_open" {
						md = w.metadata[m.ID]
					}
					got = append(got, show8(m.Type, m.ID, m.Content, md, b64, goNames))
				}
			}
			cell := 0
			for _, s := range rec.Steps {
				switch s.From {
				case "cell":
					if cell >= len(cells) {
						t.Fatalf("the recording runs more cells than the %d of the Go script", len(cells))
					}
					cells[cell]()
					cell++
					collect()
				case "kernel":
					id, _ := s.Content["comm_id"].(string)
					if s.MsgType == "comm_open" {
						recNames[id] = fmt.Sprintf("m%d", len(recNames))
					}
					data, _ := s.Content["data"].(map[string]any)
					var md map[string]any
					if s.MsgType == "comm_open" {
						md = s.Metadata
					}
					want = append(want, show8(s.MsgType, id, data, md, s.Buffers, recNames))
				case "frontend":
					id, _ := s.Content["comm_id"].(string)
					ours, ok := goIDs[recNames[id]]
					if !ok {
						t.Fatalf("the front end's %s to %s, a comm the kernel did not open", s.MsgType, id)
					}
					data := rename8(s.Content["data"].(map[string]any), recNames, goIDs)
					var buffers [][]byte
					for _, b := range s.Buffers {
						raw, err := base64.StdEncoding.DecodeString(b)
						if err != nil {
							t.Fatal(err)
						}
						buffers = append(buffers, raw)
					}
					switch s.MsgType {
					case "comm_msg":
						comm.Arrived(ours, data)
						err = comm.HandleMsg(ours, data, buffers...)
					case "comm_close":
						err = comm.HandleClose(ours, data)
					default:
						t.Fatalf("the front end sent a %s", s.MsgType)
					}
					if err != nil {
						t.Fatal(err)
					}
					collect()
				}
			}
			if cell != len(cells) {
				t.Errorf("the recording ran %d cells, the Go script has %d", cell, len(cells))
			}
			if len(w.logs) > 0 {
				t.Errorf("the kernel complained about the front end's messages: %q", w.logs)
			}
			if len(got) != len(want) {
				t.Errorf("the Go widgets sent %d messages, the recording has %d", len(got), len(want))
			}
			for i := 0; i < len(got) || i < len(want); i++ {
				var g, x string
				if i < len(got) {
					g = got[i]
				}
				if i < len(want) {
					x = want[i]
				}
				if g != x {
					t.Errorf("message %d:\n got %s\nwant %s", i, g, x)
				}
			}
		})
	}
}

// show8 writes a kernel message as JSON with comm ids named by names and request ids (a
// non-empty msg_id, the Output's capture) as <msg_id>, for comparing.
func show8(typ, id string, data, metadata map[string]any, buffers []string, names map[string]string) string {
	var walk func(v any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			out := map[string]any{}
			for k, v := range x {
				if s, ok := v.(string); ok && k == "msg_id" && s != "" {
					out[k] = "<msg_id>"
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
	m := map[string]any{"type": typ, "comm": names[id], "data": walk(roundTrip(data))}
	if metadata != nil {
		m["metadata"] = metadata
	}
	if len(buffers) > 0 {
		m["buffers"] = buffers
	}
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// rename8 rewrites the recording's comm ids in a front-end message's data to ours.
func rename8(data map[string]any, recNames map[string]string, goIDs map[string]string) map[string]any {
	b, _ := json.Marshal(data)
	s := string(b)
	for id, n := range recNames {
		s = strings.ReplaceAll(s, id, goIDs[n])
	}
	var out map[string]any
	json.Unmarshal([]byte(s), &out)
	if reflect.DeepEqual(out, data) {
		return data
	}
	return out
}
