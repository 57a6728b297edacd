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

// The study's cache budget: GPT-2 XL in bf16 holds about XLSequences sequences of 1,024
// positions in the memory of its XLWeightsGB of weights. Source: the study.
const (
	XLSequences = 10
	XLWeightsGB = 3.1
)

// Baseline is one run of the PyTorch benchmark scripts on this project's machine.
type Baseline struct {
	Date    string // when it ran
	Load    string // the machine's load then
	Scripts string // what ran

	Forward1024Seconds float64    // one forward of GPT-2 small over 1,024 positions, fp32 (bench_forward.py)
	Decode1023Seconds  float64    // 1,023 tokens with the KV cache (bench_generate.py)
	TimeRatios         [3]float64 // uncached ÷ cached time at 64, 256, 512 new tokens (bench_generate.py)
	ResidualGrowth     [4]float64 // ‖x_L‖/‖x_0‖ as ResidualGrowth orders it: 12 and 48 blocks scaled, then plain; 3 seeds
}

// PyTorch is the one PyTorch baseline the study's rows and figures quote for this machine.
// Its figures were measured before the project recorded the load with them; a new run of
// the scripts replaces the whole value.
var PyTorch = Baseline{
	Date:               "2026-11-29",
	Load:               "not recorded",
	Scripts:            "tests/bench_forward.py, tests/bench_generate.py and a residual-growth run of tests/torch_gpt2.py (nanoGPT's model, 2 threads)",
	Forward1024Seconds: 3.09,
	Decode1023Seconds:  45.9,
	TimeRatios:         [3]float64{2.16, 5.01, 8.75},
	ResidualGrowth:     [4]float64{10.72, 10.75, 54.33, 113.05},
}
