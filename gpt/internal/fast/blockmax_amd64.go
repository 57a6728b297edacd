package fast

// blockMaxAVX2 is BlockMax over the first blocks·MaxBlock elements of x (blocks ≥ 1); it
// returns 0 when they are all finite (blockmax_amd64.s).
//
//go:noescape
func blockMaxAVX2(dst, x *float32, blocks int) (bad uint32)
