package display

import (
	"crypto/rand"
	"encoding/hex"
	"image"
	"sync"
)

// A Publisher sends bundles to the notebook: the kernel's session installs the running cell's sink.
// Display shows b; with a non-empty displayID the output can later be replaced in place, and
// update=true replaces every output shown with that id (update_display_data) instead of adding one.
// ClearOutput clears the cell's outputs, when the next output arrives if wait is true.
type Publisher interface {
	Display(b Bundle, displayID string, update bool)
	ClearOutput(wait bool)
}

var (
	mu        sync.RWMutex
	publisher Publisher
)

// SetPublisher installs p as the destination of every display call; nil drops them.
func SetPublisher(p Publisher) {
	mu.Lock()
	publisher = p
	mu.Unlock()
}

func publish(b Bundle, displayID string, update bool) {
	mu.RLock()
	p := publisher
	mu.RUnlock()
	if p != nil {
		p.Display(b, displayID, update)
	}
}

// Display shows v in the running cell, rendered by Render.
func Display(v any) { publish(Render(v), "", false) }

// MIME shows a bundle as given (text/plain is added when missing).
func MIME(b Bundle) { publish(Render(b), "", false) }

// HTML shows an HTML fragment.
func HTML(html string) { Display(HTMLString(html)) }

// Markdown shows Markdown text.
func Markdown(md string) { Display(MarkdownString(md)) }

// Latex shows LaTeX, e.g. `$e^{i\pi} + 1 = 0$`.
func Latex(tex string) { Display(LatexString(tex)) }

// SVG shows an SVG document.
func SVG(svg string) { Display(SVGString(svg)) }

// PNG shows PNG-encoded bytes.
func PNG(png []byte) {
	MIME(Bundle{Data: map[string]any{MIMEPNG: png, MIMEPlain: "<png image>"}})
}

// JPEG shows JPEG-encoded bytes.
func JPEG(jpeg []byte) {
	MIME(Bundle{Data: map[string]any{MIMEJPEG: jpeg, MIMEPlain: "<jpeg image>"}})
}

// JSON shows v as application/json; v must marshal with encoding/json.
func JSON(v any) {
	MIME(Bundle{Data: map[string]any{MIMEJSON: v, MIMEPlain: Plain(v)}})
}

// Image shows img as a PNG.
func Image(img image.Image) { Display(img) }

// ClearOutput clears the running cell's outputs; with wait, only when the next output arrives
// (no flicker for animations).
func ClearOutput(wait bool) {
	mu.RLock()
	p := publisher
	mu.RUnlock()
	if p != nil {
		p.ClearOutput(wait)
	}
}

// Flush returns once the output the running code printed so far has been sent to the notebook,
// when the publisher can tell (the kernel's can): before switching where output goes, as an
// Output widget does.
func Flush() {
	mu.RLock()
	p := publisher
	mu.RUnlock()
	if f, ok := p.(interface{ Flush() }); ok {
		f.Flush()
	}
}

// A Handle is an output that can be replaced in place: a progress bar, a live plot, streamed text.
// It carries a display_id; Update replaces every output shown with it, in any cell.
type Handle struct {
	id    string
	mu    sync.Mutex
	shown bool // Display or Update has shown it once
}

// New returns a handle with a fresh display id. Nothing is shown until Display or Update.
func New() *Handle {
	var b [16]byte
	rand.Read(b[:])
	return &Handle{id: hex.EncodeToString(b[:])}
}

// NewHandle is New, for readers who prefer the longer name.
func NewHandle() *Handle { return New() }

// ID is the handle's display_id.
func (h *Handle) ID() string { return h.id }

// Display shows v as a new output that later Updates replace.
func (h *Handle) Display(v any) {
	h.mu.Lock()
	h.shown = true
	h.mu.Unlock()
	publish(Render(v), h.id, false)
}

// Update replaces the handle's outputs with v. An Update before any Display shows v, so
// `h := display.New(); for … { h.Update(progress) }` works without a first Display.
func (h *Handle) Update(v any) {
	h.mu.Lock()
	first := !h.shown
	h.shown = true
	h.mu.Unlock()
	publish(Render(v), h.id, !first)
}

// Clear empties the handle's outputs, leaving the place for later Updates.
func (h *Handle) Clear() {
	publish(Bundle{Data: map[string]any{MIMEPlain: ""}, Metadata: map[string]any{}}, h.id, true)
}
