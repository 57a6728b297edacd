package interp

import (
	"fmt"
	"math"
	"math/cmplx"

	"gonum.org/v1/gonum/mat"

	"github.com/gptnotes/gptnotes/gpt"
)

// The weights read as circuits ("A Mathematical Framework for Transformer Circuits"). In
// the row-vector convention of GPT-2's Conv1D (y = x·W), head h of a block reads the
// residual stream x (1, C) and writes back
//
//	x · W_V · W_O       its OV circuit: what it moves, W_V (C, HS), W_O (HS, C)
//	x_q · W_Q · W_Kᵀ · x_kᵀ  its QK circuit: where it looks, W_Q, W_K (C, HS)
//
// W_Q, W_K and W_V are head h's HS columns of each third of attn.c_attn's weight, W_O its
// HS rows of attn.c_proj's. OV and QK are C × C matrices of rank at most HS, so they are
// kept as their factors (Factored) and never multiplied out; their singular values and
// Frobenius norms come from an HS × HS core. The same holds for a head's full OV circuit
// over tokens, W_E · W_V · W_O · W_U, a V × V matrix that is never held: its eigenvalues
// are those of the HS × HS product W_O · W_U · W_E · W_V.
//
// Biases are left out, as in the paper and TransformerLens. The weights are the model's
// own: for TransformerLens's numbers (which fold LayerNorm in first) run Process first.

// Factored is the product A·B of an (m, r) and an (r, n) matrix, kept as its factors.
type Factored struct {
	A, B *mat.Dense
}

// Dims is the product's shape, (m, n).
func (f Factored) Dims() (m, n int) {
	m, _ = f.A.Dims()
	_, n = f.B.Dims()
	return m, n
}

// T is the transpose Bᵀ·Aᵀ, still factored.
func (f Factored) T() Factored { return Factored{A: denseT(f.B), B: denseT(f.A)} }

// Mul is f·g, factored through the smaller inner dimension: A·(B·C)·D keeps f's left
// factor and folds the rest into the right one.
func (f Factored) Mul(g Factored) Factored {
	var mid, right mat.Dense
	mid.Mul(f.B, g.A)    // (r, r')
	right.Mul(&mid, g.B) // (r, n')
	return Factored{A: f.A, B: &right}
}

// Norm is the Frobenius norm, √trace((AᵀA)(BBᵀ)), computed on r × r matrices.
func (f Factored) Norm() float64 {
	var ata, bbt mat.Dense
	ata.Mul(f.A.T(), f.A)
	bbt.Mul(f.B, f.B.T())
	s := 0.0
	r, _ := ata.Dims()
	for i := 0; i < r; i++ {
		for j := 0; j < r; j++ {
			s += ata.At(i, j) * bbt.At(j, i)
		}
	}
	return math.Sqrt(math.Max(s, 0))
}

// SVD returns the product's singular values, largest first (r of them), and its left and
// right singular vectors as the columns of U (m, r) and V (n, r): A = Qa·Ra and Bᵀ = Qb·Rb
// (QR), then the SVD of the r × r core Ra·Rbᵀ.
func (f Factored) SVD() (s []float64, U, V *mat.Dense, err error) {
	var qa, qb mat.QR
	qa.Factorize(f.A)
	qb.Factorize(denseT(f.B))
	var Qa, Ra, Qb, Rb mat.Dense
	qa.QTo(&Qa)
	qa.RTo(&Ra)
	qb.QTo(&Qb)
	qb.RTo(&Rb)
	m, r := f.A.Dims()
	_, n := f.B.Dims()
	r = min(r, m, n)
	ra, rb := Ra.Slice(0, r, 0, r), Rb.Slice(0, r, 0, r)
	var core mat.Dense
	core.Mul(ra, rb.T())
	var svd mat.SVD
	if !svd.Factorize(&core, mat.SVDThin) {
		return nil, nil, nil, fmt.Errorf("interp: svd of a factored matrix did not converge")
	}
	var uc, vc mat.Dense
	svd.UTo(&uc)
	svd.VTo(&vc)
	U, V = &mat.Dense{}, &mat.Dense{}
	U.Mul(Qa.Slice(0, m, 0, r), &uc)
	V.Mul(Qb.Slice(0, n, 0, r), &vc)
	return svd.Values(nil), U, V, nil
}

