// Package fast holds the fast kernels behind the gpt package's readable model: each
// exported function computes one step of the forward or backward that gpt also writes as
// plain loops, and gpt calls it one branch away from those loops (gpt/fast.go).
//
// Read the files in this order:
//
//	cpu_amd64.go       CPU detection: HasAVX2, HasAVX512BF16, and $GPTNOTES_CPU to narrow them
//	cpu_arm64.go       HasNEON on arm64 (every arm64 CPU; $GPTNOTES_CPU=go turns it off)
//	team.go            Chunks, For: a team of helper goroutines that split a step over the cores
//	blas.go            MatmulForward, Logits and their backward: which BLAS, and how products split
//	blas_purego.go     the default build: gonum's pure-Go BLAS
//	blas_openblas.go   -tags openblas: OpenBLAS through gonum's netlib bindings, single-threaded
//	sgemm.go           our blocked sgemm: packed panels and a 6×16 micro-kernel, in AVX2
//	                   (sgemm_amd64.s) or NEON (sgemm_arm64.s, with Go packers in sgemm_arm64.go)
//	gemv.go            one-row products (a cached decode step) at the memory's speed
//	                   (gemv_amd64.s, gemv_arm64.s)
//	fewrows.go         products of 5 to 16 rows (a short prompt's) on the 6×16 micro-kernel with
//	                   neither operand packed, fp32 or bf16 widened, in AVX2 (fewrows_amd64.s)
//	bf16.go            MatmulForward16, Logits16: the products of a BF16 model, by path
//	gemv16.go          one-row products with bfloat16 weights: on VDPBF16PS (gemv16dp_amd64.s),
//	                   or widened in registers (gemv16_amd64.s)
//	dpbf16_amd64.go    many-row bf16 products on VDPBF16PS, a 12×32 micro-kernel (dpbf16_amd64.s)
//	round.go           RoundBF16: a BF16 model's rounding of each op's output, eight at a time (round_amd64.s)
//	attention.go       Attention, AttentionCached, AttentionBackward: a fused causal kernel
//	attention_packed_amd64.go  the same on the micro-kernel, over panels packed once per head
//	attention_decode.go  a decode step's attention: the cache's rows walked once for all heads,
//	                   in AVX2 (attention_decode_amd64.s) or AVX-512 (attention_decode512_amd64.s)
//	exp.go             ExpSum, SumExp, Softmax, Gelu, GeluBackward: the float32 exponential, eight at a time
//	exp_amd64.go       the AVX2 exponentials (exp_amd64.s)
//	blockmax.go        BlockMax: a row's largest of each 64 and whether all are finite, in one
//	                   pass (blockmax_amd64.s): what a Generator's step reads its logits for
//	rows.go            CrossEntropy and LayernormBackward, split over the cores
//	peak.go            StreamRead, FMAPeak, BF16Peak: the probes of the machine's ceilings (gpt/bench)
//
// Where the CPU has AVX2 and FMA, or on arm64 (NEON), the model's products run on our
// sgemm, in both builds (a BF16 model's with its weights widened as they are packed), or on
// VDPBF16PS where the CPU has AVX-512 BF16; every other product runs on this package's own BLAS value, never on gonum's process-wide
// blas32 implementation, which importing gpt leaves alone. On arm64 only the sgemm and the
// fp32 one-row products have NEON kernels; attention, the exponentials, rounding and the
// bf16 one-row products take their Go paths there, and products of a few rows the sgemm. Off amd64 and arm64, or on amd64 without
// AVX2, every kernel takes its portable Go path (the *_other.go files).
//
// Every kernel here is compared by gpt's tests with the readable step it replaces, one at a
// time and for a whole forward and backward (gpt's TestNaiveMatchesFast).
package fast
