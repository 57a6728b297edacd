package fast

import "os"

// CPU features, read once. $GPTNOTES_CPU narrows what the kernels use, to test and time
// the paths a machine would take without the newer instructions: "avx2" turns off the
// AVX-512 kernels, "go" every assembly kernel.

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
func xgetbv() (eax uint32)

// cpuLimit is $GPTNOTES_CPU: "", "avx2" or "go".
var cpuLimit = os.Getenv("GPTNOTES_CPU")

// HasAVX2 reports AVX2 and FMA, and that the OS saves the YMM registers. Tests set it
// false to run the portable paths.
var HasAVX2 = func() bool {
	if cpuLimit == "go" {
		return false
	}
	max, _, _, _ := cpuid(0, 0)
	if max < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	fma, osxsave := ecx1&(1<<12) != 0, ecx1&(1<<27) != 0
	if !fma || !osxsave || xgetbv()&6 != 6 {
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<5) != 0
}()

// HasAVX512BF16 reports AVX-512 (F, BW, VL) with the bfloat16 instructions (VDPBF16PS),
// and that the OS saves the ZMM and mask registers. Tests set it false to run the AVX2
// paths on a CPU that has it.
var HasAVX512BF16 = func() bool {
	if !HasAVX2 || cpuLimit == "avx2" {
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	f, bw, vl := ebx7&(1<<16) != 0, ebx7&(1<<30) != 0, ebx7&(1<<31) != 0
	if !f || !bw || !vl || xgetbv()&0xe6 != 0xe6 {
		return false
	}
	eax71, _, _, _ := cpuid(7, 1)
	return eax71&(1<<5) != 0
}()

// HasNEON is false on amd64 (cpu_arm64.go): a variable here too, so that tests switch paths
// the same way on every CPU.
var HasNEON = false

// hasKernels reports that this CPU runs our sgemm and gemv kernels (sgemm.go, gemv.go):
// on amd64, those need AVX2 and FMA.
func hasKernels() bool { return HasAVX2 }

// kernelsName names those kernels, for BLAS.
const kernelsName = "AVX2"
