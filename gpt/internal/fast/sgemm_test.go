//go:build amd64 || arm64

package fast

import (
	"math"
	"math/rand/v2"
	"testing"
)

// The blocked Sgemm (AVX2 or NEON micro-kernel) against a naive triple loop: every transpose, edge tiles, strides,
// alpha and beta.
func TestFastSgemm(t *testing.T) {
	if !hasKernels() {
		t.Skip("no " + kernelsName + " kernels")
	}
	rng := rand.New(rand.NewPCG(8, 8))
	for _, sz := range [][3]int{{6, 16, 8}, {7, 17, 9}, {64, 64, 64}, {100, 50, 300}, {13, 800, 770}, {130, 33, 1}} {
		m, n, k := sz[0], sz[1], sz[2]
		for _, tA := range []bool{false, true} {
			for _, tB := range []bool{false, true} {
				lda, ldb, ldc := k+3, n+5, n+2
				if tA {
					lda = m + 1
				}
				if tB {
					ldb = k + 4
				}
				a := randomSlice(rng, lda*max(m, k), 1)
				b := randomSlice(rng, ldb*max(n, k), 1)
				c := randomSlice(rng, ldc*m, 1)
				alpha, beta := float32(0.7), float32(0.3)
				want := append([]float32(nil), c...)
				for i := 0; i < m; i++ {
					for j := 0; j < n; j++ {
						var s float64
						for p := 0; p < k; p++ {
							av, bv := a[i*lda+p], b[p*ldb+j]
							if tA {
								av = a[p*lda+i]
							}
							if tB {
								bv = b[j*ldb+p]
							}
							s += float64(av) * float64(bv)
						}
						want[i*ldc+j] = float32(float64(alpha)*s + float64(beta)*float64(c[i*ldc+j]))
					}
				}
				got := append([]float32(nil), c...)
				fastSgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, got, ldc)
				if d := maxDiff(got, want); d > 1e-4 {
					t.Errorf("m=%d n=%d k=%d tA=%v tB=%v: max |diff| %g", m, n, k, tA, tB, d)
				}
			}
		}
	}
}

// sgemmBias (the forward's products: C = A·op(B) + bias, C never read) against float64
// sums, on sizes that leave edge tiles, one tile, several blocks of the shared dimension,
// and both splits over the cores.
func TestSgemmBias(t *testing.T) {
	if !hasKernels() {
		t.Skip("no " + kernelsName + " kernels")
	}
	rng := rand.New(rand.NewPCG(9, 9))
	for _, sz := range [][3]int{{2, 5, 3}, {6, 16, 8}, {7, 17, 9}, {300, 40, 770}, {50, 700, 64}, {13, 800, 1000}} {
		m, n, k := sz[0], sz[1], sz[2]
		for _, tB := range []bool{false, true} {
			for _, withBias := range []bool{false, true} {
				lda, ldb, ldc := k+1, n+3, n+2
				if tB {
					ldb = k + 5
				}
				a := randomSlice(rng, lda*m, 1)
				b := randomSlice(rng, ldb*max(n, k), 1)
				var bias []float32
				if withBias {
					bias = randomSlice(rng, n, 1)
				}
				c := randomSlice(rng, ldc*m, 1) // garbage that must be overwritten
				want := append([]float32(nil), c...)
				for i := 0; i < m; i++ {
					for j := 0; j < n; j++ {
						var s float64
						if bias != nil {
							s = float64(bias[j])
						}
						for p := 0; p < k; p++ {
							bv := b[p*ldb+j]
							if tB {
								bv = b[j*ldb+p]
							}
							s += float64(a[i*lda+p]) * float64(bv)
						}
						want[i*ldc+j] = float32(s)
					}
				}
				sgemmBias(tB, m, n, k, a, lda, b, ldb, bias, c, ldc)
				if d := maxDiff(c, want); d > 1e-3 {
					t.Errorf("m=%d n=%d k=%d tB=%v bias=%v: max |diff| %g", m, n, k, tB, withBias, d)
				}
			}
		}
	}
}

// sgemmBias16 (a BF16 model's products: B in bfloat16, widened as it is packed) against
// float64 sums of the widened values, with B read both ways.
func TestSgemmBias16(t *testing.T) {
	if !hasKernels() {
		t.Skip("no " + kernelsName + " kernels")
	}
	rng := rand.New(rand.NewPCG(10, 10))
	for _, sz := range [][3]int{{7, 17, 9}, {50, 40, 300}, {13, 70, 1000}} {
		m, n, k := sz[0], sz[1], sz[2]
		for _, tB := range []bool{false, true} {
			lda, ldb, ldc := k+1, n+3, n
			if tB {
				ldb = k + 5
			}
			a := randomSlice(rng, lda*m, 1)
			b16 := make([]uint16, ldb*max(n, k))
			for i, v := range randomSlice(rng, len(b16), 1) {
				b16[i] = uint16(math.Float32bits(v) >> 16)
			}
			bias := randomSlice(rng, n, 1)
			want := make([]float32, ldc*m)
			for i := 0; i < m; i++ {
				for j := 0; j < n; j++ {
					s := float64(bias[j])
					for p := 0; p < k; p++ {
						h := b16[p*ldb+j]
						if tB {
							h = b16[j*ldb+p]
						}
						s += float64(a[i*lda+p]) * float64(widen(h))
					}
					want[i*ldc+j] = float32(s)
				}
			}
			c := randomSlice(rng, ldc*m, 1)
			sgemmBias16(tB, m, n, k, a, lda, b16, ldb, bias, c, ldc)
			if d := maxDiff(c, want); d > 1e-3 {
				t.Errorf("m=%d n=%d k=%d tB=%v: max |diff| %g", m, n, k, tB, d)
			}
		}
	}
}
