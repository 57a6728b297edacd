package live

import (
	"fmt"
	"html"
	"math"
	"strings"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/kernel/widget"
)

// A GenStepper is the generation stepper: a prompt box; Step, Step 10 and Reset buttons; the
// sampling policy's controls (temperature, top-k, top-p, seed), which take effect at the next
// step, keeping the text so far; and the KV cache on or off, the window (to reach a crop in a
// few steps) and the stale-cache bug on or off (the cache cropped by shifting,
// gpt.Generator.StaleCrop), which take effect at the next Reset. Each step appends one token; the Generator's own table shows every step (token, probabilities,
// positions forwarded, the cache's length and bytes, the top candidates), below the text
// so far, each generated token coloured by the probability it was drawn with.
type GenStepper struct {
	*widget.Box
	Prompt                 *widget.Text
	Temperature, TopP      *widget.FloatSlider
	TopK, Seed             *widget.IntSlider
	Cached                 *widget.Checkbox
	Window                 *widget.IntSlider // tokens the model sees; a crop past it
	Stale                  *widget.Checkbox  // crop the cache by shifting it: the bug, to watch it
	Step, Step10, ResetBtn *widget.Button
	View                   *widget.Label // an HTML widget: the generator's table

	model *gpt.Model
	tok   Tokenizer
	gen   *gpt.Generator
}

// Stepper makes the generation stepper over model, starting from prompt.
func Stepper(model *gpt.Model, tok Tokenizer, prompt string) *GenStepper {
	s := &GenStepper{
		Prompt:      widget.NewText("prompt", "type a prompt", prompt),
		Temperature: widget.NewFloatSlider("temperature", 0, 2, 0.05, 0.8),
		TopK:        widget.NewIntSlider("top-k (0 off)", 0, 200, 0),
		TopP:        widget.NewFloatSlider("top-p (1 off)", 0.05, 1, 0.05, 1),
		Seed:        widget.NewIntSlider("seed", 0, 100, 1),
		Cached:      widget.NewCheckbox("KV cache", true),
		Window:      widget.NewIntSlider("window", 2, model.Config.BlockSize, model.Config.BlockSize),
		Stale:       widget.NewCheckbox("stale-cache bug (crop by shifting)", false),
		Step:        widget.NewButton("Step"),
		Step10:      widget.NewButton("Step 10"),
		ResetBtn:    widget.NewButton("Reset"),
		View:        widget.NewHTML(""),
		model:       model,
		tok:         tok,
	}
	buttons := widget.NewHBox(s.Step, s.Step10, s.ResetBtn)
	s.Box = widget.NewVBox(s.Prompt, s.Temperature, s.TopK, s.TopP, s.Seed, s.Cached, s.Window, s.Stale, buttons, s.View)
	s.Step.OnClick(func() { s.steps(1) })
	s.Step10.OnClick(func() { s.steps(10) })
	s.ResetBtn.OnClick(s.Reset)
	s.Temperature.OnChange(func(float64) { s.setPolicy() })
	s.TopK.OnChange(func(int) { s.setPolicy() })
	s.TopP.OnChange(func(float64) { s.setPolicy() })
	s.Seed.OnChange(func(int) { s.setPolicy() })
	s.Reset()
	return s
}

// policy is the sampling policy the controls show.
func (s *GenStepper) policy() gpt.Policy {
	p := gpt.Policy{Temperature: s.Temperature.Value(), TopK: s.TopK.Value(), Seed: uint64(s.Seed.Value())}
	if tp := s.TopP.Value(); tp < 1 {
		p.TopP = tp
	}
	return p
}

// setPolicy applies the controls' policy from the next step on.
func (s *GenStepper) setPolicy() {
	if s.gen == nil {
		return
	}
	if err := s.gen.SetPolicy(s.policy()); err != nil {
		s.View.SetValue(s.gen.HTML() + "<p>" + html.EscapeString(err.Error()) + "</p>")
		return
	}
	s.View.SetValue(s.render())
}

// Reset starts again from the prompt with the controls' policy.
func (s *GenStepper) Reset() {
	p := s.policy()
	ids := s.tok.Encode(s.Prompt.Value())
	if len(ids) == 0 {
		s.gen = nil
		s.View.SetValue("<p>type a prompt</p>")
		return
	}
	g, err := gpt.NewGenerator(s.model, ids, p, s.Cached.Value())
	if err != nil {
		s.gen = nil
		s.View.SetValue("<p>" + html.EscapeString(err.Error()) + "</p>")
		return
	}
	g.Decoder = s.tok
	g.Window = max(s.Window.Value(), len(ids))
	g.StaleCrop = s.Stale.Value() && g.Cached
	s.gen = g
	s.View.SetValue(s.render())
}

// Generated is the number of tokens generated since the last Reset.
func (s *GenStepper) Generated() int {
	if s.gen == nil {
		return 0
	}
	return len(s.gen.Generated())
}

// steps generates n tokens and redraws.
func (s *GenStepper) steps(n int) {
	if s.gen == nil {
		return
	}
	if _, err := s.gen.Steps(n); err != nil {
		s.View.SetValue(s.render() + fmt.Sprintf("<p>%s</p>", html.EscapeString(err.Error())))
		return
	}
	s.View.SetValue(s.render())
}

// render is the text so far, each generated token on a background coloured by the
// probability the policy gave it (pale for a sure pick, orange for an unlikely one; its
// probabilities in the tooltip), above the Generator's table of the steps.
func (s *GenStepper) render() string {
	var b strings.Builder
	b.WriteString(`<div style="font-family:monospace;white-space:pre-wrap;line-height:1.6;margin-bottom:6px">`)
	b.WriteString(html.EscapeString(s.tok.Decode(s.gen.Tokens()[:len(s.gen.Tokens())-len(s.gen.Generated())])))
	for _, st := range s.gen.History() {
		fmt.Fprintf(&b, `<span title="step %d: p %.3f under the policy, %.3f at T = 1" style="background:%s">%s</span>`,
			st.N, st.Prob, st.ModelProb, probColor(st.Prob), html.EscapeString(s.tok.Decode([]int{st.Token})))
	}
	b.WriteString(`</div><div style="font-size:80%">background: the probability of the token drawn, <span style="background:` +
		probColor(1) + `">1</span> <span style="background:` + probColor(0.5) + `">0.5</span> <span style="background:` +
		probColor(0.1) + `">0.1</span> <span style="background:` + probColor(0.01) + `">0.01</span></div>`)
	b.WriteString(s.gen.HTML())
	return b.String()
}

// probColor maps a probability to a background: white-green near 1, through yellow, to
// orange at 0.01 and below, on a log scale, since most drawn tokens are above 0.01.
func probColor(p float64) string {
	x := 0.0 // 0 at p = 1, 1 at p ≤ 0.01
	if p < 1 {
		x = min(1, -math.Log10(max(p, 1e-9))/2)
	}
	r := 230 + int(25*x)
	g := 245 - int(85*x)
	bl := 220 - int(150*x)
	return fmt.Sprintf("rgb(%d,%d,%d)", r, g, bl)
}