// Eigenvalues returns the non-zero eigenvalues of the square product A·B: those of B·A,
// an r × r matrix (AB and BA share them).
func (f Factored) Eigenvalues() ([]complex128, error) {
	if m, n := f.Dims(); m != n {
		return nil, fmt.Errorf("interp: eigenvalues of a %d × %d matrix", m, n)
	}
	var ba mat.Dense
	ba.Mul(f.B, f.A)
	var e mat.Eigen
	if !e.Factorize(&ba, mat.EigenNone) {
		return nil, fmt.Errorf("interp: eigenvalues did not converge")
	}
	return e.Values(nil), nil
}

func denseT(a *mat.Dense) *mat.Dense {
	var t mat.Dense
	t.CloneFrom(a.T())
	return &t
}

// Heads are one model's heads as circuits.
type Heads struct {
	Config     gpt.Config
	WQ, WK, WV [][]*mat.Dense // [layer][head] (C, HS)
	WO         [][]*mat.Dense // [layer][head] (HS, C)
	WE, WU     *mat.Dense     // (V, C) the token table and (C, V) the unembedding, wteᵀ when tied
}

// HeadsOf reads m's per-head weights (an FP32 model; BF16 keeps no fp32 parameters).
func HeadsOf(m *gpt.Model) (*Heads, error) {
	if m.Params == nil {
		return nil, fmt.Errorf("interp: circuits: a %v model has no fp32 weights; use an FP32 model", m.Precision)
	}
	cfg := m.Config
	C, NH, HS, V := cfg.Channels, cfg.Heads, cfg.HeadSize(), cfg.VocabSize
	h := &Heads{Config: cfg}
	cols := func(w []float32, stride, off int) *mat.Dense { // (C, HS): columns off … off+HS of a (C, stride) matrix
		d := mat.NewDense(C, HS, nil)
		for i := 0; i < C; i++ {
			for j := 0; j < HS; j++ {
				d.Set(i, j, float64(w[i*stride+off+j]))
			}
		}
		return d
	}
	for l := range cfg.Layers {
		b := &m.Params.H[l]
		var q, k, v, o []*mat.Dense
		for hd := range NH {
			q = append(q, cols(b.CAttnW, 3*C, hd*HS))
			k = append(k, cols(b.CAttnW, 3*C, C+hd*HS))
			v = append(v, cols(b.CAttnW, 3*C, 2*C+hd*HS))
			wo := mat.NewDense(HS, C, nil)
			for i := 0; i < HS; i++ {
				for j := 0; j < C; j++ {
					wo.Set(i, j, float64(b.AttnCProjW[(hd*HS+i)*C+j]))
				}
			}
			o = append(o, wo)
		}
		h.WQ, h.WK, h.WV, h.WO = append(h.WQ, q), append(h.WK, k), append(h.WV, v), append(h.WO, o)
	}
	h.WE = mat.NewDense(V, C, nil)
	for i, x := range m.Params.Wte {
		h.WE.Set(i/C, i%C, float64(x))
	}
	h.WU = denseT(h.WE)
	return h, nil
}

// OV is head (l, h)'s OV circuit W_V·W_O, (C, C) of rank HS.
func (hs *Heads) OV(l, h int) Factored { return Factored{A: hs.WV[l][h], B: hs.WO[l][h]} }

// QK is head (l, h)'s QK circuit W_Q·W_Kᵀ, (C, C) of rank HS: query side rows, key side columns.
func (hs *Heads) QK(l, h int) Factored { return Factored{A: hs.WQ[l][h], B: denseT(hs.WK[l][h])} }

