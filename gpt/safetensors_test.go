package gpt

import (
	"bytes"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeBytes writes tensors with WriteSafetensors into memory.
func writeBytes(t testing.TB, tensors []Tensor, dtype Dtype, meta map[string]string) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteSafetensors(&b, tensors, dtype, meta); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func readBytes(data []byte) (*Safetensors, error) {
	return ReadSafetensors(bytes.NewReader(data), int64(len(data)), "test.safetensors")
}

// rawFile builds a safetensors file from a header written by hand and its data section.
func rawFile(header string, data []byte) []byte {
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(header)))
	out = append(out, header...)
	return append(out, data...)
}

func randomTensors(seed uint64) []Tensor {
	rng := rand.New(rand.NewPCG(seed, 1))
	var ts []Tensor
	for _, s := range []struct {
		name  string
		shape []int
	}{{"wte.weight", []int{7, 3}}, {"scalar", []int{}}, {"empty", []int{0, 4}}, {"h.0.ln_1.bias", []int{3}}} {
		x := make([]float32, product(s.shape))
		for i := range x {
			x[i] = float32(rng.NormFloat64())
		}
		ts = append(ts, Tensor{Name: s.name, Shape: s.shape, Data: x})
	}
	return ts
}

// Every dtype round-trips: F32 exactly, F16 and BF16 to the nearest representable number.
func TestSafetensorsRoundTrip(t *testing.T) {
	for _, dtype := range []Dtype{DtypeF32, DtypeF16, DtypeBF16} {
		ts := randomTensors(1)
		meta := map[string]string{"format": "pt", "note": `quotes " and \ survive`}
		data := writeBytes(t, ts, dtype, meta)
		if hdr := binary.LittleEndian.Uint64(data); (8+hdr)%8 != 0 {
			t.Errorf("%s: data starts at %d, not 8-byte aligned", dtype, 8+hdr)
		}
		s, err := readBytes(data)
		if err != nil {
			t.Fatalf("%s: %v", dtype, err)
		}
		if s.Metadata["note"] != meta["note"] || s.Metadata["format"] != "pt" {
			t.Errorf("%s: metadata %v, want %v", dtype, s.Metadata, meta)
		}
		for _, want := range ts {
			got, ok := s.Lookup(want.Name)
			if !ok {
				t.Fatalf("%s: tensor %s missing", dtype, want.Name)
			}
			if got.Dtype != dtype || len(got.Shape) != len(want.Shape) || got.Len() != len(want.Data) {
				t.Errorf("%s: tensor %s is %s %v, want %v", dtype, want.Name, got.Dtype, got.Shape, want.Shape)
			}
			x := make([]float32, got.Len())
			if err := s.ReadFloat32(got, x); err != nil {
				t.Fatal(err)
			}
			for i := range x {
				w := want.Data[i]
				switch dtype {
				case DtypeF16:
					w = decodeF16(encodeF16(w))
				case DtypeBF16:
					w = bf16ToFloat32(float32ToBF16(w))
				}
				if x[i] != w {
					t.Errorf("%s: %s[%d] = %g, want %g", dtype, want.Name, i, x[i], w)
				}
			}
		}
	}
}

// A tensor larger than one chunk is read in several and still lands in place.
func TestSafetensorsChunks(t *testing.T) {
	n := chunkBytes/2 + 1000 // BF16: two chunks
	x := make([]float32, n)
	for i := range x {
		x[i] = float32(i % 251)
	}
	s, err := readBytes(writeBytes(t, []Tensor{{Name: "x", Shape: []int{n}, Data: x}}, DtypeBF16, nil))
	if err != nil {
		t.Fatal(err)
	}
	got := make([]float32, n)
	if err := s.ReadFloat32(s.Tensors[0], got); err != nil {
		t.Fatal(err)
	}
	for i := range got {
		if got[i] != x[i] {
			t.Fatalf("x[%d] = %g, want %g", i, got[i], x[i])
		}
	}
}

