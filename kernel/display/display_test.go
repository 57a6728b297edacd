package display

import (
	"bytes"
	"image"
	"image/color"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

type card struct{ name string }

func (c card) HTML() string     { return "<b>" + c.name + "</b>" }
func (c card) Markdown() string { return "**" + c.name + "**" }
func (c card) String() string   { return "card " + c.name }

func TestRenderStructural(t *testing.T) {
	b := Render(card{"ace"})
	if got := b.Data[MIMEHTML]; got != "<b>ace</b>" {
		t.Errorf("text/html = %v, want <b>ace</b>", got)
	}
	if got := b.Data[MIMEMarkdown]; got != "**ace**" {
		t.Errorf("text/markdown = %v", got)
	}
	if got := b.Data[MIMEPlain]; got != "card ace" {
		t.Errorf("text/plain = %v, want card ace", got)
	}
}

func TestRenderPlainCapped(t *testing.T) {
	long := strings.Repeat("é", MaxPlainText) // 2 bytes a rune: twice the cap
	got := Render(long).Data[MIMEPlain].(string)
	if len(got) > MaxPlainText+100 {
		t.Errorf("text/plain is %d bytes, want about %d", len(got), MaxPlainText)
	}
	if !strings.Contains(got, "more bytes not shown") {
		t.Errorf("text/plain has no truncation note: ...%q", got[len(got)-40:])
	}
	if !strings.HasPrefix(got, "éé") || strings.ContainsRune(got, '\uFFFD') {
		t.Errorf("text/plain cut inside a rune")
	}
}

func TestRenderImageAndPlot(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	img.Set(1, 1, color.RGBA{255, 0, 0, 255})
	b := Render(img)
	png, _ := b.Data[MIMEPNG].([]byte)
	if !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("image.Image: image/png is not a PNG: %q", png[:min(8, len(png))])
	}
	if b.Data[MIMEPlain] != "<image 3x2>" {
		t.Errorf("image text/plain = %v", b.Data[MIMEPlain])
	}

	p := plot.New()
	p.Title.Text = "loss"
	l, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 1}, {X: 1, Y: 0.5}})
	if err != nil {
		t.Fatal(err)
	}
	p.Add(l)
	b = Render(p)
	png, _ = b.Data[MIMEPNG].([]byte)
	if !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Errorf("*plot.Plot: image/png missing, data keys %v", keys(b.Data))
	}
}

func TestRenderBundleKeepsData(t *testing.T) {
	b := Render(Bundle{Data: map[string]any{MIMEHTML: "<i>x</i>"}})
	if b.Data[MIMEHTML] != "<i>x</i>" || b.Data[MIMEPlain] != "<display [text/html]>" {
		t.Errorf("bundle rendered as %v", b.Data)
	}
}

type recorder struct{ log []string }

func (r *recorder) Display(b Bundle, id string, update bool) {
	kind := "display"
	if update {
		kind = "update"
	}
	if id != "" {
		kind += " id"
	}
	r.log = append(r.log, kind+" "+Plain(b.Data[MIMEPlain]))
}
func (r *recorder) ClearOutput(wait bool) { r.log = append(r.log, "clear") }

func TestHandle(t *testing.T) {
	r := &recorder{}
	SetPublisher(r)
	defer SetPublisher(nil)
	h := New()
	h.Update(1) // first Update shows
	h.Update(2)
	h.Clear()
	Display("x")
	ClearOutput(true)
	want := "display id 1|update id 2|update id |display x|clear"
	if got := strings.Join(r.log, "|"); got != want {
		t.Errorf("published %q, want %q", got, want)
	}
	if h.ID() == New().ID() || len(h.ID()) != 32 {
		t.Errorf("display ids not unique 32-hex: %q", h.ID())
	}
}

func TestNoPublisher(t *testing.T) {
	SetPublisher(nil)
	Display("dropped") // must not panic
	New().Update(1)
	ClearOutput(false)
}

func keys(m map[string]any) []string {
	var k []string
	for s := range m {
		k = append(k, s)
	}
	return k
}

// wrapper has the shape of the type `yaegi extract` generates so interpreted values can pass as
// an interface: the value in IValue, the methods as func fields.
type wrapper struct {
	IValue any
	WHTML  func() string
}

func (w wrapper) HTML() string { return w.WHTML() }

func TestRenderInterpreterWrapper(t *testing.T) {
	b := Render(wrapper{IValue: struct{ N int }{3}, WHTML: func() string { return "<b>3</b>" }})
	if b.Data[MIMEHTML] != "<b>3</b>" || b.Data[MIMEPlain] != "{3}" {
		t.Errorf("wrapper rendered as %v, want text/html <b>3</b> and text/plain {3}", b.Data)
	}
}

type asker struct{ recorder }

func (a *asker) Input(prompt string, password bool) (string, error) {
	if password {
		return "secret for " + prompt, nil
	}
	return "answer to " + prompt, nil
}

func TestInput(t *testing.T) {
	SetPublisher(&recorder{})
	if _, err := Input("name?"); err != ErrNoInput {
		t.Errorf("Input through a publisher that cannot ask: err %v, want ErrNoInput", err)
	}
	SetPublisher(&asker{})
	defer SetPublisher(nil)
	if got, err := Input("name?"); got != "answer to name?" || err != nil {
		t.Errorf("Input = %q, %v", got, err)
	}
	if got, _ := Password("pin?"); got != "secret for pin?" {
		t.Errorf("Password = %q", got)
	}
}
