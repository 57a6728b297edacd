package gpt

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The reference checkpoint, its config and its logits were written by tests/make_reference.py,
// whose numpy GPT-2 shares no code with this package.
const refDir = "testdata/reference"

// refConfig is what tests/make_reference.py writes: V 300, block 32, L 2, NH 2, C 16.
var refConfig = Config{VocabSize: 300, BlockSize: 32, Layers: 2, Heads: 2, Channels: 16}

type reference struct {
	IDs     [][]int `json:"ids"`
	Targets [][]int `json:"targets"`
	Loss    float64 `json:"loss"`
	Logits  []float32
}

func readReference(t testing.TB, dir string) reference {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref reference
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	s, err := OpenSafetensors(filepath.Join(dir, "logits.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	lt, ok := s.Lookup("logits")
	if !ok {
		t.Fatal("logits.safetensors has no logits")
	}
	ref.Logits = make([]float32, lt.Len())
	if err := s.ReadFloat32(lt, ref.Logits); err != nil {
		t.Fatal(err)
	}
	return ref
}

// The forward of a checkpoint loaded with LoadHF matches the numpy GPT-2: max |Δlogit| ≤
// 1e-4 and |Δloss| ≤ 1e-5 in fp32, for the plain hub layout and for GPT2LMHeadModel's.
func TestReference(t *testing.T) {
	ref := readReference(t, refDir)
	for _, file := range []string{"model.safetensors", "model-prefixed.safetensors"} {
		m, err := LoadHF(filepath.Join(refDir, file))
		if err != nil {
			t.Fatal(err)
		}
		if m.Config != refConfig {
			t.Errorf("%s: config %v, want %v", file, m.Config, refConfig)
		}
		out, err := m.Forward(ref.IDs, ref.Targets)
		if err != nil {
			t.Fatal(err)
		}
		if len(out.Logits) != len(ref.Logits) {
			t.Fatalf("%s: %d logits, reference has %d", file, len(out.Logits), len(ref.Logits))
		}
		dLogit := maxDiff(out.Logits, ref.Logits)
		dLoss := math.Abs(float64(out.Loss) - ref.Loss)
		t.Logf("%s: max |Δlogit| = %.3g over %d logits (largest |logit| %.2f), |Δloss| = %.3g (loss %.6f)",
			file, dLogit, len(ref.Logits), maxAbs(ref.Logits), dLoss, ref.Loss)
		if dLogit > 1e-4 {
			t.Errorf("%s: max |Δlogit| = %.3g, want ≤ 1e-4", file, dLogit)
		}
		if dLoss > 1e-5 {
			t.Errorf("%s: |Δloss| = %.3g (Go %.7f, numpy %.7f), want ≤ 1e-5", file, dLoss, out.Loss, ref.Loss)
		}
	}
}

func maxAbs(x []float32) float64 {
	var m float64
	for _, v := range x {
		m = math.Max(m, math.Abs(float64(v)))
	}
	return m
}

// The committed reference files are what tests/make_reference.py writes: the checkpoints
// and config byte for byte, the logits and loss to 1e-6 (numpy's float64 sums may round
// differently from one BLAS to another).
func TestReferenceScript(t *testing.T) {
	const python = "/usr/bin/python3"
	if err := exec.Command(python, "-c", "import numpy").Run(); err != nil {
		t.Skipf("skipping: %s with numpy is needed to rerun tests/make_reference.py (%v)", python, err)
	}
	out := t.TempDir()
	cmd := exec.Command(python, "../tests/make_reference.py", "--out", out)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("make_reference.py: %v\n%s", err, b)
	}
	for _, f := range []string{"model.safetensors", "model-prefixed.safetensors", "config.json"} {
		a, _ := os.ReadFile(filepath.Join(refDir, f))
		b, err := os.ReadFile(filepath.Join(out, f))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("%s differs from what tests/make_reference.py writes now (%v); rerun it and commit", f, err)
		}
	}
	committed, fresh := readReference(t, refDir), readReference(t, out)
	if d := maxDiff(committed.Logits, fresh.Logits); d > 1e-6 || len(committed.Logits) != len(fresh.Logits) {
		t.Errorf("logits differ by %.3g from what tests/make_reference.py writes now", d)
	}
	if d := math.Abs(committed.Loss - fresh.Loss); d > 1e-6 {
		t.Errorf("loss differs by %.3g from what tests/make_reference.py writes now", d)
	}
	committedActs, freshActs := readRefActivations(t, refDir), readRefActivations(t, out)
	for n, a := range committedActs {
		b, ok := freshActs[n]
		if !ok || len(a.Data) != len(b.Data) || maxDiff(a.Data, b.Data) > 1e-6 {
			t.Errorf("activation %s differs from what tests/make_reference.py writes now", n)
		}
	}
}

