package interp

import (
	"fmt"
	"math"

	"github.com/gptnotes/gptnotes/gpt"
)

// Patching by head, along one path, and estimated from gradients. Every experiment runs
// the corrupted prompt with something taken from the clean run, and measures how much
// of the clean logit difference comes back, as gpt.ActivationPatching does:
//
//	(patched − corrupted) / (clean − corrupted)   of logit[Right] − logit[Wrong] at the last position
//
// HeadPatching patches one head's z (every position) at a time. PathPatching patches a
// sender head's z but lets the change reach the rest of the model only through one
// receiver head: everything between them is frozen at its corrupted value. Attribution
// patching estimates every HeadPatching value at once, to first order, from one forward
// and one backward of the corrupted prompt: Σ (z_clean − z_corrupted) · ∂metric/∂z.

// patchRun holds what every experiment needs: both runs' z and MLP outputs, and the two
// metrics.
type patchRun struct {
	m                *gpt.Model
	p                gpt.Patching
	clean, corrupted *gpt.ActivationCache
	cleanM, corrM    float64
}

func newPatchRun(op string, m *gpt.Model, p gpt.Patching) (*patchRun, error) {
	V := m.Config.VocabSize
	switch {
	case len(p.Clean) != len(p.Corrupted):
		return nil, fmt.Errorf("interp: %s: the clean prompt has %d tokens, the corrupted one %d: they must have equal lengths", op, len(p.Clean), len(p.Corrupted))
	case p.Right < 0 || p.Right >= V || p.Wrong < 0 || p.Wrong >= V:
		return nil, fmt.Errorf("interp: %s: answers %d and %d, want ids in [0, %d)", op, p.Right, p.Wrong, V)
	}
	r := &patchRun{m: m, p: p}
	names := []string{"blocks.*.attn.hook_z"}
	if !m.Config.AttnOnly {
		names = append(names, "blocks.*.hook_mlp_out")
	}
	out, c, err := m.RunWithCache(p.Clean, names...)
	if err != nil {
		return nil, fmt.Errorf("interp: %s: %w", op, err)
	}
	r.clean, r.cleanM = c, r.metric(out)
	if out, c, err = m.RunWithCache(p.Corrupted, names...); err != nil {
		return nil, fmt.Errorf("interp: %s: %w", op, err)
	}
	r.corrupted, r.corrM = c, r.metric(out)
	if r.cleanM == r.corrM {
		return nil, fmt.Errorf("interp: %s: the clean and corrupted prompts give the same logit difference %.4g: nothing to restore", op, r.cleanM)
	}
	return r, nil
}

// metric is logit[Right] − logit[Wrong] at the last position.
func (r *patchRun) metric(out *gpt.Output) float64 {
	row := out.Row(0, out.T-1)
	return float64(row[r.p.Right]) - float64(row[r.p.Wrong])
}

// restored normalises a patched run's metric.
func (r *patchRun) restored(out *gpt.Output) float64 {
	return (r.metric(out) - r.corrM) / (r.cleanM - r.corrM)
}

// z is block l's hook_z in a cache, (T, NH, HS).
func z(c *gpt.ActivationCache, l int) []float32 {
	return c.MustGet(fmt.Sprintf("blocks.%d.attn.hook_z", l)).Data
}

// setHead copies head h's values (T, NH, HS) from src into dst.
func setHead(dst, src []float32, h, NH, HS int) {
	for t := 0; t < len(dst)/(NH*HS); t++ {
		o := (t*NH + h) * HS
		copy(dst[o:o+HS], src[o:o+HS])
	}
}

// HeadPatching runs the corrupted prompt once per head with that head's z at every
// position taken from the clean run: the fraction of the logit difference restored,
// layer × head.
func HeadPatching(m *gpt.Model, p gpt.Patching) (*gpt.LayerMap, error) {
	r, err := newPatchRun("head patching", m, p)
	if err != nil {
		return nil, err
	}
	cfg := m.Config
	L, NH, HS := cfg.Layers, cfg.Heads, cfg.HeadSize()
	lm := &gpt.LayerMap{Title: "patching each head's z: logit difference restored", Columns: "head", Labels: headLabels(NH), Values: zeros(L, NH)}
	for l := range L {
		for h := range NH {
			out, err := m.RunWithHooks(p.Corrupted, gpt.Hook{Name: fmt.Sprintf("blocks.%d.attn.hook_z", l), Fn: func(a *gpt.Activation) {
				setHead(a.Data, z(r.clean, l), h, NH, HS)
			}})
			if err != nil {
				return nil, fmt.Errorf("interp: head patching: %w", err)
			}
			lm.Values[l][h] = r.restored(out)
		}
	}
	return lm, nil
}

