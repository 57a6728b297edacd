// Package check tells a student whether an op they wrote in a cell is right. Each check
// takes the student's function, runs it on inputs it draws from the shipped model's real
// activations (a prompt of Go source no notebook shows, a block and a head, the same for
// every call of a check, so a function gets the same verdict on every run, and a tensor
// copied from a notebook's cache does not pass), compares the
// output with the model's own op (the same tensor of a gpt.Stepper), and returns a
// Verdict: right to 1e-5, or where it first differs ("differs first at head 2, query 5,
// key 3: yours 0.21, the model's 0.18"), the shape it got wrong, the panic it raised, and
// which known mistake, run by the checker on the same inputs, gives the same output. The
// checks of notebook 3c's induction heads draw theirs from the lesson model instead
// (gpt.LessonModelPath, lesson.go), the model that has them.
//
//	v := check.Attention(myAttention)   // q, k, v (T, HS) of one head → z (T, HS)
//	v := check.MaskedSoftmax(mySoftmax) // scores (T, T) → pattern (T, T), causal
//	v := check.LayerNorm(myLayerNorm)   // x, weight, bias (C) → y (C)
//	v := check.GELU(myGELU)             // x → GELU(x), the tanh approximation
//	v := check.Residual(myAdd)          // x, y (C) → x + y
//	v := check.Unembed(myUnembed)       // x (C), wte (V, C) → logits (V)
//	v := check.Embed(myEmbed)           // (model, ids) → the stream entering block 0 (T, C)
//	v := check.AttentionLayer(myAttn)   // (model, l, ln_1's output (T, C)) → hook_attn_out (T, C)
//	v := check.MLP(myMLP)               // (model, l, ln_2's output (T, C)) → hook_mlp_out (T, C)
//	v := check.Block(myBlock)           // (model, l, hook_resid_pre (T, C)) → hook_resid_post (T, C)
//	v := check.Forward(myForward)       // (model, ids) → logits (T, V), against ForwardAll and its loss
//	v := check.Head(myPattern, cache.MustGet("blocks.3.attn.hook_pattern"), 0) // a tensor of one head, this prompt's
//	v := check.CachedLoop(myLoop)       // (model, prompt, steps) → each step's logits and the cache
//	v := check.BF16(myRound)            // x → x rounded to bfloat16, ties to even, bit for bit
//	v := check.Sampler(mySampler)       // (logits, policy) → a draw per call, token for token with gpt.Sampler
//	v := check.BPETrain(myTrain)        // (text, n) → n merge rules, rule for rule with tokenizer.Train
//	v := check.TrainLoop(myLoop)        // (model, train, val, options) → the losses, to 1e-6 with gpt.Trainer's
//	v := check.PreviousTokenScores(myPrev) // a head's pattern (T, T) → its previous-token score, for every head of the lesson model
//	v := check.InductionScores(myInd)   // (pattern of [BOS, r, r], n) → its induction score, against interp's
//	v := check.HeadAblation(myAblate)   // (layer, head) → a gpt.Hook zeroing that head's z, every head's logits compared
//	v                                   // in a cell: the verdict in words, green or orange
//	check.LayerNorm(myLayerNorm).Must() // an exercise's check cell: panics with "not yet: …"
//
// The functions are ordinary Go over []float32 and [][]float32, so a function declared in
// a cell (interpreted by yaegi) is called by the compiled checker like any other; a panic
// in it is caught and reported in the verdict. The mistakes recognised: no
// max-subtraction (the checker also runs the op on scores large enough that exp overflows
// float32 and float64 alike), the mask on the wrong triangle, no mask, the mask off by one
// either way, masked scores set to 0 rather than −Inf, the softmax over the wrong axis, a
// forgotten 1/√HS or 1/HS in its place; for LayerNorm the unbiased variance, no epsilon,
// epsilon outside the square root, the variance for the standard deviation, RMSNorm, and no
// weight and bias (the checker also runs it on a stream scaled by 1e-3, where epsilon
// matters); for GELU the exact erf form, ReLU, the sigmoid approximation, the cubic term or
// the ½ left out; for the residual add and the unembedding, returning one input alone,
// subtracting, probabilities or log-probabilities for logits; for the BPE trainer, pairs
// counted across chunk boundaries, overlapping pairs merged twice, ranks off by one and ties
// broken another way than tokenizer.Train's; for the head scores, the diagonal off by one
// either way, the pattern's axes swapped, the scores averaged over the keys as well as the
// queries, and the queries with no target (query 0, the first copy) counted in; for the head
// ablation, nothing changed, the whole block, another head or block, hook_z in the pattern's
// layout, one position only, the mean for zero, and the queries zeroed; for the training loop, the rate of step + 1,
// Update before Backward, a forward without targets, evaluating on the training split and
// gradient clipping skipped; for a whole forward (and each of its parts) the positions not
// added, HF's Conv1D weight used transposed, the causal mask missing, the heads concatenated
// out of order, a c_proj bias dropped, post-LN instead of pre-LN, a missing residual, the
// unembedding transposed, and more (reference.go).
//
// Read the files in this order:
//
//	verdict.go    Verdict: the comparison, the first difference, the mistakes recognised
//	cases.go      the inputs: the shipped model, the prompts, a draw seeded by the op
//	attention.go  Attention: one head's causal self-attention, and its wrong scales
//	softmax.go    MaskedSoftmax, and the wrong ways to mask and normalise it
//	layernorm.go  LayerNorm, and its wrong variances and epsilons
//	gelu.go       GELU in the tanh approximation, and its look-alikes
//	residual.go   Residual: the stream plus a block's output
//	unembed.go    Unembed: ln_f's output times the token table
//	reference.go  a forward over rows as a notebook writes it, and the mistakes it can make
//	parts.go      Embed, AttentionLayer, MLP, Block: the parts of a forward, against the model's activations
//	forward.go    Forward: the whole forward's logits and loss, against ForwardAll and Forward
//	head.go       Head: a tensor a cell computed for one head, against the model's on the same prompt
//	cachedloop.go CachedLoop: a greedy loop on the KV cache, against full forwards, and its broken caches
//	bf16.go       BF16: rounding to bfloat16, on the residual stream and the edge cases where roundings part
//	sampler.go    Sampler: temperature, top-k, top-p and the draw, against the library's with the same seed
//	bpetrain.go   BPETrain: a BPE trainer's merges against tokenizer.Train's, and its wrong chunks, merges, ids and ties
//	trainloop.go  TrainLoop: a training loop's losses against the Trainer's for the same seed, and its misordered steps
//	lesson.go     the lesson model of notebook 3c and its case: random tokens seen twice
//	headscores.go PreviousTokenScores, InductionScores: a head's score from its pattern, against interp's, for every head
//	ablation.go   HeadAblation: a hook zeroing one head, against the zeroed head's logits, and the wrong things ablated
package check
