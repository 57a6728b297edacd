// Package display turns Go values into Jupyter MIME bundles and publishes them from notebook cells.
//
// It is the package cells import. Two halves:
//
//   - Render(v) builds a Bundle (MIME type → data) for any value. A value whose type has one of the
//     methods HTML() string, Markdown() string, Latex() string, SVG() string, PNG() []byte,
//     JPEG() []byte or JSON() any renders as that MIME type. The interfaces are declared here
//     (HTMLer, Markdowner, …) but matched structurally, so a library never needs to import this
//     package. A *plot.Plot from gonum/plot and an image.Image render as image/png. Every bundle
//     also carries text/plain: the value formatted like %v, capped at MaxPlainText bytes.
//
//   - The cell functions (Display, HTML, Markdown, Latex, SVG, PNG, JPEG, JSON, Image, MIME,
//     ClearOutput, and Handle for output that changes in place) publish bundles through the
//     package-level Publisher. The kernel's session installs the running cell's sink with
//     SetPublisher; with no publisher installed, publishing is a no-op.
//
// A progress display that updates in place, from a cell:
//
//	h := display.New()
//	for i := 0; i <= 10; i++ {
//		h.Update(display.HTMLString(fmt.Sprintf("<progress value=%d max=10></progress>", i)))
//	}
//
// The API is deliberately non-generic: the kernel exposes it to the interpreter with yaegi extract,
// which skips generic functions and types.
package display
