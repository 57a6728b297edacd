// Package interp holds the tools a mechanistic-interpretability lesson reaches for after
// hooks, caches, the logit lens and direct logit attribution (which package gpt has): the
// head scores, the weights read as circuits, TransformerLens's weight processing, prompt
// tests, the residual stream taken apart, path and attribution patching, and steering.
// It is built on gpt's public API — hooks, RunWithCache, Forward and Backward — so a tool
// here runs the model's one forward, never a copy of it.
//
// Every tool is checked against an independent numpy implementation on a tiny random
// model: tests/make_interp_reference.py writes testdata/reference, and the tests compare.
//
// Read the files in this order:
//
//	heads.go   head scores: previous-token, duplicate-token and induction heads, as
//	           TransformerLens's head detector scores them, and the closing-brace head
//	gate.go    the induction gate: repeated random tokens, the loss on the second copy,
//	           the best induction and previous-token heads
//	circuits.go  the weights as circuits: each head's OV and QK kept factored (Factored: SVD,
//	           Frobenius norm, eigenvalues from an HS × HS core), Q-, K- and V-composition,
//	           the full OV circuit's copying score
//	process.go   TransformerLens's weight processing as a step returning a new model: LayerNorm
//	           folded, writing weights and the unembedding centred; which cache matches which
//	prompt.go    TestPrompt: an answer's rank, logit and probability after a prompt, the top k beside
//	residual.go  the residual stream as the sum of the embeddings, each head and each MLP;
//	           accumulated per layer; through ln_f's scale, each component's share of a logit
//	patching.go  patching by head (HeadPatching), along one path (PathPatching: a sender head's
//	           effect through one receiver only), and estimated from one backward pass
//	           (AttributionPatching, with gpt's RunWithGradients)
//	steer.go     steering: a vector from two prompts' streams at a layer, added while generating
//
// Usage:
//
//	maps, err := interp.ScoreHeadsAll(m, seqs, []interp.Detector{interp.PreviousToken, interp.Induction}, interp.ScoreOptions{})
//	viz.HeadScores(maps...) // layer × head, one map per kind
//	g, err := interp.InductionGate(m, interp.GateOptions{Seqs: 8, N: 50, BOS: tok.EndTokenID(), Seed: 1})
//	g.Print(os.Stdout)
//	hs, err := interp.HeadsOf(m)
//	ov, qk := hs.Norms()              // Frobenius norms, layer × head
//	k, err := hs.Composition("K")     // k.At(0, 3, 1, 5): head 0.3 into 1.5's keys
//	p, err := interp.Process(m, interp.DefaultProcessing) // m unchanged
//	out, err := p.RunWithHooks(ids)   // logits from p's own unembedding
//	fmt.Println(interp.TestPrompt(m, tok, "func main() {", "\n", 5))
//	cs, err := interp.Decompose(m, ids, m.Config.Layers, -1) // the final stream, last position
//	shares, rest, err := cs.Attribution(m, right, wrong)     // cs.Labels[i]'s share of the difference
//	p := gpt.Patching{Clean: clean, Corrupted: corrupted, Right: right, Wrong: wrong}
//	est, err := interp.AttributionPatching(m, p)    // every head, one forward and one backward
//	r, err := interp.PathPatching(m, p, [2]int{0, 2}, [2]int{1, 3}) // head 0.2 through 1.3 only
//	v, err := interp.SteeringVector(m, tok.Encode("// error"), tok.Encode("// loop"), 3)
//	fmt.Println(interp.Steer(m, tok, "func main() {\n", interp.Steering{Layer: 3, Vector: v, Coeff: 0.5}, 16))
package interp
