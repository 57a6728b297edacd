package viz_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/gptnotes/gptnotes/viz"
)

func TestSliderHTML(t *testing.T) {
	s := &viz.Slider{Title: "t", Controls: []viz.Control{
		{Label: "a", Values: []string{"x", "y"}, Select: true, Start: 1},
		{Label: "b", Values: []string{"1", "2", "3"}, Start: 2},
	}}
	for i := 0; i < 6; i++ {
		s.Frames = append(s.Frames, viz.Frame{SVG: "<svg></svg>", Caption: "<frame> & " + string(rune('0'+i))})
	}
	h1, h2 := s.HTML(), s.HTML()
	id := regexp.MustCompile(`id="(gptnotes-viz-[0-9a-f]+-[0-9]+)"`)
	m1, m2 := id.FindStringSubmatch(h1), id.FindStringSubmatch(h2)
	if m1 == nil || m2 == nil || m1[1] == m2[1] {
		t.Fatalf("two renderings must use different element ids: %v, %v", m1, m2)
	}
	// The frame of (1, 2) is 1*3+2 = 5, and only it is visible.
	if !strings.Contains(h1, `-f5" style="display:block"`) || strings.Count(h1, "display:block") != 1 {
		t.Errorf("frame 5 should be the only one shown:\n%s", h1)
	}
	if strings.Contains(h1, "<frame>") || !strings.Contains(h1, "&lt;frame&gt; &amp; 5") {
		t.Errorf("captions must be escaped")
	}
	if strings.Count(h1, "<script>") != 1 || strings.Contains(h1, "src=") {
		t.Errorf("want one inline script and nothing loaded")
	}
	s.Frames = s.Frames[:5]
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), "5 frames, the controls select among 6") {
		t.Errorf("Validate = %v, want a frame-count error", err)
	}
	if h := s.HTML(); !strings.HasPrefix(h, "<pre>viz: slider") {
		t.Errorf("an invalid slider renders its error, got %.60q", h)
	}
}
