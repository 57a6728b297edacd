package bench

import (
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/gpt/internal/fast"
)

// Machine says what ran the benchmark: a shared machine's figures mean little without it.
type Machine struct {
	Arch     string `json:"arch"`      // runtime.GOARCH, e.g. "amd64"
	Cores    int    `json:"cores"`     // the goroutines the kernels split work over (GOMAXPROCS)
	BLAS     string `json:"blas"`      // the build's BLAS, e.g. "OpenBLAS"
	LLCBytes int    `json:"llc_bytes"` // the last-level cache, e.g. 33554432; 0 when unknown
}

// thisMachine describes the machine the process runs on.
func thisMachine() Machine {
	return Machine{Arch: runtime.GOARCH, Cores: fast.Workers(), BLAS: gpt.BLAS, LLCBytes: llcBytes()}
}

// Load is the load average over 1, 5 and 15 minutes (/proc/loadavg), or nil where the system
// does not say: a benchmark on a shared machine reports the load it ran under.
func Load() []float64 {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return nil
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return nil
	}
	var load []float64
	for _, s := range f[:3] {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil
		}
		load = append(load, v)
	}
	return load
}

// llcBytes is the size of the highest-level cache of cpu0 (Linux's sysfs), or 0.
func llcBytes() int {
	dirs, _ := filepath.Glob("/sys/devices/system/cpu/cpu0/cache/index*")
	best, bestLevel := 0, 0
	for _, d := range dirs {
		level := readInt(filepath.Join(d, "level"))
		size := readSize(filepath.Join(d, "size"))
		if level > bestLevel && size > 0 {
			best, bestLevel = size, level
		}
	}
	return best
}

func readInt(path string) int {
	b, _ := os.ReadFile(path)
	n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return n
}

// readSize reads sysfs's "32768K" (or "2M") as bytes.
func readSize(path string) int {
	b, _ := os.ReadFile(path)
	s := strings.TrimSpace(string(b))
	mult := 1
	switch {
	case strings.HasSuffix(s, "K"):
		mult, s = 1<<10, s[:len(s)-1]
	case strings.HasSuffix(s, "M"):
		mult, s = 1<<20, s[:len(s)-1]
	}
	n, _ := strconv.Atoi(s)
	return n * mult
}
