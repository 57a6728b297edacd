package check_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/gpt/check"
)

// needLesson skips a test of notebook 3c's checks when the lesson model is not there.
func needLesson(t *testing.T) {
	t.Helper()
	if _, err := gpt.LessonModelPath(); err != nil {
		t.Skipf("the checks of notebook 3c run on the lesson model, testdata/%s, which is absent: %v", gpt.LessonModel, err)
	}
}

// prevScore is a previous-token score as a student writes it: pattern[t][t−back] summed over
// t = from … T−1 and divided by div(T).
func prevScore(from, back int, div func(T int) int) func(p [][]float32) float64 {
	return func(p [][]float32) float64 {
		var s float64
		for t := from; t < len(p); t++ {
			s += float64(p[t][t-back])
		}
		return s / float64(div(len(p)))
	}
}

// inductionScore is an induction score as a student writes it: pattern[t][key(t, n)] summed
// over t = from(n) … T−1 and divided by div(n, T).
func inductionScore(from func(n int) int, key func(t, n int) int, div func(n, T int) int) func(p [][]float32, n int) float64 {
	return func(p [][]float32, n int) float64 {
		var s float64
		for t := from(n); t < len(p); t++ {
			s += float64(p[t][key(t, n)])
		}
		return s / float64(div(n, len(p)))
	}
}

func TestPreviousTokenScores(t *testing.T) {
	needLesson(t)
	for i := 0; i < 2; i++ { // the same case, right both times
		v := check.PreviousTokenScores(prevScore(1, 1, func(T int) int { return T - 1 }))
		t.Log(v)
		if !v.OK || !strings.HasPrefix(v.String(), "right: the previous-token score matches interp's to 1e-05") {
			t.Errorf("the right score: %v", v)
		}
	}
	for _, c := range []struct {
		name string
		f    func(p [][]float32) float64
		says string
	}{
		{"the query's own token", prevScore(1, 0, func(T int) int { return T - 1 }), "the diagonal off by one: pattern[t][t]"},
		{"two tokens back", prevScore(2, 2, func(T int) int { return T - 2 }), "pattern[t][t−2] is two tokens back"},
		{"the mean over keys too", prevScore(1, 1, func(T int) int { return (T - 1) * T }), "averaged over the wrong axis"},
		{"query 0 counted", prevScore(1, 1, func(T int) int { return T }), "query 0 counted"},
		{"axes swapped", func(p [][]float32) float64 { // pattern[t-1][t]
			var s float64
			for t := 1; t < len(p); t++ {
				s += float64(p[t-1][t])
			}
			return s / float64(len(p)-1)
		}, "the pattern's axes swapped"},
		{"nothing yet", func([][]float32) float64 { return 0 }, "as a function that does nothing yet gives"},
	} {
		v := check.PreviousTokenScores(c.f)
		t.Logf("%s: %v", c.name, v)
		if v.OK || !strings.Contains(v.Mistake, c.says) || !strings.Contains(v.Problem, "differs first at layer ") {
			t.Errorf("%s: verdict %v, want a mistake saying %q", c.name, v, c.says)
		}
	}
	v := check.PreviousTokenScores(func(p [][]float32) float64 { return float64(p[0][len(p)]) })
	if v.OK || !strings.Contains(v.Problem, "your function panicked on layer 0, head 0") {
		t.Errorf("an index out of range: %v", v)
	}
}

func TestInductionScores(t *testing.T) {
	needLesson(t)
	second := func(n int) int { return n + 1 }
	perQuery := func(n, T int) int { return n }
	v := check.InductionScores(inductionScore(second, func(t, n int) int { return t - n + 1 }, perQuery))
	t.Log(v)
	if !v.OK || !strings.HasPrefix(v.String(), "right: the induction score matches interp's to 1e-05") {
		t.Errorf("the right score: %v", v)
	}
	for _, c := range []struct {
		name string
		f    func(p [][]float32, n int) float64
		says string
	}{
		{"the duplicate itself", inductionScore(second, func(t, n int) int { return t - n }, perQuery), "the earlier copy of the query's own token"},
		{"two after it", inductionScore(second, func(t, n int) int { return t - n + 2 }, perQuery), "two tokens after the earlier copy"},
		{"the mean over keys too", inductionScore(second, func(t, n int) int { return t - n + 1 }, func(n, T int) int { return n * T }), "averaged over the wrong axis"},
		{"divided by every query", inductionScore(second, func(t, n int) int { return t - n + 1 }, func(n, T int) int { return T }), "the first copy included: the mean is over all 2n+1 queries"},
		{"the whole diagonal", inductionScore(func(n int) int { return n - 1 }, func(t, n int) int { return t - n + 1 }, func(n, T int) int { return n + 2 }),
			"the first copy included: the whole diagonal"},
		{"axes swapped", func(p [][]float32, n int) float64 { // pattern[t−n+1][t]
			var s float64
			for t := n + 1; t < len(p); t++ {
				s += float64(p[t-n+1][t])
			}
			return s / float64(n)
		}, "the pattern's axes swapped"},
	} {
		v := check.InductionScores(c.f)
		t.Logf("%s: %v", c.name, v)
		if v.OK || !strings.Contains(v.Mistake, c.says) {
			t.Errorf("%s: verdict %v, want a mistake saying %q", c.name, v, c.says)
		}
	}
}

