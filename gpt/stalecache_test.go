package gpt

import "testing"

// The stale cache in front of the student: until the first crop the two loops are the same
// computation (Δ = 0); from it on the shifted cache gives other logits, with no error, while
// the re-prefilling loop keeps matching a forward of its window.
func TestCompareCropStaleCacheIsWrong(t *testing.T) {
	m, err := New(Tiny)
	if err != nil {
		t.Fatal(err)
	}
	m.Init(11, true)
	prompt := []int{1, 2, 3, 4, 5, 6, 7, 8}
	c, err := CompareCrop(m, prompt, 24, 12)
	if err != nil {
		t.Fatal(err)
	}
	t.Log(c)
	if c.FirstCrop != 12-len(prompt)+2 {
		t.Errorf("first crop at step %d, want %d (the context outgrows 12 tokens)", c.FirstCrop, 12-len(prompt)+2)
	}
	if c.BeforeCrop != 0 {
		t.Errorf("before the first crop the loops differ by %g, want 0", c.BeforeCrop)
	}
	if c.AfterCrop < 1e-3 {
		t.Errorf("after the crop the stale cache moved the logits by only %g", c.AfterCrop)
	}

	// The re-prefilling loop is right: its logits at every step are a forward of its window.
	g, _ := NewGenerator(m, prompt, Greedy, true)
	g.Window, g.KeepLogits = 12, true
	steps, err := g.Steps(24)
	if err != nil {
		t.Fatal(err)
	}
	ids := append([]int(nil), prompt...)
	for _, s := range steps {
		window := ids[max(0, len(ids)-12):]
		want, err := m.NextLogits(window)
		if err != nil {
			t.Fatal(err)
		}
		if d, _, _ := logitStats(want, s.Logits); d > 1e-4 {
			t.Errorf("step %d: re-prefill logits differ from a forward of the window by %g", s.N, d)
		}
		ids = append(ids, s.Token)
	}

	var cache = m.NewCache()
	if err := cache.DropOldest(1); err == nil {
		t.Error("dropping from an empty cache succeeded")
	}
	if _, err := CompareCrop(m, prompt, 4, 4); err == nil {
		t.Error("a prompt longer than the window was accepted")
	}
}
