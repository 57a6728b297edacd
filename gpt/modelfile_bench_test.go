package gpt

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// BenchmarkLoadHFSmall loads a GPT-2 Small-sized checkpoint laid out as the hub's
// model.safetensors (plain keys sorted by name, F32, the twelve 4 MB attn.bias buffers)
// and reports the peak resident memory of the process during LoadHF against the model's
// fp32 size, 497.8 MB. The goal is at most 1.3×: LoadHF streams each tensor from the file
// into the slab a megabyte at a time instead of reading the file into memory.
//
// The file (548 MB) is written once into a temporary directory from random numbers
// generated on the fly, so no model is in memory when the measurement starts. Peak RSS
// is Linux's VmHWM, reset through /proc/self/clear_refs before each load.
//
//	go test -run '^$' -bench LoadHFSmall -benchtime 1x ./gpt/
func BenchmarkLoadHFSmall(b *testing.B) {
	if _, err := os.Stat("/proc/self/clear_refs"); err != nil {
		b.Skip("needs Linux's /proc/self/clear_refs to measure peak RSS")
	}
	path := filepath.Join(b.TempDir(), "model.safetensors")
	writeRandomHF(b, path, Small)
	fp32 := float64(4 * Small.NumParams())
	var peak, before float64
	b.ResetTimer()
	for range b.N {
		runtime.GC()
		debug.FreeOSMemory()
		before = rss(b, "VmRSS")
		if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
			b.Fatal(err)
		}
		m, err := LoadHF(path)
		if err != nil {
			b.Fatal(err)
		}
		peak = max(peak, rss(b, "VmHWM"))
		if got, want := m.Params.Wte[12345], randomValue(0, 12345); got != want { // the file was read, in place
			b.Fatalf("wte[12345] = %g, want %g", got, want)
		}
		m = nil
	}
	b.StopTimer()
	b.ReportMetric(peak/1e6, "peak-RSS-MB")
	b.ReportMetric(peak/fp32, "peak/fp32")
	b.ReportMetric(before/1e6, "RSS-before-MB")
	b.ReportMetric(fp32/1e6/b.Elapsed().Seconds()*float64(b.N), "MB/s")
	if peak > 1.3*fp32 {
		b.Errorf("peak RSS %.0f MB is %.2f× the fp32 model (%.0f MB), want ≤ 1.3×", peak/1e6, peak/fp32, fp32/1e6)
	}
}

// writeRandomHF writes a checkpoint of cfg in the hub's layout without holding it in
// memory: each tensor's numbers come from randomValue as the writer asks for them.
func writeRandomHF(b *testing.B, path string, cfg Config) { writeRandomHFTo(b, path, cfg) }

// writeRandomHFTo writes a checkpoint of shape cfg in the hub's layout, with random weights.
func writeRandomHFTo(b testing.TB, path string, cfg Config) {
	var srcs []tensorSource
	for i, t := range Layout(cfg) {
		srcs = append(srcs, tensorSource{name: t.Name, shape: t.Shape, read: func(dst []float32, off int) {
			for j := range dst {
				dst[j] = randomValue(i, off+j)
			}
		}})
	}
	for l := range cfg.Layers { // the causal mask buffers of the hub's file
		T := cfg.BlockSize
		srcs = append(srcs, tensorSource{name: fmt.Sprintf("h.%d.attn.bias", l), shape: []int{1, 1, T, T},
			read: func(dst []float32, off int) {
				for j := range dst {
					if r, c := (off+j)/T, (off+j)%T; c <= r {
						dst[j] = 1
					} else {
						dst[j] = 0
					}
				}
			}})
	}
	sort.Slice(srcs, func(i, j int) bool { return srcs[i].name < srcs[j].name })
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := writeSafetensors(f, srcs, DtypeF32, map[string]string{"format": "pt"}); err != nil {
		b.Fatal(err)
	}
	config := fmt.Sprintf(`{"n_embd": %d, "n_head": %d, "n_layer": %d, "n_positions": %d, "vocab_size": %d}`,
		cfg.Channels, cfg.Heads, cfg.Layers, cfg.BlockSize, cfg.VocabSize)
	if err := os.WriteFile(filepath.Join(filepath.Dir(path), "config.json"), []byte(config), 0o644); err != nil {
		b.Fatal(err)
	}
}