// zeroZ is the right ablation as a student writes it: head's slice of hook_z cleared at
// every position.
func zeroZ(layer, head int) gpt.Hook {
	return gpt.Hook{Name: fmt.Sprintf("blocks.%d.attn.hook_z", layer), Fn: func(a *gpt.Activation) {
		T, NH, HS := a.Shape[1], a.Shape[2], a.Shape[3]
		for t := 0; t < T; t++ {
			clear(a.Data[(t*NH+head)*HS : (t*NH+head+1)*HS])
		}
	}}
}

func TestHeadAblation(t *testing.T) {
	needLesson(t)
	for name, f := range map[string]func(layer, head int) gpt.Hook{
		"z zeroed": zeroZ,
		"the values zeroed": func(layer, head int) gpt.Hook {
			h := zeroZ(layer, head)
			h.Name = fmt.Sprintf("blocks.%d.attn.hook_v", layer)
			return h
		},
		"the pattern zeroed": func(layer, head int) gpt.Hook {
			return gpt.Hook{Name: fmt.Sprintf("blocks.%d.attn.hook_pattern", layer), Fn: func(a *gpt.Activation) {
				T := a.Shape[2]
				clear(a.Data[head*T*T : (head+1)*T*T])
			}}
		},
	} {
		v := check.HeadAblation(f)
		t.Logf("%s: %v", name, v)
		if !v.OK || !strings.HasPrefix(v.String(), "right: ablating one head matches the logits with that head's z zeroed") {
			t.Errorf("%s: %v", name, v)
		}
	}
	for _, c := range []struct {
		name string
		f    func(layer, head int) gpt.Hook
		says string
	}{
		{"a hook that does nothing", func(layer, head int) gpt.Hook {
			return gpt.Hook{Name: fmt.Sprintf("blocks.%d.attn.hook_z", layer), Fn: func(a *gpt.Activation) {}}
		}, "nothing ablated"},
		{"the whole block", func(layer, head int) gpt.Hook {
			return gpt.Hook{Name: fmt.Sprintf("blocks.%d.attn.hook_z", layer), Fn: func(a *gpt.Activation) { clear(a.Data) }}
		}, "every head of the block zeroed"},
		{"the pattern's layout", func(layer, head int) gpt.Hook {
			return gpt.Hook{Name: fmt.Sprintf("blocks.%d.attn.hook_z", layer), Fn: func(a *gpt.Activation) {
				T, HS := a.Shape[1], a.Shape[3]
				clear(a.Data[head*T*HS : (head+1)*T*HS])
			}}
		}, "hook_z read in the pattern's order"},
		{"the first position only", func(layer, head int) gpt.Hook {
			return gpt.Hook{Name: fmt.Sprintf("blocks.%d.attn.hook_z", layer), Fn: func(a *gpt.Activation) {
				HS := a.Shape[3]
				clear(a.Data[head*HS : (head+1)*HS])
			}}
		}, "zeroed at the first position"},
		{"the last position only", func(layer, head int) gpt.Hook {
			return gpt.Hook{Name: fmt.Sprintf("blocks.%d.attn.hook_z", layer), Fn: func(a *gpt.Activation) {
				T, NH, HS := a.Shape[1], a.Shape[2], a.Shape[3]
				clear(a.Data[((T-1)*NH+head)*HS : ((T-1)*NH+head+1)*HS])
			}}
		}, "zeroed at the last position"},
		{"the mean", func(layer, head int) gpt.Hook {
			return gpt.Hook{Name: fmt.Sprintf("blocks.%d.attn.hook_z", layer), Fn: func(a *gpt.Activation) {
				T, NH, HS := a.Shape[1], a.Shape[2], a.Shape[3]
				for i := 0; i < HS; i++ {
					var mean float32
					for t := 0; t < T; t++ {
						mean += a.Data[(t*NH+head)*HS+i] / float32(T)
					}
					for t := 0; t < T; t++ {
						a.Data[(t*NH+head)*HS+i] = mean
					}
				}
			}}
		}, "mean-ablated"},
		{"every block", func(layer, head int) gpt.Hook {
			h := zeroZ(layer, head)
			h.Name = "blocks.*.attn.hook_z"
			return h
		}, "head h of every block"},
		{"the queries", func(layer, head int) gpt.Hook {
			h := zeroZ(layer, head)
			h.Name = fmt.Sprintf("blocks.%d.attn.hook_q", layer)
			return h
		}, "the queries zeroed"},
		{"the next head", func(layer, head int) gpt.Hook { return zeroZ(layer, head+1) }, "the wrong head"},
		{"the other block", func(layer, head int) gpt.Hook { return zeroZ(1-layer, head) }, "the wrong block"},
	} {
		v := check.HeadAblation(c.f)
		t.Logf("%s: %v", c.name, v)
		if v.OK || !strings.Contains(v.Mistake, c.says) {
			t.Errorf("%s: verdict %v, want a mistake saying %q", c.name, v, c.says)
		}
	}
	v := check.HeadAblation(func(layer, head int) gpt.Hook { return gpt.Hook{Name: "blocks.9.attn.hook_zz"} })
	if v.OK || !strings.Contains(v.Problem, "your hook for layer 0, head 0 does not run") {
		t.Errorf("a hook naming no hook point: %v", v)
	}
}
