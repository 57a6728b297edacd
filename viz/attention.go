package viz

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/plotter"

	"github.com/gptnotes/gptnotes/gpt"
)

// attentionGrid is a (T, T) attention matrix as gonum's GridXYZ: column = key position,
// row = query position, drawn with the first query at the top.
type attentionGrid struct {
	w []float32 // (T, T) row-major: w[q*T+k], row q sums to 1 over k ≤ q
	T int
}

func (g attentionGrid) Dims() (c, r int)   { return g.T, g.T }
func (g attentionGrid) Z(c, r int) float64 { return float64(g.w[(g.T-1-r)*g.T+c]) }
func (g attentionGrid) X(c int) float64    { return float64(c) }
func (g attentionGrid) Y(r int) float64    { return float64(r) }

// AttentionMap draws one head's attention pattern as a heat map with its colour scale: row q
// is the distribution of query position q over the key positions k ≤ q (each row sums to 1;
// the causal mask leaves the upper triangle 0). weights is (T, T) row-major, as
// blocks.LAYER.attn.hook_pattern holds it for one head; tokens, if given, label the axes.
func AttentionMap(weights []float32, tokens []string, layer, head int) (*HeatMaps, error) {
	T := int(math.Round(math.Sqrt(float64(len(weights)))))
	if T*T != len(weights) || T == 0 {
		return nil, fmt.Errorf("viz: attention map: %d weights is not a square (T, T) matrix", len(weights))
	}
	if len(tokens) != 0 && len(tokens) != T {
		return nil, fmt.Errorf("viz: attention map: %d tokens for %d positions", len(tokens), T)
	}
	p := patternPlot(weights, T, tokens, true)
	p.Title.Text = fmt.Sprintf("attention pattern, layer %d head %d", layer, head)
	return newHeatMaps("", 1, "weight", p), nil
}

// AttentionPatterns draws the attention pattern of every head of one layer, on one colour scale:
// patterns is (NH, T*T), as blocks.LAYER.attn.hook_pattern holds it for one sequence; tokens,
// if given, label the axes of the first column and the last row.
func AttentionPatterns(patterns [][]float32, tokens []string, layer int) (*HeatMaps, error) {
	if len(patterns) == 0 {
		return nil, fmt.Errorf("viz: attention patterns: no heads")
	}
	T := int(math.Round(math.Sqrt(float64(len(patterns[0])))))
	if len(tokens) != 0 && len(tokens) != T {
		return nil, fmt.Errorf("viz: attention patterns: %d tokens for %d positions", len(tokens), T)
	}
	cols := min(len(patterns), 3)
	var plots []*plot.Plot
	for h, w := range patterns {
		if len(w) != T*T || T == 0 {
			return nil, fmt.Errorf("viz: attention patterns: head %d has %d weights, want (T, T) = %d", h, len(w), T*T)
		}
		p := patternPlot(w, T, tokens, len(patterns) <= cols)
		p.Title.Text = fmt.Sprintf("head %d", h)
		plots = append(plots, p)
	}
	return newHeatMaps(fmt.Sprintf("layer %d: every head's attention pattern", layer), cols, "weight", plots...), nil
}

// patternPlot is one (T, T) pattern, query positions down the side, key positions along the
// bottom, labelled by tokens when there are any (rotated along the bottom when rotate is set).
func patternPlot(weights []float32, T int, tokens []string, rotate bool) *plot.Plot {
	p := plot.New()
	p.X.Label.Text = "key position (attended to)"
	p.Y.Label.Text = "query position"
	h := plotter.NewHeatMap(attentionGrid{weights, T}, whiteToBlue(64))
	h.Min, h.Max = 0, 1
	p.Add(h)
	names := positionNames(T, tokens)
	if len(tokens) != T {
		names = sparse(names)
	}
	rev := make([]string, T)
	for i := range names {
		rev[T-1-i] = names[i]
	}
	p.X.Tick.Marker = namedTicks(names)
	if !rotate { // side by side, the keys are numbered only: their tokens are down the side
		p.X.Tick.Marker = namedTicks(sparse(positionNames(T, nil)))
	}
	p.Y.Tick.Marker = namedTicks(rev)
	if rotate {
		p.X.Tick.Label.Rotation = math.Pi / 2
		p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = -1, -0.5
	}
	return p
}

