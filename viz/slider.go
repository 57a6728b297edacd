package viz

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"strings"
	"sync/atomic"
)

// A Slider is an interactive figure as one self-contained HTML value: every frame is an SVG drawn
// in Go ahead of time, and a few lines of plain JavaScript show the frame the controls select.
// It needs no network and no kernel (the frames are all there), so it works in the classic
// notebook, JupyterLab, and nbconvert's HTML; where scripts do not run (an untrusted notebook)
// the starting frame stays visible.
//
// With several controls the frames are in row-major order of the controls: for controls with
// n0, n1, n2 values, the frame of choice (i0, i1, i2) is Frames[(i0*n1+i1)*n2+i2].
type Slider struct {
	Title    string
	Controls []Control
	Frames   []Frame
}

// A Control is one range slider (or, with Select, a drop-down) over a list of labelled values.
type Control struct {
	Label  string   // e.g. "new tokens"
	Values []string // the label of each position, e.g. "64", "128", …
	Start  int      // the position shown first
	Select bool     // a drop-down instead of a range slider
}

// A Frame is what one setting of the controls shows: a figure and a line of text under it.
type Frame struct {
	SVG     string // inline SVG, e.g. from SVGOf
	Caption string // plain text; escaped when rendered
}

// idSeq and idSalt make element ids unique within a page, also across kernel restarts, when
// several sliders are in one notebook.
var (
	idSeq  atomic.Uint64
	idSalt = func() string {
		b := make([]byte, 4)
		rand.Read(b)
		return hex.EncodeToString(b)
	}()
)

func newID() string { return fmt.Sprintf("gptnotes-viz-%s-%d", idSalt, idSeq.Add(1)) }

// start is the index of the frame the controls show first.
func (s *Slider) start() int {
	k := 0
	for _, c := range s.Controls {
		k = k*len(c.Values) + c.Start
	}
	return k
}

// Validate reports a slider whose frames do not match its controls.
func (s *Slider) Validate() error {
	n := 1
	for _, c := range s.Controls {
		if len(c.Values) == 0 {
			return fmt.Errorf("viz: slider %q: control %q has no values", s.Title, c.Label)
		}
		if c.Start < 0 || c.Start >= len(c.Values) {
			return fmt.Errorf("viz: slider %q: control %q starts at %d of %d values", s.Title, c.Label, c.Start, len(c.Values))
		}
		n *= len(c.Values)
	}
	if len(s.Frames) != n {
		return fmt.Errorf("viz: slider %q: %d frames, the controls select among %d", s.Title, len(s.Frames), n)
	}
	return nil
}

// String describes the slider for text/plain (the frames are only in HTML).
func (s *Slider) String() string {
	return fmt.Sprintf("<slider %q: %d frames>", s.Title, len(s.Frames))
}

// HTML renders the slider; each call uses new element ids, so the same value can be shown twice.
func (s *Slider) HTML() string {
	if err := s.Validate(); err != nil {
		return "<pre>" + html.EscapeString(err.Error()) + "</pre>"
	}
	id := newID()
	var b strings.Builder
	fmt.Fprintf(&b, "<div id=%q class=\"gptnotes-slider\" style=\"font-family:sans-serif\">\n", id)
	if s.Title != "" {
		fmt.Fprintf(&b, "<div style=\"font-weight:bold\">%s</div>\n", html.EscapeString(s.Title))
	}
	b.WriteString("<div>\n")
	for i, c := range s.Controls {
		cid := fmt.Sprintf("%s-c%d", id, i)
		fmt.Fprintf(&b, "<label for=%q style=\"margin-right:0.5em\">%s</label>", cid, html.EscapeString(c.Label))
		if c.Select {
			fmt.Fprintf(&b, "<select id=%q>", cid)
			for j, v := range c.Values {
				sel := ""
				if j == c.Start {
					sel = " selected"
				}
				fmt.Fprintf(&b, "<option value=\"%d\"%s>%s</option>", j, sel, html.EscapeString(v))
			}
			b.WriteString("</select>")
		} else {
			fmt.Fprintf(&b, "<input type=\"range\" id=%q min=\"0\" max=\"%d\" step=\"1\" value=\"%d\" style=\"vertical-align:middle\">",
				cid, len(c.Values)-1, c.Start)
			fmt.Fprintf(&b, " <output id=\"%s-v\" style=\"display:inline-block;min-width:4em\">%s</output>",
				cid, html.EscapeString(c.Values[c.Start]))
		}
		b.WriteString("\n")
	}
	b.WriteString("</div>\n")
	start := s.start()
	for k, f := range s.Frames {
		display := "none"
		if k == start {
			display = "block"
		}
		fmt.Fprintf(&b, "<div id=\"%s-f%d\" style=\"display:%s\">%s<div>%s</div></div>\n",
			id, k, display, f.SVG, html.EscapeString(f.Caption))
	}
	b.WriteString("</div>\n")
	b.WriteString(s.script(id))
	return b.String()
}

// script is the JavaScript behind the controls: on input, compute the frame index from the
// controls' positions, show that frame, hide the one shown before, update the value labels.
func (s *Slider) script(id string) string {
	var sizes []int
	var labels [][]string
	for _, c := range s.Controls {
		sizes = append(sizes, len(c.Values))
		labels = append(labels, c.Values)
	}
	sz, _ := json.Marshal(sizes)
	lb, _ := json.Marshal(labels)
	return fmt.Sprintf(`<script>
(function () {
  var id = %q, sizes = %s, labels = %s, shown = %d;
  function el(s) { return document.getElementById(id + s); }
  function update() {
    var k = 0;
    for (var i = 0; i < sizes.length; i++) {
      var v = +el("-c" + i).value, out = el("-c" + i + "-v");
      k = k * sizes[i] + v;
      if (out) out.textContent = labels[i][v];
    }
    if (k === shown) return;
    el("-f" + shown).style.display = "none";
    el("-f" + k).style.display = "block";
    shown = k;
  }
  for (var i = 0; i < sizes.length; i++) el("-c" + i).addEventListener("input", update);
})();
</script>
`, id, sz, lb, s.start())
}