// PathPatching patches the sender head's z from the clean run into the corrupted one and
// lets it reach the model only through the receiver head in a later layer:
//
//  1. the corrupted prompt runs with the sender's clean z, the heads of every layer
//     between the two and the MLPs from the sender's layer up to the receiver's frozen
//     at their corrupted values, so the receiver's input differs from the corrupted run
//     by the sender's change alone, arriving directly; the receiver's z is kept;
//  2. the corrupted prompt runs with only the receiver's z replaced by that one, and
//     everything after it free.
//
// It returns the fraction of the logit difference restored.
func PathPatching(m *gpt.Model, p gpt.Patching, sender, receiver [2]int) (float64, error) {
	cfg := m.Config
	L, NH, HS := cfg.Layers, cfg.Heads, cfg.HeadSize()
	ls, hs, lr, hr := sender[0], sender[1], receiver[0], receiver[1]
	switch {
	case ls < 0 || lr >= L || ls >= lr:
		return 0, fmt.Errorf("interp: path patching: sender in layer %d, receiver in layer %d: want 0 ≤ sender < receiver < %d", ls, lr, L)
	case hs < 0 || hs >= NH || hr < 0 || hr >= NH:
		return 0, fmt.Errorf("interp: path patching: heads %d and %d, want 0 … %d", hs, hr, NH-1)
	}
	r, err := newPatchRun("path patching", m, p)
	if err != nil {
		return 0, err
	}
	var received []float32
	hooks := []gpt.Hook{{Name: fmt.Sprintf("blocks.%d.attn.hook_z", ls), Fn: func(a *gpt.Activation) {
		setHead(a.Data, z(r.clean, ls), hs, NH, HS)
	}}}
	for l := ls + 1; l < lr; l++ {
		hooks = append(hooks, gpt.Hook{Name: fmt.Sprintf("blocks.%d.attn.hook_z", l), Fn: func(a *gpt.Activation) {
			copy(a.Data, z(r.corrupted, l))
		}})
	}
	for l := ls; l < lr && !m.Config.AttnOnly; l++ {
		name := fmt.Sprintf("blocks.%d.hook_mlp_out", l)
		hooks = append(hooks, gpt.Hook{Name: name, Fn: func(a *gpt.Activation) {
			copy(a.Data, r.corrupted.MustGet(name).Data)
		}})
	}
	hooks = append(hooks, gpt.Hook{Name: fmt.Sprintf("blocks.%d.attn.hook_z", lr), Fn: func(a *gpt.Activation) {
		received = append(received[:0], a.Data...)
	}})
	if _, err := m.RunWithHooks(p.Corrupted, hooks...); err != nil {
		return 0, fmt.Errorf("interp: path patching: %w", err)
	}
	out, err := m.RunWithHooks(p.Corrupted, gpt.Hook{Name: fmt.Sprintf("blocks.%d.attn.hook_z", lr), Fn: func(a *gpt.Activation) {
		setHead(a.Data, received, hr, NH, HS)
	}})
	if err != nil {
		return 0, fmt.Errorf("interp: path patching: %w", err)
	}
	return r.restored(out), nil
}

// AttributionPatching estimates HeadPatching from one forward and one backward of the
// corrupted prompt (gpt's RunWithGradients): for each head, Σ over positions and its HS
// values of (z_clean − z_corrupted) · ∂metric/∂z, divided by clean − corrupted.
func AttributionPatching(m *gpt.Model, p gpt.Patching) (*gpt.LayerMap, error) {
	r, err := newPatchRun("attribution patching", m, p)
	if err != nil {
		return nil, err
	}
	cfg := m.Config
	L, NH, HS := cfg.Layers, cfg.Heads, cfg.HeadSize()
	_, grads, err := m.RunWithGradients(p.Corrupted, func(out *gpt.Output) []float32 {
		d := make([]float32, len(out.Logits))
		last := (out.T - 1) * out.V
		d[last+p.Right] += 1
		d[last+p.Wrong] -= 1
		return d
	}, "blocks.*.attn.hook_z")
	if err != nil {
		return nil, fmt.Errorf("interp: attribution patching: %w", err)
	}
	lm := &gpt.LayerMap{Title: "attribution patching: estimated logit difference restored", Columns: "head", Labels: headLabels(NH), Values: zeros(L, NH)}
	span := r.cleanM - r.corrM
	for l := range L {
		zc, zr := z(r.clean, l), z(r.corrupted, l)
		g := grads.MustGet(fmt.Sprintf("blocks.%d.attn.hook_z", l)).Data
		for i := range g {
			h := (i / HS) % NH
			lm.Values[l][h] += float64(zc[i]-zr[i]) * float64(g[i]) / span
		}
	}
	return lm, nil
}

// Pearson is the correlation of two maps of the same shape, over every cell.
func Pearson(a, b *gpt.LayerMap) float64 {
	var xs, ys []float64
	for l := range a.Values {
		xs = append(xs, a.Values[l]...)
		ys = append(ys, b.Values[l]...)
	}
	n := float64(len(xs))
	var mx, my float64
	for i := range xs {
		mx += xs[i] / n
		my += ys[i] / n
	}
	var sxy, sxx, syy float64
	for i := range xs {
		sxy += (xs[i] - mx) * (ys[i] - my)
		sxx += (xs[i] - mx) * (xs[i] - mx)
		syy += (ys[i] - my) * (ys[i] - my)
	}
	return sxy / math.Sqrt(sxx*syy)
}
