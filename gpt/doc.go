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
//	c := m.NewCache()                     // one slab of 2·L·BlockSize·C float32
//	logits, err := m.ForwardCached(c, ids) // only the new positions; c.Len() grows by len(ids)
//	tr, err := m.Trace(ids, gpt.TraceOptions{Position: -1}) // norms by depth, attention, timings; tr.HTML()
//	b := m.WithPrecision(gpt.BF16)        // 2 bytes per parameter, activations rounded to bf16
//	g, err := gpt.ResidualGrowth(gpt.Config{VocabSize: 1024, BlockSize: 64, Layers: 48, Heads: 12, Channels: 768}, 1, true, 64)
//
// Speed: where the CPU has AVX2 and FMA, the model's matrix products (forward and
// backward) run on a blocked sgemm of our own (sgemm_amd64.go: packed panels, a 6×16
// assembly micro-kernel, both cores), in both builds; it beats single-threaded OpenBLAS on
// the forward's shapes. The rest goes through gonum's blas32: pure Go by default (with that
// sgemm as its Sgemm), OpenBLAS when built with -tags openblas (as the Makefile does).
// One-row products (a cached decode step) run on kernels of our own that stream each
// weight once at the memory's speed (gemv.go). Attention is a fused causal kernel whose
// products run on the same micro-kernel over panels packed once per head
// (attention_packed_amd64.go), and the exponentials of softmax
// and GELU run eight at a time with AVX2 where the CPU has it. Work is split over the cores
// by a team of helper goroutines that stay awake between parallel regions (team.go).
// Every fast kernel has a naive reference beside it that the tests compare it with.
//
//	path, err := gpt.Find()     // $GPT2_WEIGHTS, or GPT-2 in the Hugging Face cache
//	m, err := gpt.LoadHF(path)  // its model.safetensors (F32, F16 or BF16) as an fp32 model
//	err = gpt.Save("gpt2-bf16.safetensors", m.WithPrecision(gpt.BF16), map[string]string{"tokenizer": "gpt2"})
//	m, meta, err := gpt.Load("gpt2-bf16.safetensors") // the config comes from the file
//	m, tok, about, err := gpt.Pretrained() // what a notebook runs: GPT-2 if found, else testdata/gopher.safetensors
//
//	g, err := gpt.NewGenerator(m, tok.Encode("Hello"), gpt.NanoGPT, true) // cached; gpt.Greedy is argmax
//	s, err := g.Step()          // one token: its probability, the positions forwarded, the cache's bytes
//	steps, err := g.Steps(50)   // g.HTML() is the table of every step, headed by the policy
//	text := gpt.GenerateText(m, 1024, tok, "Hello", 50, 0.8) // the seed's API; GenerateChan streams ids
//	u, c := gpt.Positions(11, 256)                           // 35,456 positions uncached, 266 cached
package gpt
