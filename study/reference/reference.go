// Package reference holds the study's figures that our code draws or compares with, each
// stated once with where it comes from, so that the study package's rows, viz's reference
// marks and the tests quote the same numbers.
//
// Two sources:
//
//   - the study: the write-up of GPT-2 inference this project reproduces, measured on its
//     author's laptop with PyTorch and OpenAI's GPT-2 small checkpoint (most figures);
//   - PyTorch on this project's machine: one run of the benchmark scripts in tests/
//     (bench_forward.py, bench_generate.py, the nanoGPT model of torch_gpt2.py), stored
//     once in PyTorch with its date and the machine's load.
//
// The package imports nothing of the project, so that viz, which study imports, can use it.
package reference

import (
	"bytes"
	_ "embed"
	"encoding/json"
)

// GPT-2 small as the study states it: its configuration, nanoGPT's vocabulary padded to a
// multiple of 64, and the parameter counts with the token table tied to the output layer and
// untied, and the table's share of the tied model. Source: the study.
const (
	SmallBlockSize    = 1024
	SmallLayers       = 12
	SmallHeads        = 12
	SmallChannels     = 768
	SmallVocab        = 50257
	SmallVocabPadded  = 50304
	SmallParamsTied   = 124439808
	SmallParamsUntied = 163037184
	TokenShare        = 0.31 // "≈31%"
)

// InitStd is the standard deviation GPT-2 draws every matrix and both tables from; the two
// residual writes of a block draw from InitStd/√(2L). Source: the study.
const InitStd = 0.02

// UntrainedLoss is the study's loss of an untrained GPT-2 small, ≈ ln 50,257. Source: the study.
const UntrainedLoss = 10.8

// Growth is the study's residual-stream growth at init: ‖x_L‖/‖x_0‖, width 768, from the
// input of block 1 to the output of the last, by depth and init.
type Growth struct {
	Layers int
	Scaled bool    // the residual writes at N(0, 0.02/√(2L)); else plain N(0, 0.02)
	Ratio  float64 // the study's figure, rounded as it states it
}

// ResidualGrowth is the study's growth at 12 and 48 blocks, scaled and plain. Source: the study.
var ResidualGrowth = []Growth{{12, true, 11}, {48, true, 11}, {12, false, 55}, {48, false, 112}}

// The study's decode figures for an 11-token prompt (source: the study): new tokens, the
// positions an uncached loop pushes through the stack over a cached one, and its time over
// the cached loop's.
var (
	DecodeNew            = []float64{64, 256, 512}
	DecodePositionRatios = []float64{37, 133, 261}
	DecodeTimeRatios     = []float64{2.9, 5.0, 7.4}
)

// Forward1024Seconds is one forward of GPT-2 small over 1,024 positions, fp32, batch 1, on
// the study's laptop; Decode1023Seconds is 1,023 tokens with the KV cache there. Source: the study.
const (
	Forward1024Seconds = 0.23
	Decode1023Seconds  = 9.3
)

// Nucleus is, by prompt, the size of GPT-2 small's top-0.9 set at a temperature:
// {temperature, tokens}. Source: the study.
var Nucleus = map[string][][2]float64{
	"The capital of France is": {{1, 1504}, {0.8, 237}},
	"import numpy as":          {{1, 3}, {0.8, 1}},
}

// The study's cached-vs-uncached figures for GPT-2 small, greedy, 200 steps: the largest
// logit difference, the most the top-2 gap moved, the narrowest gap. Source: the study.
const (
	CachingMaxDiff   = 0.011
	CachingGapMoved  = 0.00005
	CachingNarrowest = 0.004
)

// The study's KV cache figures for GPT-2 small in fp32: kilobytes per position and
// megabytes at 1,024 positions; and GPT-2 XL's in bf16, megabytes per sequence of 1,024
// positions. Source: the study.
const (
	KVSmallPerPositionKB = 74
	KVSmall1024MB        = 75
	KVXLSequenceMB       = 315
)

// Positions pushed through the stack by 256 new tokens after an 11-token prompt: without a
// cache and with one. Source: the study.
const (
	PositionsUncached = 35456
	PositionsCached   = 266
)

// nanoGPT's sample.py samples at temperature 0.8 from the 200 most probable tokens, with no
// top-p; the study's same seed on the same machine drew the same RepeatTokens tokens twice.
// Source: the study (nanoGPT's sample.py).
const (
	NanoGPTTemperature = 0.8
	NanoGPTTopK        = 200
	RepeatTokens       = 40
)

// BatchMaxDiff is the most the study's logits moved when its prompt ran 8 times in one batch
// instead of alone. Source: the study.
const BatchMaxDiff = 0.005

// The study's cache budget: GPT-2 XL in bf16 holds about XLSequences sequences of 1,024
// positions in the memory of its XLWeightsGB of weights. Source: the study.
const (
	XLSequences = 10
	XLWeightsGB = 3.1
)

// Baseline is one run of tests/pytorch_baseline.py on this project's machine: PyTorch's side of
// every figure the project quotes for PyTorch here, with the date and the load it ran at.
type Baseline struct {
	Date    string `json:"date"`    // when it ran
	Load    string `json:"load"`    // the machine's load then
	Scripts string `json:"scripts"` // what ran
	Torch   string `json:"torch"`   // torch's version and threads

	Forward1024Seconds    float64    `json:"forward_1024_seconds"`     // best forward of GPT-2 small over 1,024 positions, fp32
	Decode1023Seconds     float64    `json:"decode_1023_seconds"`      // 1,023 tokens with the KV cache after a 1-token prompt
	CachedTokensPerSecond [3]float64 `json:"cached_tokens_per_second"` // cached greedy decode, 64, 256, 512 new tokens after 11 (0: not measured)
	TimeRatios            [3]float64 `json:"time_ratios"`              // uncached ÷ cached time at 64, 256, 512 new tokens
	ResidualGrowth        [4]float64 `json:"residual_growth"`          // ‖x_L‖/‖x_0‖ as ResidualGrowth orders it: 12 and 48 blocks scaled, then plain; 3 seeds
}

// pytorchJSON is the baseline's one copy, written by tests/pytorch_baseline.py.
//
//go:embed pytorch.json
var pytorchJSON []byte

// PyTorch is the one PyTorch baseline the study's rows, viz's figures and docs/performance.md quote for
// this machine: pytorch.json in this directory. A new run of tests/pytorch_baseline.py replaces
// the whole file.
var PyTorch = func() Baseline {
	var b Baseline
	dec := json.NewDecoder(bytes.NewReader(pytorchJSON))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&b); err != nil {
		panic("reference: pytorch.json: " + err.Error())
	}
	return b
}()
