// Package study is the study of GPT-2 inference that gptnotes reproduces, as code: each of
// its measurements is a Row, whose function measures ours with packages gpt and tokenizer,
// draws the figure with viz, and returns a Result a notebook cell can show. The study's own
// figures, and the one PyTorch baseline measured on this project's machine, are stated once,
// with their sources, in package reference; viz marks them on its figures from there.
//
//	rows, err := study.Select(study.Rows(), []string{"positions", "kv-cache"})
//	r := study.NewRun(study.Options{Out: "reproduce-out"})
//	err = r.Report(rows)                 // reproduce-out/report.md and the figures
//	res, err := r.Measure("token-share") // one row: res.Ours, res.Model; res.HTML() in a cell
//	share, ok := res.Value("share")      // its figures as numbers: 0.31…
//
// `gptnotes reproduce` is a Run over every row this machine can run.
//
// # The measurements
//
// GPT-2's configuration and its five decisions. GPT-2 small has 1,024 positions, 12 blocks
// of 12 heads and width 768, and a vocabulary of 50,257 tokens (nanoGPT pads it to 50,304, a
// multiple of 64). Tying the token table to the output layer gives 124,439,808 parameters;
// untied there would be 163,037,184, and the table alone is about 31% of the tied model.
// Positions are a learned table wpe of shape [1024, 768], so 1,100 positions cannot be
// forwarded. GPT-2 initialises every matrix and both tables from N(0, 0.02), and the two
// matrices of each block that write into the residual stream from N(0, 0.02/√(2L)), which
// keeps the stream's norm about 11 times its input whatever the depth, where plain init
// lets it grow about 55 times at 12 blocks and 112 at 48. Its tokenizer is byte-level BPE:
// every string encodes, and there is no unknown token.
//
// Training is one call. A forward with targets returns logits for every position and one
// loss, the mean cross-entropy, near ln 50,257 ≈ 10.8 before training; without targets, the
// logits of the last position only. One forward over 1,024 positions took the study 0.23 s.
//
// Generation is a loop. Without a cache, 256 new tokens after an 11-token prompt push 35,456
// positions through the stack; with one, 266. At 64, 256 and 512 new tokens that is 37, 133
// and 261 times the positions, yet only 2.9, 5.0 and 7.4 times the time, because a step of
// one sequence reads every weight either way. The cache holds 2·L·T·C numbers: about 74 kB
// per position for GPT-2 small in fp32, 75 MB at 1,024 positions; GPT-2 XL in bf16 needs
// 315 MB a sequence, so about ten sequences weigh as much as its 3.1 GB of weights. Past the
// block size, dropping the oldest position makes the whole cache stale, and a cached loop
// must recompute.
//
// Same weights, different bugs. The cached and uncached greedy loops write the same text,
// but their logits differ by up to 0.011, almost all of it a shift that softmax ignores
// (the top-2 gap moved by at most 0.00005, against a narrowest gap of 0.004): after the
// prompt every product sees one row instead of T, so other kernels sum in another order.
// Rounding the weights to bf16 changes the text from the third token on; a batch of eight
// copies of a prompt keeps its tokens but moves its logits by up to 0.005. Temperature 0
// divides by zero in nanoGPT, and means argmax in most APIs; the same seed on the same
// machine samples the same tokens.
//
// Sampling is a policy on top. After "The capital of France is", GPT-2 small's top token
// " the" has 8.5% and " Paris" is fifth at 3.2%; 90% of the mass takes 1,504 tokens; the
// entropy is 8.7 bits. After "import numpy as", " np" has 85%, 90% takes 3 tokens, 1.5 bits.
// nanoGPT's defaults (temperature 0.8, top-k 200, no top-p) keep 89% of the first and, for
// the second, 199 options sharing under 5%; top-p 0.9 at 0.8 keeps 237 and 1. Greedy GPT-2
// small repeats its own sentence within 200 tokens.
//
// The habits the study draws, each a test in this repository: compare the cached loop with
// the full forward on logits, with a tolerance (gpt's TestForwardCachedMatchesForward);
// budget the cache like the weights (gpt.Budget); pin what you compare, since dtype, batch
// shape and kernel all move logits (gpt.ComparePrecision, gpt.CompareBatch); and log the
// sampling policy with every output (gpt.Policy prints itself).
//
// Rows that are properties of OpenAI's trained checkpoint run on it when it is found
// (gpt.Find), and say so otherwise; rows about a trained model fall back to the small model
// shipped in testdata/.
//
// Read the files in this order: run.go (Row, Result, Run, the report), rows.go (the table of
// every row, in the order above), models.go (the models rows share), then one file per
// section of the study with its rows' functions: configuration.go, training.go,
// generation.go, differences.go, sampling.go; notebookfigures.go (figures of the notebooks
// that are not rows); and reference/reference.go (the study's figures and their sources).
package study
