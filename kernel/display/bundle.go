package display

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"reflect"
	"unicode/utf8"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// MIME types a Bundle uses.
const (
	MIMEPlain    = "text/plain"
	MIMEHTML     = "text/html"
	MIMEMarkdown = "text/markdown"
	MIMELatex    = "text/latex"
	MIMESVG      = "image/svg+xml"
	MIMEPNG      = "image/png"
	MIMEJPEG     = "image/jpeg"
	MIMEJSON     = "application/json"
)

// MaxPlainText caps the text/plain rendering of a value, in bytes; longer text is cut at a rune
// boundary and ends with a note saying how much was left out.
const MaxPlainText = 10 << 10

// PlotWidth and PlotHeight size a *plot.Plot rendered inline.
var (
	PlotWidth  = 6 * vg.Inch
	PlotHeight = 4 * vg.Inch
)

// A Bundle is one output as Jupyter sees it: data by MIME type, and metadata by MIME type.
// Binary data (PNG, JPEG) is kept as []byte; the kernel base64-encodes it on the wire.
type Bundle struct {
	Data     map[string]any
	Metadata map[string]any
}

// The renderer interfaces. A value's type needs only the method, not this package.
type (
	HTMLer     interface{ HTML() string }
	Markdowner interface{ Markdown() string }
	Latexer    interface{ Latex() string }
	SVGer      interface{ SVG() string }
	PNGer      interface{ PNG() []byte }
	JPEGer     interface{ JPEG() []byte }
	JSONer     interface{ JSON() any }
	// A Bundler renders itself as a whole bundle: a widget, as its view and a text fallback.
	Bundler interface{ MIMEBundle() Bundle }
)

// Render builds the bundle for v: every renderer method v's type has, *plot.Plot and image.Image
// as PNG, and always text/plain. A Bundle or *Bundle renders as itself (text/plain added if missing),
// a Bundler as its MIMEBundle (a widget).
func Render(v any) Bundle {
	switch b := v.(type) {
	case Bundle:
		return withPlain(b, b)
	case *Bundle:
		if b != nil {
			return withPlain(*b, b)
		}
	}
	if r, ok := v.(Bundler); ok {
		return withPlain(r.MIMEBundle(), v)
	}
	b := Bundle{Data: map[string]any{}, Metadata: map[string]any{}}
	if r, ok := v.(HTMLer); ok {
		b.Data[MIMEHTML] = r.HTML()
	}
	if r, ok := v.(Markdowner); ok {
		b.Data[MIMEMarkdown] = r.Markdown()
	}
	if r, ok := v.(Latexer); ok {
		b.Data[MIMELatex] = r.Latex()
	}
	if r, ok := v.(SVGer); ok {
		b.Data[MIMESVG] = r.SVG()
	}
	if r, ok := v.(PNGer); ok {
		b.Data[MIMEPNG] = r.PNG()
	}
	if r, ok := v.(JPEGer); ok {
		b.Data[MIMEJPEG] = r.JPEG()
	}
	if r, ok := v.(JSONer); ok {
		b.Data[MIMEJSON] = r.JSON()
	}
	switch x := v.(type) {
	case *plot.Plot:
		if x == nil {
			break
		}
		png, err := plotPNG(x)
		if err != nil {
			b.Data[MIMEPlain] = err.Error()
			return b
		}
		b.Data[MIMEPNG] = png
		b.Data[MIMEPlain] = fmt.Sprintf("<plot %q>", x.Title.Text)
		return b
	case image.Image:
		png, err := imagePNG(x)
		if err != nil {
			b.Data[MIMEPlain] = err.Error()
			return b
		}
		b.Data[MIMEPNG] = png
		r := x.Bounds()
		b.Data[MIMEPlain] = fmt.Sprintf("<image %dx%d>", r.Dx(), r.Dy())
		return b
	}
	b.Data[MIMEPlain] = Plain(v)
	return b
}

// Plain formats v like %v, capped at MaxPlainText bytes. A yaegi interface wrapper (an
// interpreted value passed as, say, an HTMLer) prints as the value it wraps.
func Plain(v any) string {
	return capText(fmt.Sprintf("%v", unwrapInterpreted(v)), MaxPlainText)
}

// unwrapInterpreted returns the interpreted value inside a wrapper that `yaegi extract`
// generates for an interface (a struct whose field IValue holds the value), else v.
func unwrapInterpreted(v any) any {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Struct || rv.NumField() == 0 {
		return v
	}
	if f := rv.Type().Field(0); f.Name == "IValue" && f.Type.Kind() == reflect.Interface {
		return rv.Field(0).Interface()
	}
	return v
}

// withPlain returns b with a text/plain entry, describing src when b has none.
func withPlain(b Bundle, src any) Bundle {
	out := Bundle{Data: make(map[string]any, len(b.Data)+1), Metadata: make(map[string]any, len(b.Metadata))}
	for k, v := range b.Data {
		out.Data[k] = v
	}
	for k, v := range b.Metadata {
		out.Metadata[k] = v
	}
	if _, ok := out.Data[MIMEPlain]; !ok {
		out.Data[MIMEPlain] = describe(out.Data)
	}
	return out
}

// describe is the text/plain of a bundle made without one: the MIME types it holds.
func describe(data map[string]any) string {
	var types []string
	for _, k := range []string{MIMEHTML, MIMEMarkdown, MIMELatex, MIMESVG, MIMEPNG, MIMEJPEG, MIMEJSON} {
		if _, ok := data[k]; ok {
			types = append(types, k)
		}
	}
	return fmt.Sprintf("<display %v>", types)
}

// capText cuts s to at most max bytes on a rune boundary and notes what was left out.
func capText(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s\n… (%d more bytes not shown)", s[:cut], len(s)-cut)
}

func plotPNG(p *plot.Plot) ([]byte, error) {
	w, err := p.WriterTo(PlotWidth, PlotHeight, "png")
	if err != nil {
		return nil, fmt.Errorf("display: render plot: %w", err)
	}
	var buf bytes.Buffer
	if _, err := w.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("display: render plot: %w", err)
	}
	return buf.Bytes(), nil
}

func imagePNG(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("display: encode image: %w", err)
	}
	return buf.Bytes(), nil
}
