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

// AttentionMap draws one head's attention weights as a heat map: row q is the distribution of
// query position q over the key positions k ≤ q (the causal mask leaves the upper triangle 0).
// weights is (T, T) row-major; tokens, if given, label the axes.
func AttentionMap(weights []float32, tokens []string, layer, head int) (*plot.Plot, error) {
	T := int(math.Round(math.Sqrt(float64(len(weights)))))
	if T*T != len(weights) || T == 0 {
		return nil, fmt.Errorf("viz: attention map: %d weights is not a square (T, T) matrix", len(weights))
	}
	if len(tokens) != 0 && len(tokens) != T {
		return nil, fmt.Errorf("viz: attention map: %d tokens for %d positions", len(tokens), T)
	}
	p := plot.New()
	p.Title.Text = fmt.Sprintf("attention, layer %d head %d", layer, head)
	p.X.Label.Text = "key position (attended to)"
	p.Y.Label.Text = "query position"
	h := plotter.NewHeatMap(attentionGrid{weights, T}, whiteToBlue(64))
	h.Min, h.Max = 0, 1
	p.Add(h)
	names := make([]string, T)
	for i := range names {
		names[i] = strconv.Itoa(i)
		if len(tokens) == T {
			names[i] = strconv.Quote(tokens[i])
		}
	}
	rev := make([]string, T)
	for i := range names {
		rev[T-1-i] = names[i]
	}
	p.X.Tick.Marker = namedTicks(names)
	p.Y.Tick.Marker = namedTicks(rev)
	p.X.Tick.Label.Rotation = math.Pi / 2
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = -1, -0.5
	return p, nil
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
// gpt.TraceOptions{Position: q}) for q = 0…T-1), for AttentionMap.
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
func AttentionHeads(tr *gpt.Trace, layer int, d gpt.Decoder) (*plot.Plot, error) {
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
	names := make([]string, K)
	for k := range names {
		names[k] = strconv.Itoa(k)
		if d != nil && k < len(tr.IDs) {
			names[k] = strconv.Quote(d.Decode([]int{tr.IDs[k]}))
		}
	}
	hs := make([]string, NH)
	for i := range hs {
		hs[NH-1-i] = strconv.Itoa(i)
	}
	p.X.Tick.Marker = namedTicks(names)
	p.Y.Tick.Marker = namedTicks(hs)
	p.X.Tick.Label.Rotation = math.Pi / 2
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = -1, -0.5
	return p, nil
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
