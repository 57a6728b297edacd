//go:build amd64

package fast

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// The few-rows Conv1D (5 to 16 rows, neither operand packed) against a float64 loop, in
// fp32 and bf16 (widened, and on VDPBF16PS where the CPU has it), with and without a bias:
// every row count it takes, a tile of scratch for the rows past the sixes, columns past the
// panels of sixteen (and of 32), an odd shared dimension, and one past kcFor's one block
// (C > 768: blocks of 256 added up), and C = 1 (no pair for VDPBF16PS). In fp32 it must
// also equal the sgemm's product to the bit, and on VDPBF16PS the packed product's in
// whole panels of 32 columns where that sums all of an even C in one block: the same sums in the same order.
func TestFewRowsConv1D(t *testing.T) {
	if !HasAVX2 {
		t.Skip("no AVX2")
	}
	rng := rand.New(rand.NewPCG(50, 50))
	shapes := [][2]int{{8, 16}, {13, 40}, {64, 96}, {130, 70}, {1, 33}, {771, 35}, {1030, 48}}
	for N := GemvMaxRows + 1; N <= FewMaxRows; N++ {
		for _, sh := range shapes {
			C, OC := sh[0], sh[1]
			x := randomSlice(rng, N*C, 1)
			for i, v := range x { // bfloat16 values, as a BF16 model's: VDPBF16PS multiplies them so
				x[i] = widen(uint16(toBF16(v)))
			}
			w := randomSlice(rng, C*OC, 1)
			w16 := make([]uint16, len(w))
			for i, v := range w {
				w16[i] = uint16(toBF16(v))
			}
			for _, withBias := range []bool{false, true} {
				var bias []float32
				if withBias {
					bias = randomSlice(rng, OC, 1)
				}
				for _, half := range []bool{false, true} {
					name := fmt.Sprintf("N=%d C=%d OC=%d bias=%v bf16=%v", N, C, OC, withBias, half)
					want := make([]float32, N*OC)
					for n := range N {
						for j := range OC {
							var s float64
							if bias != nil {
								s = float64(bias[j])
							}
							for p := range C {
								wv := w[p*OC+j]
								if half {
									wv = widen(w16[p*OC+j])
								}
								s += float64(x[n*C+p]) * float64(wv)
							}
							want[n*OC+j] = float32(s)
						}
					}
					got := randomSlice(rng, N*OC, 1) // garbage that must be overwritten
					if half {
						fewConv1D(got, x, nil, w16, bias, N, C, OC)
					} else {
						fewConv1D(got, x, w, nil, bias, N, C, OC)
					}
					if d := maxDiff(got, want); d > 1e-3 {
						t.Errorf("%s: max |diff| %g", name, d)
					}
					if half && HasAVX512BF16 {
						got = randomSlice(rng, N*OC, 1)
						fewConv1D16DP(got, x, w16, bias, N, C, OC)
						if d := maxDiff(got, want); d > 1e-3 {
							t.Errorf("%s, VDPBF16PS: max |diff| %g", name, d)
						}
						if C%2 == 0 && C <= 768 {
							packed := make([]float32, N*OC)
							dpGemmBias16(false, N, OC, C, x, C, w16, OC, bias, packed, OC)
							for n := range N { // the columns of whole panels: the Go loop past them sums in another order
								c32 := OC / 32 * 32
								if d := maxDiff(got[n*OC:n*OC+c32], packed[n*OC:n*OC+c32]); d != 0 {
									t.Errorf("%s, VDPBF16PS: row %d: the packed product differs by %g, want the same bits", name, n, d)
								}
							}
						}
					}
					if half || OC%nr != 0 { // the Go loop past the panels sums in another rounding
						continue
					}
					sg := make([]float32, N*OC)
					sgemmBias(false, N, OC, C, x, C, w, OC, bias, sg, OC)
					if d := maxDiff(got, sg); d != 0 {
						t.Errorf("%s: the sgemm's product differs by %g, want the same bits", name, d)
					}
				}
			}
		}
	}
}

// BenchmarkFewRows is the four Conv1Ds of a block of GPT-2 Small on N rows (a prompt's),
// in weights read per second and GFLOP/s: through MatmulForward ("matmul": the one-row
// kernels up to GemvMaxRows, the few-rows kernel up to FewMaxRows, the sgemm above), the
// few-rows kernel at any N ("few"), and the sgemm ("sgemm"); with bfloat16 weights, the
// few-rows kernel ("few16": on VDPBF16PS where the CPU has it, else widening) against the
// packed product ("packed16"). Where the two cross is where FewMaxRows belongs.
//
//	go test -run '^$' -bench FewRows ./gpt/internal/fast
func BenchmarkFewRows(b *testing.B) {
	if !HasAVX2 {
		b.Skip("no AVX2")
	}
	const C, maxN = 768, 64
	shapes := [][2]int{{C, 3 * C}, {C, C}, {C, 4 * C}, {4 * C, C}}
	rng := rand.New(rand.NewPCG(5, 5))
	var ws [][]float32
	var hs [][]uint16
	for _, sh := range shapes {
		w := randomSlice(rng, sh[0]*sh[1], 1)
		h := make([]uint16, len(w))
		for i, v := range w {
			h[i] = uint16(toBF16(v))
		}
		ws, hs = append(ws, w), append(hs, h)
	}
	x := randomSlice(rng, maxN*4*C, 1)
	out := make([]float32, maxN*4*C)
	for _, N := range []int{1, 4, 8, 11, 16, 24, 32, 64} {
		for _, path := range []string{"matmul", "few", "sgemm", "few16", "packed16"} {
			if N <= GemvMaxRows && path != "matmul" {
				continue
			}
			b.Run(fmt.Sprintf("N=%d/%s", N, path), func(b *testing.B) {
				var flops, bytes float64
				for i := 0; i < b.N; i++ {
					for s, sh := range shapes {
						K, OC := sh[0], sh[1]
						switch path {
						case "matmul":
							MatmulForward(out, x, ws[s], nil, N, K, OC)
						case "few":
							fewConv1D(out, x, ws[s], nil, nil, N, K, OC)
						case "sgemm":
							sgemmBias(false, N, OC, K, x, K, ws[s], OC, nil, out, OC)
						case "few16":
							if HasAVX512BF16 {
								fewConv1D16DP(out, x, hs[s], nil, N, K, OC)
							} else {
								fewConv1D(out, x, nil, hs[s], nil, N, K, OC)
							}
						case "packed16":
							if HasAVX512BF16 {
								dpGemmBias16(false, N, OC, K, x, K, hs[s], OC, nil, out, OC)
							} else {
								sgemmBias16(false, N, OC, K, x, K, hs[s], OC, nil, out, OC)
							}
						}
						size := 4
						if path == "few16" || path == "packed16" {
							size = 2
						}
						flops += 2 * float64(N*K*OC)
						bytes += float64(size * K * OC)
					}
				}
				b.ReportMetric(bytes/b.Elapsed().Seconds()/1e9, "GB/s")
				b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