// positionNames labels positions 0…T-1 by their tokens ("3 ' {'"), or by number alone.
func positionNames(T int, tokens []string) []string {
	names := make([]string, T)
	for i := range names {
		names[i] = strconv.Itoa(i)
		if len(tokens) == T {
			names[i] = strconv.Itoa(i) + " " + strconv.Quote(tokens[i])
		}
	}
	return names
}

// sparse keeps the labels of a long axis of position numbers at every 10th position only
// (the others become unlabelled ticks), so that 80 numbers do not print over each other;
// an axis of at most 32 positions keeps them all.
func sparse(names []string) []string {
	if len(names) <= 32 {
		return names
	}
	out := make([]string, len(names))
	for i := 0; i < len(names); i += 10 {
		out[i] = names[i]
	}
	return out
}

// ramp is a palette.Palette of colours from low to high.
type ramp []color.Color

func (r ramp) Colors() []color.Color { return r }

// whiteToBlue runs from white (weight 0) to a dark blue (weight 1).
func whiteToBlue(n int) palette.Palette {
	r := make(ramp, n)
	for i := range r {
		f := float64(i) / float64(n-1)
		r[i] = color.RGBA{uint8(255 - f*(255-8)), uint8(255 - f*(255-48)), uint8(255 - f*(255-107)), 255}
	}
	return r
}

// AttentionMatrix assembles one head's (T, T) attention weights from traces of the same T
// tokens, one per query position (traces[q].Position == q, e.g. m.Trace(ids,
// gpt.TraceOptions{Position: q}) for q = 0…T-1), for AttentionMap. A cache from
// gpt.RunWithCache holds the same matrix as blocks.LAYER.attn.hook_pattern.
func AttentionMatrix(traces []*gpt.Trace, layer, head int) ([]float32, error) {
	T := len(traces)
	w := make([]float32, T*T)
	for q, tr := range traces {
		switch {
		case tr == nil || len(tr.IDs) < T:
			return nil, fmt.Errorf("viz: attention matrix: trace %d does not cover %d positions", q, T)
		case tr.Position != q:
			return nil, fmt.Errorf("viz: attention matrix: trace %d is of query position %d, want %d", q, tr.Position, q)
		case layer < 0 || layer >= len(tr.Attention) || head < 0 || head >= len(tr.Attention[layer]):
			return nil, fmt.Errorf("viz: attention matrix: no layer %d head %d in a %d-layer trace", layer, head, len(tr.Attention))
		}
		copy(w[q*T:q*T+q+1], tr.Attention[layer][head])
	}
	return w, nil
}

// AttentionHeads draws where every head of one layer looks from the trace's query position:
// one row per head, one column per key position 0…Position. d, if not nil, labels the keys.
func AttentionHeads(tr *gpt.Trace, layer int, d gpt.Decoder) (*HeatMaps, error) {
	if layer < 0 || layer >= len(tr.Attention) {
		return nil, fmt.Errorf("viz: attention heads: no layer %d in a %d-layer trace", layer, len(tr.Attention))
	}
	heads := tr.Attention[layer]
	NH, K := len(heads), tr.Position+1
	g := headGrid{heads: heads, K: K}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("layer %d: where each head looks from position %d", layer, tr.Position)
	p.X.Label.Text = "key position (attended to)"
	p.Y.Label.Text = "head"
	h := plotter.NewHeatMap(g, whiteToBlue(64))
	h.Min, h.Max = 0, 1
	p.Add(h)
	var tokens []string
	if d != nil && K <= len(tr.IDs) {
		for _, id := range tr.IDs[:K] {
			tokens = append(tokens, d.Decode([]int{id}))
		}
	}
	names := positionNames(K, tokens)
	hs := make([]string, NH)
	for i := range hs {
		hs[NH-1-i] = strconv.Itoa(i)
	}
	p.X.Tick.Marker = namedTicks(names)
	p.Y.Tick.Marker = namedTicks(hs)
	p.X.Tick.Label.Rotation = math.Pi / 2
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = -1, -0.5
	return newHeatMaps("", 1, "weight", p), nil
}

// headGrid is (NH, K) attention rows as a GridXYZ, head 0 at the top.
type headGrid struct {
	heads [][]float32 // (NH, K)
	K     int
}

func (g headGrid) Dims() (c, r int)   { return g.K, len(g.heads) }
func (g headGrid) Z(c, r int) float64 { return float64(g.heads[len(g.heads)-1-r][c]) }
func (g headGrid) X(c int) float64    { return float64(c) }
func (g headGrid) Y(r int) float64    { return float64(r) }
