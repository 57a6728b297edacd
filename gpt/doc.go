// Package gpt is GPT-2, written to be read beside a notebook: the configuration, the
// parameters in one slab with views named after the Hugging Face checkpoint, the forward
// pass with its loss, the backward pass and AdamW, the KV cache, the generation loop and
// the sampling policy, and safetensors checkpoints.
//
// It follows OpenAI's GPT-2 exactly: learned position embeddings, pre-LayerNorm blocks,
// LayerNorm with eps 1e-5 and a bias, GELU in its tanh approximation, and a token table
// that doubles as the output layer. The references it was checked against are the Hugging
// Face checkpoint layout, nanoGPT's model.py and llm.c's train_gpt2.c.
//
// Read the files in this order, the order the data flows:
//
//	config.go      Config and the presets (Small … XL, Tiny, Mini, Gopher); the parameter counts
//	params.go      Params: every weight in one slab, with views named after the checkpoint
//	init.go        GPT-2's initialisation, the residual projections scaled by 1/√(2L)
//	hookpoints.go  the table of the forward's tensors: TransformerLens's names, shapes, one
//	               sentence each, which ones bf16 rounds, and the Stepper's op for each
//	run.go         one forward, ways to run it: run.at on every line, the precision policy
//	embed.go       wte + wpe: token and position embeddings, and their backward
//	layernorm.go   LayerNorm (ln_1, ln_2, ln_f): its three steps, the fused kernel, backward
//	matmul.go      the Conv1D products (c_attn, c_proj, c_fc) and the tied output layer
//	attention.go   causal self-attention: its steps (q, k, v, scores, mask, pattern, z), the
//	               fused kernel, cached and backward
//	mlp.go         the MLP's steps (c_fc, GELU, c_proj); GELU and its backward
//	residual.go    the residual stream: x + attn(…), x + mlp(…)
//	block.go       one transformer block, pre-LayerNorm, from the steps above
//	model.go       Model and Forward: embeddings, the blocks, ln_f, the logits
//	activation.go  Activation: one named activation, with its shape and statistics
//	hooked.go      the forward run with hooks: RunWithHooks, and the watcher the cache uses
//	cache.go       RunWithCache and ActivationCache: names, shapes, sizes, Save
//	gradients.go   RunWithGradients: a metric's gradient at the hook points, from the model's own backward
//	lens.go        the logit lens: ln_f and the unembedding on every layer's residual stream
//	attribution.go direct logit attribution: each head's share of one logit
//	layermap.go    LayerMap: one number per layer and head, or layer and position
//	ablation.go    HeadAblation: zero- or mean-ablate each head, the change in loss or a logit
//	patching.go    ActivationPatching: clean into corrupted, layer × position
//	stepper.go     Stepper: the same forward paused after each op, its ops read from the table
//	stepper_html.go the Stepper in a cell: the block diagram, the op and its output
//	loss.go        softmax and cross-entropy, and their backward
//	backward.go    Backward: the blocks in reverse, every *Backward beside its forward
//	gradcheck.go   GradCheck: the backward against finite differences
//	adamw.go       AdamW, with weight decay on the matrices only
//	schedule.go    the learning rate: warm-up, then cosine decay
//	corpus.go      the training corpus: files → tokens (cached on disk) → seeded batches
//	trainer.go     Trainer: one Step is forward, backward, clip, AdamW
//	trainfile.go   the trainer in a file: SaveCheckpoint, Resume, LoadTrainCheckpoint
//	kvcache.go     the KV cache: one slab of keys and values per sequence, grown as it fills
//	tally.go       Tally: the positions a model forwarded and the caches it made
//	generate.go    Generator: one token per Step, cached or not
//	record.go      Generator.Record: what a cached generation computed, at absolute positions
//	stalecache.go  CompareCrop: the stale-cache bug (a cache cropped by shifting) beside the fix
//	sample.go      temperature, top-k, top-p: from logits to the next token
//	policy.go      Policy: the sampling settings as one value that prints itself
//	repeat.go      FirstRepeat: where greedy decoding starts looping
//	stream.go      GenerateText, GenerateChan: the streaming API
//	precision.go   FP32 and BF16
//	bf16.go        bfloat16 weights and activations: what BF16 rounds and where, its products
//	safetensors.go the safetensors format: reader and writer, not the model
//	modelfile.go   a model in a file: LoadHF, Save, Load, Find
//	open.go        Open: a model and its tokenizer from any of those files, by one rule
//	pretrained.go  Pretrained: the model a notebook opens (GPT-2, else the shipped one)
//	trace.go       Trace: residual norms by depth, attention, timings
//	compare.go     cached vs uncached, fp32 vs bf16, batched vs one at a time
//	batchinvariance.go  why a batch does not move our logits, beside a split-K product that does
//	budget.go      positions and bytes: what the cache saves and costs
//	growth.go      ResidualGrowth: the residual stream's norm by depth at init
//	fast.go        the seam: useFast, and the branch from each step to gpt/internal/fast
//
// Letters used in shape comments, defined once:
//
//	B  batch size           T  time (positions)     C  channels (width)
//	V  vocabulary size      NH attention heads      HS head size, C/NH
//	L  layers (blocks)
//
// Usage:
//
//	fmt.Println(gpt.Count(gpt.Small)) // 124,439,808 parameters tied, 163,037,184 untied
//
//	m, err := gpt.New(gpt.Small)
//	m.Init(1337, true)                    // GPT-2's init, the residual projections scaled
//	out, err := m.Forward(batch, targets) // logits (B, T, V) and the mean cross-entropy
//	out, err = m.Forward(batch, nil)      // the last position's logits (B, 1, V) only
//	c := m.NewCache()                     // one slab of keys and values, grown to 2·L·BlockSize·C numbers, in the model's precision
//	logits, err := m.ForwardCached(c, ids) // only the new positions; c.Len() grows by len(ids)
//	tr, err := m.Trace(ids, gpt.TraceOptions{Position: -1}) // norms by depth, attention, timings; tr.HTML()
//	out, cache, err := m.RunWithCache(ids)     // every position's logits, and the named activations
//	p := cache.MustGet("blocks.0.attn.hook_pattern") // (1, NH, T, T)
//	out, err = m.RunWithHooks(ids, gpt.Hook{Name: "blocks.*.attn.hook_z", Fn: func(a *gpt.Activation) { … }})
//	s, err := m.Stepper(ids)              // the forward one op at a time: s.Next(), s.RunTo(name), s.Run()
//	b := m.WithPrecision(gpt.BF16)        // 2 bytes per parameter, no fp32 copy; activations rounded to bf16
//	g, err := gpt.ResidualGrowth(gpt.Config{VocabSize: 1024, BlockSize: 64, Layers: 48, Heads: 12, Channels: 768}, 1, true, 64)
//
// Speed: each step of the forward and backward is written here as plain loops (the forward
// once, for Forward, the hooked runs and the Stepper alike), and one
// branch away (fast.go) runs a fast kernel from gpt/internal/fast that computes the same
// thing: a blocked AVX2 sgemm of our own where the CPU has AVX2 and FMA, gemv kernels that
// stream the weights of a one-row product once (in bf16 at 2 bytes a weight), the bf16
// products on AVX-512's VDPBF16PS where the CPU has it, a fused causal attention, exponentials
// eight at a time, and a team of helper goroutines that splits each step over the cores.
// The remaining products run on gonum's pure-Go BLAS, or OpenBLAS when built with
// -tags openblas (as the Makefile does); the BLAS is the kernels' own, and importing gpt
// changes no global state of gonum's. The tests run a whole forward and backward through
// both sides of the seam and compare them.
//
//	path, err := gpt.Find()     // $GPT2_WEIGHTS, or GPT-2 in the Hugging Face cache
//	m, err := gpt.LoadHF(path)  // its model.safetensors (F32, F16 or BF16) as an fp32 model
//	err = gpt.Save("gpt2-bf16.safetensors", m.WithPrecision(gpt.BF16), map[string]string{"tokenizer": "gpt2"})
//	m, meta, err := gpt.Load("gpt2-bf16.safetensors") // the config comes from the file
//	b, meta, err := gpt.LoadAs("gpt2-bf16.safetensors", gpt.BF16) // straight into bfloat16 (LoadHFAs likewise)
//	m, tok, err := gpt.Open("testdata/gopher.safetensors") // any model file, with its tokenizer
//	m, tok, about, err := gpt.Pretrained() // what a notebook runs: GPT-2 if found, else testdata/gopher.safetensors
//
//	g, err := gpt.NewGenerator(m, tok.Encode("Hello"), gpt.NanoGPT, true) // cached; gpt.Greedy is argmax
//	s, err := g.Step()          // one token: its probability, the positions forwarded, the cache's bytes
//	steps, err := g.Steps(50)   // g.HTML() is the table of every step, headed by the policy
//	g.Close()                   // its cache goes back to m, for the next Generator (g.Reserve(n) before a loop of Step)
//	text := gpt.GenerateText(m, 1024, tok, "Hello", 50, 0.8) // the seed's API; GenerateChan streams ids
//	u, c := gpt.Positions(11, 256)                           // 35,456 positions uncached, 266 cached
package gpt