// Every half and every bfloat16 survives decode then encode, and known values decode right.
func TestHalfConversions(t *testing.T) {
	for h := 0; h < 1<<16; h++ {
		f16, bf16 := uint16(h), uint16(h)
		if x := decodeF16(f16); !math.IsNaN(float64(x)) && encodeF16(x) != f16 {
			t.Fatalf("F16 %#04x → %g → %#04x", f16, x, encodeF16(x))
		}
		if x := bf16ToFloat32(bf16); !math.IsNaN(float64(x)) && float32ToBF16(x) != bf16 {
			t.Fatalf("BF16 %#04x → %g → %#04x", bf16, x, float32ToBF16(x))
		}
	}
	for _, c := range []struct {
		h    uint16
		want float32
	}{{0x3c00, 1}, {0xc000, -2}, {0x7bff, 65504}, {0x0001, 0x1p-24}, {0x0400, 0x1p-14}, {0x3555, 0.333251953125}} {
		if got := decodeF16(c.h); got != c.want {
			t.Errorf("decodeF16(%#04x) = %g, want %g", c.h, got, c.want)
		}
	}
	for _, c := range []struct {
		x    float32
		want uint16
	}{
		{1 + 0x1p-11, 0x3c00},            // halfway between 1 and the next half: ties to even (1)
		{1 + 3*0x1p-11, 0x3c02},          // halfway, odd below: rounds up
		{1 + 0x1p-11 + 0x1p-20, 0x3c01},  // just past halfway
		{65520, 0x7c00},                  // rounds past the largest half: inf
		{0x1p-25, 0x0000},                // half the smallest subnormal: ties to even (0)
		{0x1p-25 + 0x1p-35, 0x0001},      // just above: the smallest subnormal
		{-3 * 0x1p-25, 0x8002},           // 1.5 subnormal units: ties to even (2)
		{float32(math.Inf(-1)), 0xfc00},  // -inf
		{0x1p-14 - 0x1p-25, 0x0400},      // rounds up from the largest subnormal to the smallest normal
		{float32(math.NaN()), 0x7e00},    // a quiet NaN
		{1e-30, 0},                       // underflow
		{-1e-30, 0x8000},                 // signed zero
		{float32(1<<16 + 1<<15), 0x7c00}, // overflow
	} {
		if got := encodeF16(c.x); got != c.want {
			t.Errorf("encodeF16(%g) = %#04x, want %#04x", c.x, got, c.want)
		}
	}
	for _, c := range []struct {
		x    float32
		want uint16
	}{
		{1 + 0x1p-8, 0x3f80},           // halfway between 1 and 1+2^-7: ties to even (1)
		{1 + 3*0x1p-8, 0x3f82},         // halfway, odd below: rounds up
		{1 + 0x1p-8 + 0x1p-20, 0x3f81}, // past halfway
		{math.MaxFloat32, 0x7f80},      // rounds to inf
	} {
		if got := float32ToBF16(c.x); got != c.want {
			t.Errorf("float32ToBF16(%g) = %#04x, want %#04x", c.x, got, c.want)
		}
	}
}

