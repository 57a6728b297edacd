package live

import (
	"strings"
	"testing"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/kernel/comm"
)

// bytes is a tokenizer of single bytes, enough for gpt.Tiny's 512 tokens.
type bytes struct{}

func (bytes) Encode(s string) []int {
	ids := make([]int, len(s))
	for i := range len(s) {
		ids[i] = int(s[i])
	}
	return ids
}

func (bytes) Decode(ids []int) string {
	b := make([]byte, len(ids))
	for i, id := range ids {
		b[i] = byte(id)
	}
	return string(b)
}

func tiny(t *testing.T) *gpt.Model {
	m, err := gpt.New(gpt.Tiny)
	if err != nil {
		t.Fatal(err)
	}
	m.Init(1, true)
	return m
}

// front plays the front end: a change of one widget, in protocol 2.1 (widgets speak it until a
// front end says otherwise).
func front(t *testing.T, id string, state map[string]any) {
	t.Helper()
	if err := comm.HandleMsg(id, map[string]any{"method": "update", "state": state, "buffer_paths": []any{}}); err != nil {
		t.Fatal(err)
	}
}

func TestSamplingExplorer(t *testing.T) {
	e := Sampling(tiny(t), bytes{}, "hello")
	s, err := e.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if s.Kept != 512 || len(s.Top) != bars || s.Mass < 0.999 {
		t.Errorf("no filter: kept %d of 512, %d bars, mass %.3f", s.Kept, len(s.Top), s.Mass)
	}
	front(t, e.TopK.ModelID(), map[string]any{"value": 5.0})
	front(t, e.TopP.ModelID(), map[string]any{"value": 0.5})
	s, _ = e.Snapshot()
	if s.Kept > 5 || s.Mass >= 1 {
		t.Errorf("top-k 5, top-p 0.5: kept %d, mass %.3f", s.Kept, s.Mass)
	}
	if fig := e.Figure.Value(); !strings.Contains(fig, "<svg") || !strings.Contains(fig, "kept of 512") {
		t.Errorf("the figure was not redrawn: %.200s", fig)
	}
	front(t, e.Temperature.ModelID(), map[string]any{"value": 0.0})
	if s, _ = e.Snapshot(); s.Kept != 1 || s.Entropy != 0 {
		t.Errorf("T = 0: kept %d, entropy %v", s.Kept, s.Entropy)
	}
	front(t, e.Prompt.ModelID(), map[string]any{"value": ""})
	if !strings.Contains(e.Figure.Value(), "type a prompt") {
		t.Errorf("an empty prompt shows %q", e.Figure.Value())
	}
}

func TestGenerationStepper(t *testing.T) {
	s := Stepper(tiny(t), bytes{}, "ab")
	click := func(id string) {
		if err := comm.HandleMsg(id, map[string]any{"method": "custom", "content": map[string]any{"event": "click"}}); err != nil {
			t.Fatal(err)
		}
	}
	click(s.Step.ModelID())
	click(s.Step.ModelID())
	if s.Generated() != 2 {
		t.Errorf("two clicks of Step generated %d tokens", s.Generated())
	}
	click(s.Step10.ModelID())
	if s.Generated() != 12 || !strings.Contains(s.View.Value(), "<table>") {
		t.Errorf("Step 10 brought it to %d tokens", s.Generated())
	}
	// The text so far: the prompt, then each generated token on its probability's colour.
	if v := s.View.Value(); strings.Count(v, `<span title="step `) != 12 || !strings.Contains(v, `title="step 12: p `) {
		t.Errorf("the coloured text shows %d tokens, want 12: %.400s", strings.Count(v, `<span title="step `), v)
	}
	click(s.ResetBtn.ModelID())
	if s.Generated() != 0 {
		t.Errorf("after Reset: %d tokens", s.Generated())
	}

	// The policy changes without a Reset: the text so far stays, the next step uses it.
	front(t, s.Temperature.ModelID(), map[string]any{"value": 0.0})
	click(s.Step.ModelID())
	if s.Generated() != 1 || s.gen.Policy.Temperature != 0 {
		t.Errorf("after T = 0 and a step: %d tokens, policy %v", s.Generated(), s.gen.Policy)
	}

	// A short window with the stale-cache bug on: the crops shift the cache, and the steps
	// past the first crop forward one position each instead of re-prefilling the window.
	front(t, s.Window.ModelID(), map[string]any{"value": 4.0})
	front(t, s.Stale.ModelID(), map[string]any{"value": true})
	click(s.ResetBtn.ModelID())
	click(s.Step10.ModelID())
	stale := s.gen.Positions()
	front(t, s.Stale.ModelID(), map[string]any{"value": false})
	click(s.ResetBtn.ModelID())
	click(s.Step10.ModelID())
	if right := s.gen.Positions(); stale >= right {
		t.Errorf("window 4, 10 steps: %d positions with the stale crop, %d re-prefilling; want fewer stale", stale, right)
	}
}

func TestTokenExplorer(t *testing.T) {
	e := Tokens("ab", "bytes", bytes{})
	if v := e.View.Value(); !strings.Contains(v, "<b>bytes</b>: 2 tokens") || !strings.Contains(v, "GPT-2") {
		t.Errorf("the view: %.300s", v)
	}
	front(t, e.Text.ModelID(), map[string]any{"value": "abc"})
	if v := e.View.Value(); !strings.Contains(v, "<b>bytes</b>: 3 tokens") {
		t.Errorf("not redrawn as the text changed: %.300s", v)
	}
}

func TestAttentionExplorer(t *testing.T) {
	e := Attention(tiny(t), bytes{}, "hello")
	if e.Query.Value() != 4 || e.Query.Get("max") != 4 {
		t.Errorf("query %d of max %v, want the last of 5", e.Query.Value(), e.Query.Get("max"))
	}
	for q := range 5 {
		sum := float32(0)
		for _, w := range e.Row(1, 2, q) {
			sum += w
		}
		if len(e.Row(1, 2, q)) != q+1 || sum < 0.999 || sum > 1.001 {
			t.Errorf("row %d: %d weights summing to %v", q, len(e.Row(1, 2, q)), sum)
		}
	}
	// The cached patterns are the attention the model's Trace records, query by query.
	for q := range 5 {
		tr, err := e.model.Trace(e.ids, gpt.TraceOptions{Position: q})
		if err != nil {
			t.Fatal(err)
		}
		for k, w := range e.Row(1, 2, q) {
			if d := w - tr.Attention[1][2][k]; d > 1e-5 || d < -1e-5 {
				t.Errorf("layer 1 head 2, query %d, key %d: %v from the cache, %v from the Trace", q, k, w, tr.Attention[1][2][k])
			}
		}
	}
	png := e.Heatmap.Value()
	front(t, e.Head.ModelID(), map[string]any{"value": 3.0})
	if !strings.Contains(e.View.Value(), "layer 0, head 3") {
		t.Errorf("not redrawn for head 3: %.200s", e.View.Value())
	}
	// The heatmap is a PNG, redrawn for the new head.
	if p := e.Heatmap.Value(); !strings.HasPrefix(string(p), "\x89PNG") || string(p) == string(png) {
		t.Errorf("heatmap: %d bytes starting %q, the same as before: %v", len(p), p[:min(len(p), 8)], string(p) == string(png))
	}
	front(t, e.Query.ModelID(), map[string]any{"value": 2.0})
	if !strings.Contains(e.View.Value(), "Query 2 &#34;l&#34; attends to") {
		t.Errorf("query 2: %.300s", e.View.Value())
	}
}