// randomValue is element j of tensor i: uniform in [-0.1, 0.1), the same on every call.
// It hashes (i, j) with SplitMix64's finaliser, so any element can be made on its own.
func randomValue(i, j int) float32 {
	z := uint64(i)<<40 ^ uint64(j) + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	return float32(z>>40)/(1<<24)*0.2 - 0.1
}

// rss reads a field of /proc/self/status, in bytes.
func rss(b *testing.B, field string) float64 {
	s, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(s), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest), " kB"))
			if err != nil {
				b.Fatal(err)
			}
			return float64(kb) * 1024
		}
	}
	b.Fatalf("/proc/self/status has no %s", field)
	return 0
}

// BenchmarkMemorySmall is the memory of GPT-2 Small (random init, saved to a temporary
// file and loaded from it) in each precision: the resident bytes the loaded model adds
// (VmRSS after minus before, after a GC), the peak while loading, and the peak (VmHWM) of
// one forward over 1,024 positions with every position's logits. A BF16 model is loaded
// straight into bfloat16 with LoadAs, from the file Save wrote of it.
//
//	go test -run '^$' -bench MemorySmall -benchtime 1x ./gpt/
func BenchmarkMemorySmall(b *testing.B) {
	if _, err := os.Stat("/proc/self/clear_refs"); err != nil {
		b.Skip("needs Linux's /proc/self/clear_refs to measure peak RSS")
	}
	dir := b.TempDir()
	files := map[Precision]string{FP32: filepath.Join(dir, "fp32.safetensors"), BF16: filepath.Join(dir, "bf16.safetensors")}
	func() { // write both files, then drop the model
		m, err := New(Small)
		if err != nil {
			b.Fatal(err)
		}
		m.Init(1337, true)
		for p, path := range files {
			if err := Save(path, m.WithPrecision(p), nil); err != nil {
				b.Fatal(err)
			}
		}
	}()
	ids := randomIDs(rand.New(rand.NewPCG(1, 1)), 1024, Small.VocabSize)
	for _, p := range []Precision{FP32, BF16} {
		b.Run(p.String(), func(b *testing.B) {
			for range b.N {
				runtime.GC()
				debug.FreeOSMemory()
				before := rss(b, "VmRSS")
				if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
					b.Fatal(err)
				}
				m, _, err := LoadAs(files[p], p)
				if err != nil {
					b.Fatal(err)
				}
				loadPeak := rss(b, "VmHWM") - before
				runtime.GC()
				model := rss(b, "VmRSS") - before
				if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
					b.Fatal(err)
				}
				if _, err := m.ForwardAll([][]int{ids}); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(model/1e6, "model-RSS-MB")
				b.ReportMetric(loadPeak/1e6, "load-peak-MB")
				b.ReportMetric(rss(b, "VmHWM")/1e6, "forward1024-VmHWM-MB")
				b.ReportMetric(before/1e6, "RSS-before-MB")
				m = nil
			}
		})
	}
}

// TestWriteHFCheckpoint writes a GPT-2 Small-shaped checkpoint in the hub's layout (random
// weights, config.json beside it) to the directory $GPTNOTES_WRITE_HF, for benchmarks that
// need OpenAI's GPT-2 where no weights can be downloaded:
//
//	GPTNOTES_WRITE_HF=/tmp/gpt2-small go test ./gpt -run TestWriteHFCheckpoint -count=1
//	GPT2_WEIGHTS=/tmp/gpt2-small GPTNOTES_BIN=bin/gptnotes /usr/bin/python3 tests/bench_widgets.py
//
// gpt.Pretrained then opens it as GPT-2; the text it writes is noise, the speed is GPT-2 Small's.
func TestWriteHFCheckpoint(t *testing.T) {
	dir := os.Getenv("GPTNOTES_WRITE_HF")
	if dir == "" {
		t.Skip("set GPTNOTES_WRITE_HF to a directory to write a GPT-2 Small-shaped checkpoint there")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "model.safetensors")
	writeRandomHFTo(t, path, Small)
	m, err := LoadHF(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s: %v", path, m.Config)
}