// Every malformed file is an error naming the file, the tensor when there is one, and the problem.
func TestSafetensorsMalformed(t *testing.T) {
	good := writeBytes(t, []Tensor{
		{Name: "a", Shape: []int{2, 2}, Data: []float32{1, 2, 3, 4}},
		{Name: "b", Shape: []int{3}, Data: []float32{5, 6, 7}},
	}, DtypeF32, nil)
	withLength := func(n uint64) []byte {
		b := bytes.Clone(good)
		binary.LittleEndian.PutUint64(b, n)
		return b
	}
	data16 := make([]byte, 16)
	for _, c := range []struct {
		name string
		file []byte
		want string
	}{
		{"empty", nil, "file is 0 bytes, too short for the 8-byte header length"},
		{"truncated", good[:len(good)-4], "tensor b: data_offsets [16 28] run past the end of the file (the data section has 24 bytes); truncated?"},
		{"truncated header", good[:20], "runs past the end of the file (20 bytes)"},
		{"header length past the end", withLength(1 << 20), "header length 1048576 runs past the end of the file"},
		{"header over 100 MB", withLength(100_000_001), "header length 100000001 is over the 100 MB limit"},
		{"header length huge", withLength(math.MaxUint64), "is over the 100 MB limit"},
		{"bad JSON", rawFile(`{"a": {"dtype": "F32",`, nil), "header is not a JSON object"},
		{"not an object", rawFile(`[1, 2]`, nil), "header is not a JSON object: found ["},
		{"empty header", rawFile(``, nil), "header is not a JSON object: EOF"},
		{"two objects", rawFile(`{} {}`, nil), "header has more after its JSON object: found {"},
		{"unclosed", rawFile(`{"__metadata__":{}`, nil), "header is not a JSON object: EOF"},
		{"name twice", rawFile(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"a":{"dtype":"F32","shape":[2],"data_offsets":[8,16]}}`, data16), "tensor a: appears twice in the header"},
		{"first problem in file order", rawFile(`{"z":{"dtype":"F33","shape":[4],"data_offsets":[0,16]},"a":{"dtype":"F34","shape":[4],"data_offsets":[0,16]}}`, data16), `tensor z: unknown dtype "F33"`},
		{"unknown dtype", rawFile(`{"a":{"dtype":"F33","shape":[4],"data_offsets":[0,16]}}`, data16), `tensor a: unknown dtype "F33"`},
		{"shape against offsets", rawFile(`{"a":{"dtype":"F32","shape":[3],"data_offsets":[0,16]}}`, data16), "tensor a: data_offsets [0 16] hold 16 bytes, shape [3] of F32 needs 12"},
		{"overlap", rawFile(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]}}`, data16[:12]), "tensor b: data_offsets [4 12] overlap tensor a, which ends at 8"},
		{"gap", rawFile(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[1],"data_offsets":[12,16]}}`, data16), "tensor b: data_offsets [12 16] leave a gap of 4 bytes after tensor a"},
		{"gap at the start", rawFile(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[8,16]}}`, data16), "tensor a: data_offsets [8 16] leave a gap of 8 bytes at the start"},
		{"trailing data", rawFile(`{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}`, data16), "8 bytes of data after the last tensor"},
		{"negative dimension", rawFile(`{"a":{"dtype":"F32","shape":[-1],"data_offsets":[0,16]}}`, data16), "tensor a: shape [-1] has a negative dimension"},
		{"overflowing shape", rawFile(`{"a":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,16]}}`, data16), "tensor a: shape [4294967296 4294967296] is impossibly large"},
		{"reversed offsets", rawFile(`{"a":{"dtype":"F32","shape":[0],"data_offsets":[16,0]}}`, data16), "tensor a: data_offsets [16 0] are not an increasing pair"},
		{"three offsets", rawFile(`{"a":{"dtype":"F32","shape":[4],"data_offsets":[0,8,16]}}`, data16), "tensor a: data_offsets [0 8 16], want [begin, end]"},
		{"no dtype", rawFile(`{"a":{"shape":[4],"data_offsets":[0,16]}}`, data16), "tensor a: header entry has no dtype"},
		{"no shape", rawFile(`{"a":{"dtype":"F32","data_offsets":[0,16]}}`, data16), "tensor a: header entry has no shape"},
		{"no offsets", rawFile(`{"a":{"dtype":"F32","shape":[4]}}`, data16), "tensor a: header entry has no data_offsets"},
		{"entry not an object", rawFile(`{"a":[1]}`, nil), "tensor a: bad header entry"},
		{"fractional shape", rawFile(`{"a":{"dtype":"F32","shape":[1.5],"data_offsets":[0,16]}}`, data16), "tensor a: bad header entry"},
		{"metadata not strings", rawFile(`{"__metadata__":{"n_layer":12}}`, nil), "__metadata__ must map strings to strings"},
	} {
		_, err := readBytes(c.file)
		if err == nil {
			t.Errorf("%s: no error, want %q", c.name, c.want)
			continue
		}
		if !strings.HasPrefix(err.Error(), "gpt: load test.safetensors: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.name, err, c.want)
		}
	}
}

