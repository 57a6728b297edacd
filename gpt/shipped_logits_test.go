package gpt_test

import (
	"bufio"
	"encoding/binary"
	"flag"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
	"testing"
)

// The shipped model's logits on one build, compared with another build's. `make test-arm64`
// runs this test twice: natively here (amd64, the assembly kernels) with -logits.write, then
// the linux/arm64 test binary under qemu-aarch64 with -logits.ref, where every product is a
// Go loop. The two must agree within logitsTolerance at every position and vocabulary entry.
var (
	logitsWrite = flag.String("logits.write", "", "write the shipped model's logits on shippedLogitsPrompt to `FILE`")
	logitsRef   = flag.String("logits.ref", "", "compare the shipped model's logits with those in `FILE`, written by -logits.write on another build")
)

const (
	shippedLogitsPrompt = "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfor i := 0; i < 10; i++ {\n\t\tfmt.Println(i)\n\t}\n}\n"
	logitsTolerance     = 1e-4
)

// logitsFile is what -logits.write writes: the prompt's token ids and the logits of every
// position, (T, V), with the GOARCH that computed them.
type logitsFile struct {
	Arch   string
	IDs    []int
	T, V   int
	Logits []float32 // (T, V)
}

func TestShippedLogitsMatchReference(t *testing.T) {
	if *logitsWrite == "" && *logitsRef == "" {
		t.Skip("compares two builds: run with -logits.write FILE on one, -logits.ref FILE on the other (make test-arm64)")
	}
	m, tok, _ := loadShipped(t)
	ids := tok.Encode(shippedLogitsPrompt)
	out, err := m.ForwardAll([][]int{ids})
	if err != nil {
		t.Fatal(err)
	}
	got := logitsFile{Arch: runtime.GOARCH, IDs: ids, T: out.T, V: out.V, Logits: out.Logits}
	if *logitsWrite != "" {
		if err := writeLogits(*logitsWrite, got); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s: %d positions × %d logits on %s", *logitsWrite, got.T, got.V, got.Arch)
	}
	if *logitsRef == "" {
		return
	}
	want, err := readLogits(*logitsRef)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.IDs, want.IDs) {
		t.Fatalf("the prompt encodes to %v on %s, to %v on %s", got.IDs, got.Arch, want.IDs, want.Arch)
	}
	if got.T != want.T || got.V != want.V {
		t.Fatalf("logits (%d, %d) on %s, (%d, %d) on %s", got.T, got.V, got.Arch, want.T, want.V, want.Arch)
	}
	worst, at, largest := 0.0, 0, 0.0
	for i, w := range want.Logits {
		if d := math.Abs(float64(got.Logits[i] - w)); d > worst || math.IsNaN(d) {
			worst, at = d, i
		}
		largest = max(largest, math.Abs(float64(w)))
	}
	t.Logf("%s against %s: %d positions × %d logits, max |diff| %.3g at position %d, token %d (largest |logit| %.2f)",
		got.Arch, want.Arch, got.T, got.V, worst, at/got.V, at%got.V, largest)
	if !(worst <= logitsTolerance) {
		t.Errorf("logits on %s differ from %s's by %.3g at position %d, token %d (%v against %v), want ≤ %g",
			got.Arch, want.Arch, worst, at/got.V, at%got.V, got.Logits[at], want.Logits[at], logitsTolerance)
	}
}

// writeLogits writes f as a header line, "logits ARCH T V N", the N token ids and the T×V
// logits, little-endian int32 and float32.
func writeLogits(path string, f logitsFile) error {
	file, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(file)
	fmt.Fprintf(w, "logits %s %d %d %d\n", f.Arch, f.T, f.V, len(f.IDs))
	ids := make([]int32, len(f.IDs))
	for i, id := range f.IDs {
		ids[i] = int32(id)
	}
	binary.Write(w, binary.LittleEndian, ids)
	binary.Write(w, binary.LittleEndian, f.Logits)
	if err := w.Flush(); err != nil {
		file.Close()
		return fmt.Errorf("write logits %s: %w", path, err)
	}
	return file.Close()
}

// readLogits reads what writeLogits wrote.
func readLogits(path string) (logitsFile, error) {
	var f logitsFile
	file, err := os.Open(path)
	if err != nil {
		return f, err
	}
	defer file.Close()
	r := bufio.NewReader(file)
	var n int
	if _, err := fmt.Fscanf(r, "logits %s %d %d %d\n", &f.Arch, &f.T, &f.V, &n); err != nil {
		return f, fmt.Errorf("read logits %s: header: %w", path, err)
	}
	ids := make([]int32, n)
	f.Logits = make([]float32, f.T*f.V)
	if err := binary.Read(r, binary.LittleEndian, ids); err != nil {
		return f, fmt.Errorf("read logits %s: ids: %w", path, err)
	}
	if err := binary.Read(r, binary.LittleEndian, f.Logits); err != nil {
		return f, fmt.Errorf("read logits %s: (%d, %d) logits: %w", path, f.T, f.V, err)
	}
	for _, id := range ids {
		f.IDs = append(f.IDs, int(id))
	}
	return f, nil
}
