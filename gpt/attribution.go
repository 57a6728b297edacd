package gpt

import (
	"fmt"
	"strings"
)

// Direct logit attribution. The final residual stream at a position is a sum of what
// every component wrote to it: the embeddings, each head's result, each attention's bias,
// each MLP's output. ln_f is not linear, but with its scale s (ln_final.hook_scale of the
// final stream) held fixed, as TransformerLens does, each term's part of the logit of a
// token u is
//
//	(x − mean(x)) / s · (ln_f.weight ⊙ wte[u])
//
// and the terms plus ln_f.bias·wte[u] add up to the logit (in FP32, to float rounding).

// Attribution is each component's direct contribution to one logit.
type Attribution struct {
	Token, Position int
	Heads           *LayerMap // (L, NH) each head's result
	MLPs            []float64 // (L) each block's mlp_out
	Embed           float64   // hook_embed + hook_pos_embed
	AttnBiases      float64   // the attn.c_proj biases of every block, summed
	LnBias          float64   // ln_f.bias · wte[token]
	Logit           float64   // the model's logit, which the terms above add up to
}

// DirectLogitAttribution splits the logit of token at position pos (negative counts from
// the end) into each head's, each MLP's and the embeddings' direct contributions. It reads
// the residual stream, hook_z (or hook_result if kept), hook_mlp_out and
// ln_final.hook_scale from the cache: DefaultCacheNames has them.
func (c *ActivationCache) DirectLogitAttribution(pos, token int) (*Attribution, error) {
	const op = "direct logit attribution"
	if err := c.sequence(op); err != nil {
		return nil, err
	}
	pos, err := c.checkPosition(op, pos)
	if err != nil {
		return nil, err
	}
	cfg := c.Config
	L, NH, C := cfg.Layers, cfg.Heads, cfg.Channels
	if token < 0 || token >= cfg.VocabSize {
		return nil, fmt.Errorf("gpt: %s: token %d outside the vocabulary [0, %d)", op, token, cfg.VocabSize)
	}
	get := func(name string) ([]float32, error) { // the (C) row of name at pos
		a, err := c.Get(name)
		if err != nil {
			return nil, fmt.Errorf("gpt: %s: %w", op, err)
		}
		return a.Data[pos*C : (pos+1)*C], nil
	}
	scale, err := c.Get("ln_final.hook_scale")
	if err != nil {
		return nil, fmt.Errorf("gpt: %s: %w", op, err)
	}
	s := float64(scale.Data[pos])
	lnW, lnB := c.model.finalNorm()
	u := c.unembedRow(token)
	dir := make([]float64, C) // ln_f.weight ⊙ wte[token] / s
	for i := range dir {
		dir[i] = float64(lnW[i]) * float64(u[i]) / s
	}
	part := func(x []float32) float64 { // (x − mean x)·dir
		m := sum64(x) / float64(C)
		var d float64
		for i, v := range x {
			d += (float64(v) - m) * dir[i]
		}
		return d
	}

	at := &Attribution{Token: token, Position: pos,
		Heads: &LayerMap{Title: fmt.Sprintf("direct contribution of each head to the logit of token %d at position %d", token, pos),
			Columns: "head", Labels: headLabels(NH)}}
	embed, err := get("hook_embed")
	if err != nil {
		return nil, err
	}
	posEmbed, err := get("hook_pos_embed")
	if err != nil {
		return nil, err
	}
	at.Embed = part(embed) + part(posEmbed)
	for l := 0; l < L; l++ {
		results, err := c.headResults(l, pos)
		if err != nil {
			return nil, fmt.Errorf("gpt: %s: %w", op, err)
		}
		row := make([]float64, NH)
		for h := range row {
			row[h] = part(results[h*C : (h+1)*C])
		}
		at.Heads.Values = append(at.Heads.Values, row)
		at.AttnBiases += part(c.model.block(l).AttnCProjB)
		if c.Config.AttnOnly {
			continue // no MLP: MLPs stays empty
		}
		mlp, err := get(fmt.Sprintf("blocks.%d.hook_mlp_out", l))
		if err != nil {
			return nil, err
		}
		at.MLPs = append(at.MLPs, part(mlp))
	}
	for i := range u {
		at.LnBias += float64(lnB[i]) * float64(u[i])
	}
	final, err := get(fmt.Sprintf("blocks.%d.hook_resid_post", L-1))
	if err != nil {
		return nil, err
	}
	lnf := c.lnFinal(final, 1)
	for i := range u {
		at.Logit += float64(lnf[i]) * float64(u[i])
	}
	return at, nil
}

// headResults returns each head's result at pos in block l, (NH, C): hook_result from the
// cache if kept, else hook_z times each head's rows of attn.c_proj, which is the same.
func (c *ActivationCache) headResults(l, pos int) ([]float32, error) {
	NH, C := c.Config.Heads, c.Config.Channels
	HS := C / NH
	if a, ok := c.acts[fmt.Sprintf("blocks.%d.attn.hook_result", l)]; ok {
		return a.Data[pos*NH*C : (pos+1)*NH*C], nil
	}
	z, err := c.Get(fmt.Sprintf("blocks.%d.attn.hook_z", l))
	if err != nil {
		return nil, err
	}
	w := c.model.block(l) // attn.c_proj (C, C): head h's rows are h·HS … (h+1)·HS-1
	out := make([]float32, NH*C)
	for h := 0; h < NH; h++ {
		zh := z.Data[pos*C+h*HS : pos*C+(h+1)*HS]
		wh, wh16 := w.headRowsOfCProj(h, HS, C)
		conv1D(out[h*C:(h+1)*C], zh, wh, wh16, nil, 1, HS, C)
	}
	return out, nil
}

// Sum is the total of every term: the logit, to float rounding (FP32) or to the bf16
// rounding of the residual stream (BF16).
func (a *Attribution) Sum() float64 {
	s := a.Embed + a.AttnBiases + a.LnBias
	for l, row := range a.Heads.Values {
		s += a.MLPs[l]
		for _, v := range row {
			s += v
		}
	}
	return s
}

// String prints the logit, the heads' map and the other terms.
func (a *Attribution) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "logit %.4f of token %d at position %d = sum of the terms %.4f\n", a.Logit, a.Token, a.Position, a.Sum())
	b.WriteString(a.Heads.String())
	fmt.Fprintf(&b, "\nmlp by layer: %.3f\nembeddings %.3f, attention biases %.3f, ln_f bias %.3f", a.MLPs, a.Embed, a.AttnBiases, a.LnBias)
	return b.String()
}

// HTML renders the heads' map and a line with the other terms.
func (a *Attribution) HTML() string {
	return a.Heads.HTML() + fmt.Sprintf("<p>logit %.4f = heads + MLPs %.3f + embeddings %.3f + attention biases %.3f + ln_f bias %.3f</p>",
		a.Logit, a.MLPs, a.Embed, a.AttnBiases, a.LnBias)
}
