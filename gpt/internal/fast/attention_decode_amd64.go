package fast

// The walks of the decode step's attention (attention_decode_amd64.s), for rows j < rows,
// heads h < heads, channels d < hs (a multiple of 8), rows of stride ld:
//
//	headDotsAVX2:  s[h·lds+j] = Σ_d q[h·hs+d]·k[j·ld+h·hs+d]
//	headRowsAVX2:  out[h·hs+d] += Σ_j p[h·lds+j]·v[j·ld+h·hs+d]
//
// and the same with k or v in bfloat16; and the same on AVX-512 (attention_decode512_amd64.s),
// hs a multiple of 32, the bfloat16 keys against the query rounded to bfloat16 (qb).

//go:noescape
func headDotsAVX2(s, q, k *float32, rows, heads, hs, ld, lds int)

//go:noescape
func headDots16AVX2(s, q *float32, k *uint16, rows, heads, hs, ld, lds int)

//go:noescape
func headRowsAVX2(out, p, v *float32, rows, heads, hs, ld, lds int)

//go:noescape
func headRows16AVX2(out, p *float32, v *uint16, rows, heads, hs, ld, lds int)

//go:noescape
func headDotsAVX512(s, q, k *float32, rows, heads, hs, ld, lds int)

//go:noescape
func headDots16AVX512BF16(s *float32, qb, k *uint16, rows, heads, hs, ld, lds int)

//go:noescape
func headRowsAVX512(out, p, v *float32, rows, heads, hs, ld, lds int)

//go:noescape
func headRows16AVX512(out, p *float32, v *uint16, rows, heads, hs, ld, lds int)