// A dtype the header allows but that is not a float cannot be read as float32.
func TestSafetensorsReadIntegerDtype(t *testing.T) {
	s, err := readBytes(rawFile(`{"ids":{"dtype":"I64","shape":[2],"data_offsets":[0,16]}}`, make([]byte, 16)))
	if err != nil {
		t.Fatal(err)
	}
	err = s.ReadFloat32(s.Tensors[0], make([]float32, 2))
	if want := "gpt: load test.safetensors: tensor ids: dtype I64, want F32, F16 or BF16"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
	if err := s.ReadFloat32(s.Tensors[0], make([]float32, 3)); err == nil || !strings.Contains(err.Error(), "destination 3") {
		t.Errorf("wrong destination size: got %v", err)
	}
}

// The reader never panics, whatever the bytes: every claim in the header is checked before
// it is used to size or read anything.
func FuzzReadSafetensors(f *testing.F) {
	two := 2
	f.Add(writeBytes(f, randomTensors(2), DtypeF32, map[string]string{"format": "pt"}))
	f.Add(writeBytes(f, randomTensors(3), DtypeBF16, nil))
	f.Add(rawFile(`{"a":{"dtype":"F16","shape":[2],"data_offsets":[0,4]},"b":{"dtype":"I8","shape":[],"data_offsets":[4,5]}}`, make([]byte, 5)))
	f.Add([]byte{})
	for _, file := range []string{"model.safetensors", "model-prefixed.safetensors"} {
		if b, err := os.ReadFile(filepath.Join("testdata", "reference", file)); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := readBytes(data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "gpt: load test.safetensors: ") {
				t.Errorf("error without context: %v", err)
			}
			return
		}
		for _, tn := range s.Tensors {
			if int64(tn.Len()*tn.Dtype.Size()) != tn.End-tn.Begin || tn.End > int64(len(data)) {
				t.Fatalf("tensor %s: checked header is inconsistent: %+v", tn.Name, tn)
			}
			s.ReadFloat32(tn, make([]float32, tn.Len()))
		}
		// What LoadHF does next: infer the config (two heads when the width allows it),
		// check every tensor, allocate, stream the data in. The model is never bigger
		// than twice the file, because every tensor it needs was checked to be in it.
		plan, err := planLoad(s, &hfConfig{NHead: &two, source: "config.json"})
		if err != nil {
			return
		}
		p, err := NewParams(plan.cfg)
		if err != nil {
			t.Fatalf("planned config %v: %v", plan.cfg, err)
		}
		s.fill(p, plan)
	})
}

// HTML lists every tensor and metadata key, escaping what the file says.
func TestSafetensorsHTML(t *testing.T) {
	s, err := readBytes(writeBytes(t, []Tensor{{Name: "<b>x</b>", Shape: []int{2, 3}, Data: make([]float32, 6)}}, DtypeBF16,
		map[string]string{"tokenizer": "gpt2 & co"}))
	if err != nil {
		t.Fatal(err)
	}
	h := s.HTML()
	for _, want := range []string{"<code>&lt;b&gt;x&lt;/b&gt;</code></td><td>BF16</td><td>[2 3]</td>", "<b>1 tensors</b>", "tokenizer</td><td colspan=\"2\">gpt2 &amp; co</td>"} {
		if !strings.Contains(h, want) {
			t.Errorf("HTML lacks %q:\n%s", want, h)
		}
	}
}