// FullOV is the OV circuit over tokens, W_E·W_V·W_O·W_U, (V, V) of rank HS: row a is what
// attending to token a adds to each next-token logit.
func (hs *Heads) FullOV(l, h int) Factored {
	var left, right mat.Dense
	left.Mul(hs.WE, hs.WV[l][h])  // (V, HS)
	right.Mul(hs.WO[l][h], hs.WU) // (HS, V)
	return Factored{A: &left, B: &right}
}

// CopyingScore is the Framework paper's measure of a head that copies: the full OV
// circuit's eigenvalues λ, Σλ / Σ|λ|. 1 when every eigenvalue is positive (attending to a
// token raises that token's logit), −1 when every one is negative.
func (hs *Heads) CopyingScore(l, h int) (float64, error) {
	ev, err := hs.FullOV(l, h).Eigenvalues()
	if err != nil {
		return 0, err
	}
	var sum complex128
	abs := 0.0
	for _, e := range ev {
		sum += e
		abs += cmplx.Abs(e)
	}
	if abs == 0 {
		return 0, nil
	}
	return real(sum) / abs, nil
}

// Norms returns the Frobenius norms of every head's OV and of its QK circuit, layer × head.
func (hs *Heads) Norms() (ov, qk *gpt.LayerMap) {
	L, NH := hs.Config.Layers, hs.Config.Heads
	ov = &gpt.LayerMap{Title: "‖W_V·W_O‖ (Frobenius)", Columns: "head", Labels: headLabels(NH), Values: zeros(L, NH)}
	qk = &gpt.LayerMap{Title: "‖W_Q·W_Kᵀ‖ (Frobenius)", Columns: "head", Labels: headLabels(NH), Values: zeros(L, NH)}
	for l := range L {
		for h := range NH {
			ov.Values[l][h] = hs.OV(l, h).Norm()
			qk.Values[l][h] = hs.QK(l, h).Norm()
		}
	}
	return ov, qk
}

// Composition is how strongly heads of a later layer read what heads of an earlier one
// write: Scores[l1·NH+h1][l2·NH+h2] for l1 < l2, and 0 elsewhere.
type Composition struct {
	Kind   string // "Q", "K" or "V"
	NH     int
	Scores [][]float64 // (L·NH, L·NH)
}

// At is the score of (l1, h1) writing into (l2, h2).
func (c *Composition) At(l1, h1, l2, h2 int) float64 { return c.Scores[l1*c.NH+h1][l2*c.NH+h2] }

// Composition scores every pair of heads in different layers, as the Framework paper
// defines them: for the product M of the earlier head's OV circuit with what the later one
// reads through,
//
//	Q:  M = OV₁ · QK₂       the later head's queries read the earlier head's output
//	K:  M = OV₁ · QK₂ᵀ      its keys do
//	V:  M = OV₁ · OV₂       its values do
//
// the score is ‖M‖ / (‖OV₁‖·‖QK₂ or OV₂‖), Frobenius norms: near 1 when what one writes
// lies where the other reads, small when the two subspaces miss each other.
func (hs *Heads) Composition(kind string) (*Composition, error) {
	L, NH := hs.Config.Layers, hs.Config.Heads
	reads := map[string]func(l, h int) Factored{
		"Q": hs.QK,
		"K": func(l, h int) Factored { return hs.QK(l, h).T() },
		"V": hs.OV,
	}[kind]
	if reads == nil {
		return nil, fmt.Errorf("interp: composition %q: want Q, K or V", kind)
	}
	c := &Composition{Kind: kind, NH: NH, Scores: zeros(L*NH, L*NH)}
	for l1 := range L {
		for h1 := range NH {
			ov := hs.OV(l1, h1)
			n1 := ov.Norm()
			for l2 := l1 + 1; l2 < L; l2++ {
				for h2 := range NH {
					r := reads(l2, h2)
					if d := n1 * r.Norm(); d > 0 {
						c.Scores[l1*NH+h1][l2*NH+h2] = ov.Mul(r).Norm() / d
					}
				}
			}
		}
	}
	return c, nil
}