// hfTensors lists m's parameters under Hugging Face names, optionally with the
// "transformer." prefix and a tied lm_head.weight.
func hfTensors(m *Model, prefixed bool) []Tensor {
	var ts []Tensor
	for _, t := range m.Params.Tensors {
		if prefixed {
			t.Name = "transformer." + t.Name
		}
		ts = append(ts, t)
	}
	if prefixed {
		ts = append(ts, Tensor{Name: "lm_head.weight", Shape: []int{m.Config.VocabSize, m.Config.Channels}, Data: m.Params.Wte})
	}
	return ts
}

// writeHF writes tensors as dir/model.safetensors, with config.json beside it when config
// is not empty, and returns the file's path.
func writeHF(t testing.TB, dir string, tensors []Tensor, dtype Dtype, config string) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteSafetensors(&b, tensors, dtype, map[string]string{"format": "pt"}); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "model.safetensors")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if config != "" {
		if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(config), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

const refConfigJSON = `{"model_type": "gpt2", "n_embd": 16, "n_head": 2, "n_layer": 2, "n_positions": 32, "vocab_size": 300}`

// F16 and BF16 checkpoints load as the float32 numbers they round to, with or without
// the prefix; the F16/BF16 models' logits stay near the F32 one's.
func TestLoadHFDtypes(t *testing.T) {
	want, err := LoadHF(filepath.Join(refDir, "model.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	ref := readReference(t, refDir)
	for _, dtype := range []Dtype{DtypeF32, DtypeF16, DtypeBF16} {
		for _, prefixed := range []bool{false, true} {
			tensors := hfTensors(want, prefixed)
			if dtype != DtypeF32 && prefixed { // lm_head must equal wte as loaded: round it too
				tensors[len(tensors)-1].Data = roundTo(want.Params.Wte, dtype)
			}
			path := writeHF(t, t.TempDir(), tensors, dtype, refConfigJSON)
			m, err := LoadHF(path)
			if err != nil {
				t.Fatalf("%s prefixed=%v: %v", dtype, prefixed, err)
			}
			if d := maxDiff(m.Params.Data, roundTo(want.Params.Data, dtype)); d != 0 {
				t.Errorf("%s prefixed=%v: weights differ from the rounded ones by %g", dtype, prefixed, d)
			}
			out, err := m.Forward(ref.IDs, ref.Targets)
			if err != nil {
				t.Fatal(err)
			}
			d := maxDiff(out.Logits, ref.Logits)
			t.Logf("%s prefixed=%v: max |Δlogit| vs the fp32 reference %.3g", dtype, prefixed, d)
			if limit := map[Dtype]float64{DtypeF32: 1e-4, DtypeF16: 0.02, DtypeBF16: 0.2}[dtype]; d > limit {
				t.Errorf("%s: max |Δlogit| = %.3g, want ≤ %g", dtype, d, limit)
			}
		}
	}
}

func roundTo(x []float32, dtype Dtype) []float32 {
	y := make([]float32, len(x))
	for i, v := range x {
		switch dtype {
		case DtypeF16:
			v = decodeF16(encodeF16(v))
		case DtypeBF16:
			v = bf16ToFloat32(float32ToBF16(v))
		}
		y[i] = v
	}
	return y
}

// Without config.json the heads come from GPT-2's head size of 64.
func TestLoadHFInfersHeads(t *testing.T) {
	cfg := Config{VocabSize: 10, BlockSize: 4, Layers: 3, Heads: 2, Channels: 128}
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	m.Init(1, false)
	got, err := LoadHF(writeHF(t, t.TempDir(), hfTensors(m, false), DtypeBF16, ""))
	if err != nil {
		t.Fatal(err)
	}
	if got.Config != cfg {
		t.Errorf("config %v, want %v", got.Config, cfg)
	}
}

// Every mismatch between the file and a GPT-2 is an error naming the file, the tensor
// and the problem.
func TestLoadHFErrors(t *testing.T) {
	good, err := LoadHF(filepath.Join(refDir, "model.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	// edit returns the reference tensors changed by fn.
	edit := func(prefixed bool, fn func([]Tensor) []Tensor) []Tensor {
		return fn(hfTensors(good, prefixed))
	}
	without := func(name string) func([]Tensor) []Tensor {
		return func(ts []Tensor) []Tensor {
			var out []Tensor
			for _, t := range ts {
				if t.Name != name {
					out = append(out, t)
				}
			}
			return out
		}
	}
	reshape := func(name string, shape ...int) func([]Tensor) []Tensor {
		return func(ts []Tensor) []Tensor {
			for i := range ts {
				if ts[i].Name == name {
					ts[i].Shape, ts[i].Data = shape, make([]float32, product(shape))
				}
			}
			return ts
		}
	}
	add := func(name string, shape ...int) func([]Tensor) []Tensor {
		return func(ts []Tensor) []Tensor {
			return append(ts, Tensor{Name: name, Shape: shape, Data: make([]float32, product(shape))})
		}
	}
	for _, c := range []struct {
		name    string
		tensors []Tensor
		config  string
		want    string
	}{
		{"wrong shape", edit(false, reshape("h.1.attn.c_attn.weight", 16, 47)), refConfigJSON,
			"tensor h.1.attn.c_attn.weight: shape [16 47], want [16 48]"},
		{"wrong shape, prefixed", edit(true, reshape("transformer.h.0.mlp.c_proj.weight", 16, 64)), refConfigJSON,
			"tensor transformer.h.0.mlp.c_proj.weight: shape [16 64], want [64 16]"},
		{"missing tensor", edit(false, without("h.1.ln_2.bias")), refConfigJSON, "tensor h.1.ln_2.bias: missing"},
		{"no wte", edit(false, without("wte.weight")), refConfigJSON, "tensor wte.weight: missing"},
		{"wte not a matrix", edit(false, reshape("wte.weight", 4800)), refConfigJSON, "tensor wte.weight: shape [4800], want 2 dimensions"},
		{"wpe narrower", edit(false, reshape("wpe.weight", 32, 8)), refConfigJSON, "tensor wpe.weight: shape [32 8], want [32 16]"},
		{"unexpected tensor", edit(false, add("h.0.attn.rotary", 4)), refConfigJSON, "tensor h.0.attn.rotary: unexpected in a GPT-2 checkpoint of 2 layers"},
		{"block out of range", edit(false, add("h.999.ln_1.weight", 16)), refConfigJSON, "tensor h.999.ln_1.weight: block 999, but the file has only"},
		{"config.json layers", edit(false, add("h.1.attn.bias", 1, 1, 32, 32)), `{"n_head": 2, "n_layer": 1}`,
			"config.json says n_layer 1, the h.N blocks says 2"},
		{"both spellings", edit(false, add("transformer.ln_f.bias", 16)), refConfigJSON, "tensor transformer.ln_f.bias: appears twice"},
		{"untied lm_head", edit(false, add("lm_head.weight", 300, 16)), refConfigJSON,
			"tensor lm_head.weight: differs from wte.weight at [0 0]"},
		{"lm_head shape", edit(false, add("lm_head.weight", 16, 300)), refConfigJSON, "tensor lm_head.weight: shape [16 300], want [300 16]"},
		{"config.json width", edit(false, unchanged), `{"n_embd": 32, "n_head": 2}`, "config.json says n_embd 32, wte.weight says 16"},
		{"config.json heads", edit(false, unchanged), `{"n_head": 3}`, "gpt: config: 16 channels is not a positive multiple of 3 heads"},
		{"config.json activation", edit(false, unchanged), `{"n_head": 2, "activation_function": "relu"}`, `activation_function "relu", GPT-2 uses gelu_new`},
		{"config.json bad", edit(false, unchanged), `{"n_head": "two"}`, "config.json: json: cannot unmarshal string"},
		{"no config.json, width 16", edit(false, unchanged), "", "cannot tell the number of heads: width 16 is not a multiple of GPT-2's head size 64; put the model's config.json beside the file"},
	} {
		dir := t.TempDir()
		path := writeHF(t, dir, c.tensors, DtypeF32, c.config)
		_, err := LoadHF(path)
		if err == nil {
			t.Errorf("%s: no error, want %q", c.name, c.want)
			continue
		}
		if !strings.HasPrefix(err.Error(), "gpt: load "+path+": ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.name, err, c.want)
		}
	}
}

func unchanged(ts []Tensor) []Tensor { return ts }

// A dtype the header allows but GPT-2 weights cannot have, and a truncated file.
func TestLoadHFBadBytes(t *testing.T) {
	b, err := os.ReadFile(filepath.Join(refDir, "model.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "model.safetensors")
	os.WriteFile(filepath.Join(dir, "config.json"), []byte(refConfigJSON), 0o644)
	// "F32" → "I32" keeps every offset: the header stays valid, the tensor does not.
	entry := []byte(`"h.0.ln_1.bias":{"dtype":"F32"`)
	i := bytes.Index(b, entry)
	if i < 0 {
		t.Fatal("reference header has no h.0.ln_1.bias entry")
	}
	bad := bytes.Clone(b)
	copy(bad[i+len(entry)-4:], `I32"`)
	for _, c := range []struct {
		name string
		file []byte
		want string
	}{
		{"integer dtype", bad, "tensor h.0.ln_1.bias: dtype I32, want F32, F16 or BF16"},
		{"truncated", b[:len(b)-100], "tensor wte.weight: data_offsets [36608 55808] run past the end of the file (the data section has 55708 bytes); truncated?"},
		{"cut in the header", b[:100], "header length"},
	} {
		os.WriteFile(path, c.file, 0o644)
		_, err := LoadHF(path)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "gpt: load "+path) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

// Save and Load round-trip an FP32 model exactly and a BF16 one at half the bytes.
func TestSaveLoad(t *testing.T) {
	m, err := New(Tiny)
	if err != nil {
		t.Fatal(err)
	}
	m.Init(7, true)
	dir := t.TempDir()
	f32, bf16 := filepath.Join(dir, "f32.safetensors"), filepath.Join(dir, "bf16.safetensors")
	meta := map[string]string{"tokenizer": "gpt2", "n_layer": "99"}
	if err := Save(f32, m, meta); err != nil {
		t.Fatal(err)
	}
	if err := Save(bf16, m.WithPrecision(BF16), meta); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		want []float32
	}{{f32, m.Params.Data}, {bf16, roundTo(m.Params.Data, DtypeBF16)}} {
		got, gotMeta, err := Load(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if got.Config != Tiny || got.Precision != FP32 {
			t.Errorf("%s: config %v precision %v, want %v fp32", c.path, got.Config, got.Precision, Tiny)
		}
		if d := maxDiff(got.Params.Data, c.want); d != 0 {
			t.Errorf("%s: weights differ by %g", c.path, d)
		}
		if gotMeta["tokenizer"] != "gpt2" || gotMeta["n_layer"] != "2" || gotMeta["format"] != "gptnotes" {
			t.Errorf("%s: metadata %v", c.path, gotMeta)
		}
	}
	// A shipped BF16 model computes exactly as the model it was saved from.
	loaded, _, err := Load(bf16)
	if err != nil {
		t.Fatal(err)
	}
	batch := [][]int{{1, 2, 3, 4, 5}, {9, 8, 7, 6, 5}}
	want, err := m.WithPrecision(BF16).Forward(batch, batch)
	if err != nil {
		t.Fatal(err)
	}
	got, err := loaded.WithPrecision(BF16).Forward(batch, batch)
	if err != nil {
		t.Fatal(err)
	}
	if d := maxDiff(got.Logits, want.Logits); d != 0 || got.Loss != want.Loss {
		t.Errorf("BF16 model after Save and Load: logits differ by %g, loss %g vs %g", d, got.Loss, want.Loss)
	}
	a, _ := os.Stat(f32)
	b, _ := os.Stat(bf16)
	if ratio := float64(b.Size()) / float64(a.Size()); math.Abs(ratio-0.5) > 0.01 {
		t.Errorf("BF16 file is %.3f× the F32 one, want 0.5", ratio)
	}
	if a.Mode().Perm() != 0o644 {
		t.Errorf("saved file mode %v, want -rw-r--r--", a.Mode().Perm())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("Save left %d files in its directory, want 2", len(entries))
	}
	// A Hugging Face file has no config in its metadata: Load says so.
	_, _, err = Load(filepath.Join(refDir, "model.safetensors"))
	if err == nil || !strings.Contains(err.Error(), "__metadata__ has no vocab_size: not a checkpoint written by Save") {
		t.Errorf("Load of a Hugging Face file: %v", err)
	}
	if err := Save(filepath.Join(dir, "no", "such", "dir.safetensors"), m, nil); err == nil {
		t.Error("Save into a missing directory: no error")
	}
}

func TestFind(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("HF_HOME", "")
	t.Setenv("HF_HUB_CACHE", "")
	t.Setenv("GPT2_WEIGHTS", "")

	_, err := Find()
	wantLooked := filepath.Join(home, ".cache/huggingface/hub/models--gpt2*/snapshots/*/model.safetensors")
	if err == nil || !strings.Contains(err.Error(), wantLooked) || !strings.Contains(err.Error(), "$GPT2_WEIGHTS (unset)") {
		t.Errorf("nothing to find: got %v, want the places looked, including %s", err, wantLooked)
	}

	// The hub cache layout: snapshots/<commit>/model.safetensors, refs/main naming the commit.
	place := func(path string) string {
		os.MkdirAll(filepath.Dir(path), 0o755)
		os.WriteFile(path, []byte("x"), 0o644)
		return path
	}
	hub := filepath.Join(home, ".cache", "huggingface", "hub")
	place(filepath.Join(hub, "models--gpt2-medium", "snapshots", "aaa", "model.safetensors"))
	place(filepath.Join(hub, "models--gpt2", "snapshots", "aaa", "model.safetensors"))
	small := place(filepath.Join(hub, "models--gpt2", "snapshots", "bbb", "model.safetensors"))
	place(filepath.Join(hub, "models--gpt2", "refs", "main"))
	os.WriteFile(filepath.Join(hub, "models--gpt2", "refs", "main"), []byte("bbb\n"), 0o644)
	if got, err := Find(); err != nil || got != small {
		t.Errorf("home cache: got %q, %v; want %s", got, err, small)
	}

	hfHome := t.TempDir()
	t.Setenv("HF_HOME", hfHome)
	community := place(filepath.Join(hfHome, "hub", "models--openai-community--gpt2", "snapshots", "c1", "model.safetensors"))
	if got, err := Find(); err != nil || got != community {
		t.Errorf("$HF_HOME: got %q, %v; want %s", got, err, community)
	}

	weights := t.TempDir()
	t.Setenv("GPT2_WEIGHTS", weights)
	if _, err := Find(); err == nil || !strings.Contains(err.Error(), "$GPT2_WEIGHTS: no file "+filepath.Join(weights, "model.safetensors")) {
		t.Errorf("$GPT2_WEIGHTS without a file: %v", err)
	}
	file := place(filepath.Join(weights, "model.safetensors"))
	if got, err := Find(); err != nil || got != file {
		t.Errorf("$GPT2_WEIGHTS directory: got %q, %v", got, err)
	}
	other := place(filepath.Join(weights, "other.safetensors"))
	t.Setenv("GPT2_WEIGHTS", other)
	if got, err := Find(); err != nil || got != other {
		t.Errorf("$GPT2_WEIGHTS file: got %q, %v", got, err)
	}
}

// readRefActivations reads activations.safetensors of a reference directory: block 1's
// pattern, z, result, mlp_pre and resid_post, as tests/make_reference.py's numpy GPT-2
// computes them.
func readRefActivations(t testing.TB, dir string) map[string]*Activation {
	t.Helper()
	s, err := OpenSafetensors(filepath.Join(dir, "activations.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	acts := map[string]*Activation{}
	for _, st := range s.Tensors {
		a := &Activation{Name: st.Name, Shape: st.Shape, Data: make([]float32, st.Len())}
		if err := s.ReadFloat32(st, a.Data); err != nil {
			t.Fatal(err)
		}
		acts[st.Name] = a
	}
	return acts
}

// RunWithCache's activations of block 1 — the pattern, z, each head's result, the MLP's
// pre-activation and the residual stream after the block — match the numpy GPT-2's, under
// the same names and shapes, to 1e-4 like the logits.
func TestReferenceActivations(t *testing.T) {
	ref := readReference(t, refDir)
	want := readRefActivations(t, refDir)
	m, err := LoadHF(filepath.Join(refDir, "model.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, 0, len(want))
	for n := range want {
		names = append(names, n)
	}
	if len(names) != 5 {
		t.Fatalf("the reference has %d activations, want 5: %v", len(names), names)
	}
	_, cache, err := m.runHooked("test", ref.IDs, nil, func(n string) bool { return matchedByAny(n, names) })
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		got, err := cache.Get(n)
		if err != nil {
			t.Fatal(err)
		}
		w := want[n]
		if !slices.Equal(got.Shape, w.Shape) {
			t.Errorf("%s: shape %v, numpy's %v", n, got.Shape, w.Shape)
			continue
		}
		d := maxDiff(got.Data, w.Data)
		t.Logf("%s %v: max |diff| %.3g (largest |value| %.3g)", n, w.Shape, d, maxAbs(w.Data))
		if d > 1e-4 {
			t.Errorf("%s: max |diff| %.3g from numpy's, want ≤ 1e-4", n, d)
		}
	}
}
