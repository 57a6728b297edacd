package session

import (
	"bytes"
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/gptnotes/gptnotes/kernel/display"
)

// A cell publishes through the display plugin to its own sink, and only while it runs.
func TestDisplayFromCell(t *testing.T) {
	s := newSession(t)
	r := newRecorder()
	_, err := s.Execute(context.Background(), `
import "github.com/gptnotes/gptnotes/kernel/display"
display.HTML("<b>hi</b>")
h := display.New()
h.Update("step 1")
h.Update("step 2")
display.ClearOutput(true)`, r)
	if err != nil {
		t.Fatal(err)
	}
	want := "display(update=false):<b>hi</b>|display(update=false):step 1|display(update=true):step 2|clear"
	if got := strings.Join(r.events, "|"); got != want {
		t.Errorf("events %q\nwant   %q", got, want)
	}
	r2 := newRecorder()
	if _, err := s.Execute(context.Background(), `h.Update("from a later cell")`, r2); err != nil {
		t.Fatal(err)
	}
	if len(r.events) != 4 || len(r2.events) != 1 {
		t.Errorf("a later cell's update went to %d/%d events, want it in the later cell only", len(r.events), len(r2.events))
	}
}

// A *plot.Plot built in a cell is Out[n] as a PNG.
func TestPlotResult(t *testing.T) {
	s := newSession(t)
	b, err := s.Execute(context.Background(), `
import ("gonum.org/v1/plot"; "gonum.org/v1/plot/plotter")
p := plot.New()
p.Title.Text = "loss"
line, _ := plotter.NewLine(plotter.XYs{{X: 0, Y: 1}, {X: 1, Y: 0.5}, {X: 2, Y: 0.3}})
p.Add(line)
p`, newRecorder())
	if err != nil {
		t.Fatal(err)
	}
	if b == nil {
		t.Fatal("no result")
	}
	png, _ := b.Data[display.MIMEPNG].([]byte)
	if !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("result has no PNG: keys %v", b.Data)
	}
}

// A value whose type has an HTML method renders as text/html, also when a cell declared it.
func TestRenderCellType(t *testing.T) {
	s := newSession(t)
	b, err := s.Execute(context.Background(), `
type badge string
func (b badge) HTML() string { return "<span>" + string(b) + "</span>" }
badge("ok")`, newRecorder())
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Data[display.MIMEHTML]; got != "<span>ok</span>" {
		t.Errorf("text/html = %v (data %v)", got, b.Data)
	}
}

// A value of a cell's type with an HTML method renders as HTML when the same cell declares
// the type, the method and the value, whatever the syntax of the trailing expression.
func TestRenderSameCellValue(t *testing.T) {
	s := newSession(t)
	for _, tail := range []string{"p", "&p", "mk()", "[]point{p}[0]", "m[\"a\"]"} {
		b, err := s.Execute(context.Background(), `
type point struct{ x, y int }
func (p *point) HTML() string { return "<b>point</b>" }
func mk() point { return point{3, 4} }
p := point{1, 2}
m := map[string]point{"a": p}
`+tail, newRecorder())
		if err != nil {
			t.Fatalf("%s: %v", tail, err)
		}
		if b == nil || b.Data[display.MIMEHTML] != "<b>point</b>" {
			t.Errorf("%s: no text/html in the result: %v", tail, b)
		}
	}
}

// fmt.Stringer of a cell's type gives the text/plain of Out[n].
func TestRenderCellStringer(t *testing.T) {
	s := newSession(t)
	if _, err := s.Execute(context.Background(), `
type temp float64
func (t temp) String() string { return "it is warm" }
func newTemp() *temp { t := temp(30); return &t }
t := temp(25)`, newRecorder()); err != nil {
		t.Fatal(err)
	}
	for _, code := range []string{"t", "temp(3)", "newTemp()"} {
		b, err := s.Execute(context.Background(), code, newRecorder())
		if err != nil {
			t.Fatal(err)
		}
		if got := b.Data[display.MIMEPlain]; got != "it is warm" {
			t.Errorf("%s: text/plain = %v", code, got)
		}
	}
}

// display.Display of a cell-declared type with an HTML method shows the HTML.
func TestDisplayCellType(t *testing.T) {
	s := newSession(t)
	r := newRecorder()
	_, err := s.Execute(context.Background(), `
import "github.com/gptnotes/gptnotes/kernel/display"
type badge string
func (b badge) HTML() string { return "<i>" + string(b) + "</i>" }
display.Display(badge("new"))`, r)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.bundles) != 1 || r.bundles[0].Data[display.MIMEHTML] != "<i>new</i>" {
		t.Fatalf("displayed %v, want one bundle with text/html <i>new</i>", r.bundles)
	}
}

// A result whose renderer panics (a method on a nil pointer) shows the panic, and the kernel
// lives.
func TestRenderPanics(t *testing.T) {
	s := newSession(t)
	useTestPackage(t, s, nil)
	if err := s.use(map[string]map[string]reflect.Value{
		"example.com/widget/widget": {"Nil": reflect.ValueOf(func() *widget { return nil })},
	}); err != nil {
		t.Fatal(err)
	}
	b, err := s.Execute(context.Background(), "import \"example.com/widget\"\nwidget.Nil()", newRecorder())
	if err != nil {
		t.Fatal(err)
	}
	if text, _ := b.Data[display.MIMEPlain].(string); !strings.Contains(text, "rendering it panicked") {
		t.Errorf("text/plain = %q", text)
	}
}

type widget struct{ name string }

func (w *widget) HTML() string { return "<b>" + w.name + "</b>" }
