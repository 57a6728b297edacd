package display

// Values that render as one MIME type, for Out[n] and for handles:
// `display.HTMLString("<b>hi</b>")` as a cell's last expression shows bold text.
type (
	HTMLString     string
	MarkdownString string
	LatexString    string
	SVGString      string
)

func (s HTMLString) HTML() string         { return string(s) }
func (s MarkdownString) Markdown() string { return string(s) }
func (s LatexString) Latex() string       { return string(s) }
func (s SVGString) SVG() string           { return string(s) }
