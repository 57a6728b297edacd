package study

import (
	"fmt"
	"math"
	"strconv"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/study/reference"
)

// The rows of the study, in its order (doc.go). Each row function measures with the gpt
// package and writes its figures with viz; nothing here is a stored answer. The study's own
// figures come from package reference.

// residualStudy is the residual row's study figure, and PyTorch's on this machine.
func residualStudy() string {
	g, pt := reference.ResidualGrowth, reference.PyTorch.ResidualGrowth
	return fmt.Sprintf("scaled ≈%g× at %d blocks, ≈%g× at %d; plain 0.02 ≈%g× at %d, ≈%g× at %d (PyTorch here: %.2f, %.2f, %.2f, %.2f)",
		g[0].Ratio, g[0].Layers, g[1].Ratio, g[1].Layers, g[2].Ratio, g[2].Layers, g[3].Ratio, g[3].Layers, pt[0], pt[1], pt[2], pt[3])
}

// plain formats x without an exponent: 0.00005, not 5e-05.
func plain(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// Rows are the study's measurements, in the order of the package documentation.
func Rows() []Row {
	pt := reference.PyTorch
	sp, st := reference.DecodePositionRatios, reference.DecodeTimeRatios
	capital, numpy := reference.Nucleus[capitalPrompt], reference.Nucleus["import numpy as"]
	return []Row{
		{Name: "config", Figure: "GPT-2 small config",
			Study: fmt.Sprintf("%s positions, %d blocks, %d heads, width %d, vocab %s (nanoGPT pads to %s)",
				gpt.Commas(reference.SmallBlockSize), reference.SmallLayers, reference.SmallHeads, reference.SmallChannels,
				gpt.Commas(reference.SmallVocab), gpt.Commas(reference.SmallVocabPadded)),
			measure: rowConfig},
		{Name: "params", Figure: "parameters, tied token table / lm_head",
			Study: gpt.Commas(reference.SmallParamsTied) + " (≈124M)", measure: rowParams},
		{Name: "untied", Figure: "parameters if the output layer were untied",
			Study: gpt.Commas(reference.SmallParamsUntied) + " (≈163M)", measure: rowUntied},
		{Name: "token-share", Figure: "share of the token table in the tied model",
			Study: fmt.Sprintf("≈%g%%", 100*reference.TokenShare), measure: rowTokenShare},
		{Name: "wpe", Figure: "learned position table; forwarding 1,100 positions",
			Study: `wpe shape [1024, 768]; "Cannot forward sequence of length 1100, block size is only 1024"`, measure: rowWpe},
		{Name: "init", Figure: "init: matrices and tables N(0, 0.02), residual writes N(0, 0.02/√(2L)), biases 0, LayerNorm 1/0",
			Study: fmt.Sprintf("std %g; attn.c_proj and mlp.c_proj %g/√24 = %.5f", reference.InitStd, reference.InitStd,
				reference.InitStd/math.Sqrt(2*reference.SmallLayers)), measure: rowInit},
		{Name: "residual", Figure: "residual-stream norm growth at init, width 768, input of block 1 → output of the last, 64 random tokens, 3 seeds",
			Study:   residualStudy(),
			measure: rowResidual},
		{Name: "tokenizer", Figure: "GPT-2's byte-level BPE: strings round-trip, no unknown token; GPT-2's ids for a sample",
			Study: "byte-level BPE, every string encodes, no unknown token", measure: rowTokenizer},
		{Name: "forward-targets", Figure: "forward with targets over 92 positions",
			Study: fmt.Sprintf("logits [1, 92, %d] and one loss ≈ ln %d ≈ %g untrained", reference.SmallVocab, reference.SmallVocab,
				reference.UntrainedLoss), measure: rowForwardTargets},
		{Name: "forward-last", Figure: "forward without targets",
			Study: "logits for the last position only", measure: rowForwardLast},
		{Name: "forward-1024", Figure: "one forward over 1,024 positions, batch 1, fp32",
			Study: fmt.Sprintf("%.2f s on the study's laptop (PyTorch on this machine: %.2f s fp32)", reference.Forward1024Seconds, pt.Forward1024Seconds), measure: rowForward1024},
		{Name: "positions", Figure: "positions pushed through the stack, 11-token prompt, 256 new tokens",
			Study:   fmt.Sprintf("%s without a cache, %d with one", gpt.Commas(reference.PositionsUncached), reference.PositionsCached),
			measure: rowPositions},
		{Name: "time-ratio", Figure: "64 / 256 / 512 new tokens: uncached ÷ cached, positions and time",
			Study: fmt.Sprintf("positions %g× / %g× / %g×, time %.1f× / %.1f× / %.1f× (PyTorch here: %.2f× / %.2f× / %.2f×)",
				sp[0], sp[1], sp[2], st[0], st[1], st[2], pt.TimeRatios[0], pt.TimeRatios[1], pt.TimeRatios[2]), measure: rowTimeRatio},
		{Name: "kv-cache", Figure: "KV cache size, 2·L·T·d numbers",
			Study: fmt.Sprintf("≈%d kB per position for GPT-2 small fp32; %d MB at 1,024; XL bf16 %d MB per sequence vs %g GB of weights (≈%d sequences)",
				reference.KVSmallPerPositionKB, reference.KVSmall1024MB, reference.KVXLSequenceMB, reference.XLWeightsGB, reference.XLSequences),
			measure: rowKVCache},
		{Name: "decode-1023", Figure: "1,023 tokens with the cache, and the forward over the same length",
			Study: fmt.Sprintf("%.1f s, ≈40× the forward (PyTorch here: %.1f s, forward %.2f s)", reference.Decode1023Seconds, pt.Decode1023Seconds, pt.Forward1024Seconds), measure: rowDecode1023},
		{Name: "crop", Figure: "past the block size: crop and re-prefill, cached vs uncached",
			Study: "cropping makes the whole cache stale; a cached loop must recompute", measure: rowCrop},
		{Name: "cached-vs-uncached", Figure: "cached vs uncached greedy, 200 steps", Kind: TrainedModel,
			Study: fmt.Sprintf("same text; logits differ by up to %s, almost all a uniform shift; top-2 gap moved ≤ %s; narrowest gap %s",
				plain(reference.CachingMaxDiff), plain(reference.CachingGapMoved), plain(reference.CachingNarrowest)),
			measure: rowCachedVsUncached},
		{Name: "why", Figure: "why they differ", Kind: Fact,
			Study: "after the prompt every matmul sees one row instead of T: other kernels, other summation order"},
		{Name: "bf16", Figure: "bf16 weights vs fp32, greedy", Kind: TrainedModel,
			Study:   `split at the third token (" were not working." vs " were not being run on the same system"), never rejoin`,
			measure: rowBF16},
		{Name: "batch", Figure: "the same prompt 8 times in one batch", Kind: TrainedModel,
			Study: fmt.Sprintf("tokens kept, logits moved up to %g vs the single run", reference.BatchMaxDiff), measure: rowBatch},
		{Name: "temperature-0", Figure: "temperature 0",
			Study: "nanoGPT divides by zero → inf → NaN; most APIs treat 0 as argmax", measure: rowTemperature0},
		{Name: "repeatability", Figure: "same seed, same machine", Kind: TrainedModel,
			Study: fmt.Sprintf("the same %d sampled tokens", reference.RepeatTokens), measure: rowRepeatability},
		{Name: "capital", Figure: `"The capital of France is": top candidates, 90% set at T=1, entropy`, Kind: OpenAIOnly,
			Study: fmt.Sprintf(`" the" 8.5%%, " Paris" 5th at 3.2%%; %s tokens; 8.7 bits`, gpt.Commas(int(capital[0][1]))), measure: rowCapital},
		{Name: "numpy", Figure: `"import numpy as": top candidate, 90% set, entropy`, Kind: OpenAIOnly,
			Study: `" np" 85%; 3 tokens; 1.5 bits`, measure: rowNumpy},
		{Name: "top-k-200", Figure: "top-k 200 at T=0.8", Kind: OpenAIOnly,
			Study: "holds 89% after the capital prompt; after numpy keeps 199 options sharing under 5%", measure: rowTopK200},
		{Name: "top-p-0.9", Figure: "top-p 0.9 at T=0.8", Kind: OpenAIOnly,
			Study: fmt.Sprintf("%g tokens for capital, %g for numpy", capital[1][1], numpy[1][1]), measure: rowTopP},
		{Name: "greedy-repeats", Figure: "greedy GPT-2 small, 200 tokens", Kind: OpenAIOnly,
			Study: "repeats its own sentence", measure: rowGreedyRepeats},
		{Name: "nanogpt-defaults", Figure: "nanoGPT sample.py defaults",
			Study:   fmt.Sprintf("temperature %g, top-k %d, no top-p", reference.NanoGPTTemperature, reference.NanoGPTTopK),
			measure: rowNanoGPTDefaults},
		{Name: "attention", Figure: "attention of one layer and head, and of every head of that layer (notebook figure, not a study row)",
			Study: "—", measure: rowAttention},
		{Name: "sampling-figures", Figure: "next-token candidates and top-p/top-k against temperature on the model used (notebook figure)",
			Study: "—", Kind: TrainedModel, measure: rowSamplingFigures},
		{Name: "loss-curve", Figure: "training loss curve (notebook figure, not a study row)",
			Study: "—", measure: rowLossCurve},
	}
}
