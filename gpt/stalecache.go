package gpt

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// CropStep is one step of the cached loop past its window, done right and done stale.
type CropStep struct {
	N             int     // 1 for the first generated token
	Refill, Stale int     // the token each loop picked
	MaxDiff       float64 // max |Δlogit| between the two loops' logits at this step
	Cropped       bool    // the window moved in this step
}

// CropComparison is the greedy cached loop run past a short window twice: re-prefilling the
// kept window at every crop (the Generator's way) and shifting the cache (StaleCrop, the bug).
type CropComparison struct {
	Prompt       []int
	Window       int
	Steps        []CropStep
	FirstCrop    int     // first step whose window moved
	BeforeCrop   float64 // max |Δlogit| before the first crop: 0, the loops are the same code
	AfterCrop    float64 // max |Δlogit| from the first crop on
	FirstDiverge int     // first step whose tokens differ; 0 when they never do
	Decoder      Decoder // optional: shows token text in HTML
}

// CompareCrop runs the greedy cached loop over prompt for steps tokens with a window of
// window tokens (so that crops come early), twice: once re-prefilling at every crop, once
// with StaleCrop, and compares their logits step by step. Until the first crop the two are
// the same computation; from it on, the stale loop attends to keys and values computed for
// tokens and positions it no longer has.
func CompareCrop(m *Model, prompt []int, steps, window int) (*CropComparison, error) {
	if window < 2 || window > m.Config.BlockSize {
		return nil, fmt.Errorf("gpt: compare crop: window %d, want 2…%d", window, m.Config.BlockSize)
	}
	if len(prompt) > window {
		return nil, fmt.Errorf("gpt: compare crop: a prompt of %d tokens is longer than the window of %d", len(prompt), window)
	}
	refill, err := NewGenerator(m, prompt, Greedy, true)
	if err != nil {
		return nil, fmt.Errorf("gpt: compare crop: %w", err)
	}
	stale, _ := NewGenerator(m, prompt, Greedy, true)
	refill.Window, stale.Window = window, window
	stale.StaleCrop = true
	cmp := &CropComparison{Prompt: append([]int(nil), prompt...), Window: window}
	err = lockstep(refill, stale, "refill", "stale", steps, func(sr, ss Step) {
		s := CropStep{N: sr.N, Refill: sr.Token, Stale: ss.Token, Cropped: sr.Cropped}
		s.MaxDiff, _, _ = logitStats(sr.Logits, ss.Logits)
		if s.Cropped && cmp.FirstCrop == 0 {
			cmp.FirstCrop = s.N
		}
		if cmp.FirstCrop == 0 {
			cmp.BeforeCrop = math.Max(cmp.BeforeCrop, s.MaxDiff)
		} else {
			cmp.AfterCrop = math.Max(cmp.AfterCrop, s.MaxDiff)
		}
		if s.Refill != s.Stale && cmp.FirstDiverge == 0 {
			cmp.FirstDiverge = s.N
		}
		cmp.Steps = append(cmp.Steps, s)
	})
	if err != nil {
		return nil, fmt.Errorf("gpt: compare crop: %w", err)
	}
	return cmp, nil
}

func (c *CropComparison) String() string {
	parted := "the tokens never part"
	if c.FirstDiverge > 0 {
		parted = fmt.Sprintf("the tokens part at step %d", c.FirstDiverge)
	}
	crop := "no crop"
	if c.FirstCrop > 0 {
		crop = fmt.Sprintf("first crop at step %d", c.FirstCrop)
	}
	return fmt.Sprintf("window %d, %d steps, %s: max |Δlogit| %.3g before it, %.3g after; %s",
		c.Window, len(c.Steps), crop, c.BeforeCrop, c.AfterCrop, parted)
}

// HTML renders the summary and the steps around the first crop and the divergence.
func (c *CropComparison) HTML() string {
	var b strings.Builder
	fmt.Fprintf(&b, "<p>%s</p><table><tr><th>step</th><th>crop</th><th>re-prefill</th><th>stale cache</th><th>max |Δlogit|</th></tr>",
		html.EscapeString(c.String()))
	for _, s := range c.Steps {
		near := func(k int) bool { return k > 0 && s.N >= k-2 && s.N <= k+3 }
		if !near(c.FirstCrop) && !near(c.FirstDiverge) {
			continue
		}
		crop := ""
		if s.Cropped {
			crop = "✂"
		}
		style := ""
		if s.Refill != s.Stale {
			style = ` style="background:#fde0dd"`
		}
		fmt.Fprintf(&b, "<tr%s><td>%d</td><td>%s</td><td>%s</td><td>%s</td><td>%.3g</td></tr>",
			style, s.N, crop, tokenCell(c.Decoder, s.Refill), tokenCell(c.Decoder, s.Stale), s.MaxDiff)
	}
	b.WriteString("</table>")
	return b.String()
}
