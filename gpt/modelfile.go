package gpt

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Checkpoints come in two kinds, both safetensors files (see safetensors.go):
//
//   - Hugging Face's GPT-2 model.safetensors, read by LoadHF. Its keys are the names of
//     Params.Tensors, sometimes behind a "transformer." prefix; it may carry the attention
//     mask buffers h.N.attn.bias and h.N.attn.masked_bias (skipped) and lm_head.weight
//     (which must equal wte.weight: GPT-2 ties them). The config comes from the shapes and
//     from config.json beside the file.
//   - Our own, written by Save and read by Load: the same keys, no buffers, and the config
//     in __metadata__ under config.json's names (vocab_size, n_positions, n_layer, n_head,
//     n_embd), beside whatever the caller adds, e.g. the tokenizer.
//
// Both loaders check every tensor's name, shape and dtype before allocating the model,
// then stream each tensor from the file into its view of the slab, 1 MB at a time: peak
// memory is the model plus a chunk.

// loadPlan says where each tensor of the slab comes from in an open checkpoint.
type loadPlan struct {
	cfg    Config
	src    []SafeTensor // src[i] fills Layout(cfg)[i]
	lmHead *SafeTensor  // lm_head.weight when present, checked equal to wte.weight
}

// hfConfig is the part of a Hugging Face config.json that shapes a GPT-2. Pointers tell a
// missing field from a zero one.
type hfConfig struct {
	VocabSize  *int     `json:"vocab_size"`  // V, e.g. 50257
	NPositions *int     `json:"n_positions"` // BlockSize, e.g. 1024
	NLayer     *int     `json:"n_layer"`     // L, e.g. 12
	NHead      *int     `json:"n_head"`      // NH, e.g. 12
	NEmbd      *int     `json:"n_embd"`      // C, e.g. 768
	Activation *string  `json:"activation_function"`
	LayerNorm  *float64 `json:"layer_norm_epsilon"`
	source     string   // "config.json" or "__metadata__", for errors
}

// LoadHF loads a Hugging Face GPT-2 checkpoint (model.safetensors, F32, F16 or BF16) into
// an FP32 model. The config is read from the tensor shapes: V and C from wte.weight, the
// block size from wpe.weight, L from the h.N blocks. The number of heads is not in any
// shape: it comes from config.json beside the file when there is one (whose other fields
// must agree with the shapes), and otherwise from GPT-2's head size of 64, NH = C/64, as
// in all four released sizes. The buffers h.N.attn.bias and h.N.attn.masked_bias are
// skipped; lm_head.weight, when present, must equal wte.weight. Tensors stream from the
// file into the model 1 MB at a time: loading Small peaks at about 1.02× its 498 MB.
func LoadHF(path string) (*Model, error) { return LoadHFAs(path, FP32) }

// LoadHFAs is LoadHF into a model computing in p. In BF16 each tensor streams from the file
// straight into the model's bfloat16 slab (F32 and F16 rounded to nearest even, BF16 as it
// is), 1 MB at a time: no float32 copy of the weights is ever held, and loading Small takes
// its 249 MB.
func LoadHFAs(path string, p Precision) (*Model, error) {
	s, err := OpenSafetensors(path)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	var given *hfConfig
	configPath := filepath.Join(filepath.Dir(path), "config.json")
	if b, err := os.ReadFile(configPath); err == nil {
		given = &hfConfig{source: "config.json"}
		if err := json.Unmarshal(b, given); err != nil {
			return nil, fmt.Errorf("gpt: load %s: %s: %v", path, configPath, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("gpt: load %s: %w", path, err)
	}
	plan, err := planLoad(s, given)
	if err != nil {
		return nil, err
	}
	return s.load(plan, p)
}

// load makes a model of plan's config computing in p and streams the tensors into it.
func (s *Safetensors) load(plan loadPlan, p Precision) (*Model, error) {
	if p == BF16 {
		data := make([]uint16, plan.cfg.NumParams())
		if err := s.fill16(data, plan); err != nil {
			return nil, err
		}
		return &Model{Config: plan.cfg, Precision: BF16, w16: bindParams16(data, plan.cfg)}, nil
	}
	m, err := New(plan.cfg)
	if err != nil {
		return nil, fmt.Errorf("gpt: load %s: %w", s.Name, err)
	}
	if err := s.fill(m.Params, plan); err != nil {
		return nil, err
	}
	return m, nil
}

// planLoad infers the config from the tensors (and given, when not nil), then checks that
// every tensor of that config is present with its shape and a float dtype, and that
// nothing else is in the file but the buffers GPT-2 checkpoints carry.
func planLoad(s *Safetensors, given *hfConfig) (loadPlan, error) {
	// Keys without the "transformer." prefix; a file may mix both (lm_head has none).
	byName := map[string]SafeTensor{}
	for _, t := range s.Tensors {
		name := strings.TrimPrefix(t.Name, "transformer.")
		if _, dup := byName[name]; dup {
			return loadPlan{}, s.errorf(t.Name, "appears twice, with and without the transformer. prefix")
		}
		byName[name] = t
	}
	cfg, err := s.inferConfig(byName, given)
	if err != nil {
		return loadPlan{}, err
	}
	plan := loadPlan{cfg: cfg}
	used := map[string]bool{}
	for _, want := range Layout(cfg) {
		t, ok := byName[want.Name]
		if !ok {
			return loadPlan{}, s.errorf(want.Name, "missing")
		}
		if err := s.checkTensor(t, want.Shape); err != nil {
			return loadPlan{}, err
		}
		plan.src = append(plan.src, t)
		used[t.Name] = true
	}
	for _, t := range s.Tensors { // what is left: buffers, lm_head, or a mistake
		name := strings.TrimPrefix(t.Name, "transformer.")
		switch {
		case used[t.Name]:
		case name == "lm_head.weight":
			if err := s.checkTensor(t, []int{cfg.VocabSize, cfg.Channels}); err != nil {
				return loadPlan{}, err
			}
			plan.lmHead = &t
		case isMaskBuffer(name, cfg.Layers):
		default:
			return loadPlan{}, s.errorf(t.Name, "unexpected in a GPT-2 checkpoint of %d layers", cfg.Layers)
		}
	}
	return plan, nil
}

// fill16 is fill for a BF16 model: each tensor of plan streams into data (Layout order)
// through a 1 MB float32 chunk, rounded to bfloat16; lm_head.weight, rounded, must equal wte.
func (s *Safetensors) fill16(data []uint16, plan loadPlan) error {
	buf := make([]byte, chunkBytes)
	chunk := make([]float32, chunkBytes/4)
	read := func(t SafeTensor, dst []uint16, check bool) error {
		for off := 0; off < len(dst); off += len(chunk) {
			x := chunk[:min(len(chunk), len(dst)-off)]
			if err := s.readRange(t, off, x, buf); err != nil {
				return err
			}
			for i, v := range x {
				h := float32ToBF16(v)
				if !check {
					dst[off+i] = h
					continue
				}
				if w := dst[off+i]; h != w && !(v != v && bf16ToFloat32(w) != bf16ToFloat32(w)) {
					C, j := plan.cfg.Channels, off+i
					return s.errorf(t.Name, "differs from wte.weight at [%d %d] (%g, %g): an untied output layer is not GPT-2",
						j/C, j%C, bf16ToFloat32(h), bf16ToFloat32(w))
				}
			}
		}
		return nil
	}
	for i, t := range Layout(plan.cfg) {
		if err := read(plan.src[i], data[t.Offset:t.Offset+t.Size()], false); err != nil {
			return err
		}
	}
	if plan.lmHead == nil {
		return nil
	}
	V, C := plan.cfg.VocabSize, plan.cfg.Channels
	return read(*plan.lmHead, data[:V*C], true)
}

// isMaskBuffer reports whether name is h.N.attn.bias or h.N.attn.masked_bias, the causal
// mask and its fill value that older PyTorch GPT-2s saved with their weights.
func isMaskBuffer(name string, layers int) bool {
	rest, ok := strings.CutPrefix(name, "h.")
	if !ok {
		return false
	}
	n, rest, ok := strings.Cut(rest, ".")
	l, err := strconv.Atoi(n)
	return ok && err == nil && l >= 0 && l < layers && (rest == "attn.bias" || rest == "attn.masked_bias")
}

// checkTensor: t must have shape want and a dtype ReadFloat32 converts.
func (s *Safetensors) checkTensor(t SafeTensor, want []int) error {
	if !slices.Equal(t.Shape, want) {
		return s.errorf(t.Name, "shape %v, want %v", t.Shape, want)
	}
	if t.Dtype != DtypeF32 && t.Dtype != DtypeF16 && t.Dtype != DtypeBF16 {
		return s.errorf(t.Name, "dtype %s, want F32, F16 or BF16", t.Dtype)
	}
	return nil
}

// inferConfig reads V and C from wte.weight, the block size from wpe.weight, L from the
// highest h.N, and NH from given (or C/64); given's other fields must agree.
func (s *Safetensors) inferConfig(byName map[string]SafeTensor, given *hfConfig) (Config, error) {
	var cfg Config
	for _, name := range []string{"wte.weight", "wpe.weight"} {
		t, ok := byName[name]
		if !ok {
			return cfg, s.errorf(name, "missing")
		}
		if len(t.Shape) != 2 {
			return cfg, s.errorf(t.Name, "shape %v, want 2 dimensions", t.Shape)
		}
	}
	wte := byName["wte.weight"].Shape
	cfg.VocabSize, cfg.Channels = wte[0], wte[1]
	cfg.BlockSize = byName["wpe.weight"].Shape[0]
	for _, t := range s.Tensors { // in file order, so the first bad name is always the same
		rest, ok := strings.CutPrefix(strings.TrimPrefix(t.Name, "transformer."), "h.")
		if !ok {
			continue
		}
		n, _, _ := strings.Cut(rest, ".")
		l, err := strconv.Atoi(n)
		if err != nil || l < 0 {
			return cfg, s.errorf(t.Name, "block number %q is not a number", n)
		}
		if l >= len(s.Tensors) { // more blocks than tensors: most of them must be missing
			return cfg, s.errorf(t.Name, "block %d, but the file has only %d tensors", l, len(s.Tensors))
		}
		cfg.Layers = max(cfg.Layers, l+1)
	}
	if cfg.Layers == 0 {
		return cfg, s.errorf("h.0.ln_1.weight", "missing: the checkpoint has no blocks")
	}
	// An attention-only model has neither ln_2 nor the MLP; a block with one of them and
	// not the other is reported missing the other by the check of every tensor.
	_, ln2 := byName["h.0.ln_2.weight"]
	_, fc := byName["h.0.mlp.c_fc.weight"]
	cfg.AttnOnly = !ln2 && !fc
	if v, ok := s.Metadata["attn_only"]; ok && v != strconv.FormatBool(cfg.AttnOnly) {
		return cfg, s.errorf("", "__metadata__ says attn_only %s, but the blocks %s an MLP", v, map[bool]string{true: "have no", false: "have"}[cfg.AttnOnly])
	}
	if given == nil || given.NHead == nil {
		if cfg.Channels%64 != 0 {
			return cfg, s.errorf("", "cannot tell the number of heads: width %d is not a multiple of GPT-2's head size 64; put the model's config.json beside the file", cfg.Channels)
		}
		cfg.Heads = cfg.Channels / 64
	} else {
		cfg.Heads = *given.NHead
	}
	if given != nil {
		for _, f := range []struct {
			name  string
			given *int
			have  int
			from  string
		}{
			{"vocab_size", given.VocabSize, cfg.VocabSize, "wte.weight"},
			{"n_embd", given.NEmbd, cfg.Channels, "wte.weight"},
			{"n_positions", given.NPositions, cfg.BlockSize, "wpe.weight"},
			{"n_layer", given.NLayer, cfg.Layers, "the h.N blocks"},
		} {
			if f.given != nil && *f.given != f.have {
				return cfg, s.errorf("", "%s says %s %d, %s says %d", given.source, f.name, *f.given, f.from, f.have)
			}
		}
		if a := given.Activation; a != nil && *a != "gelu_new" {
			return cfg, s.errorf("", "%s: activation_function %q, GPT-2 uses gelu_new (GELU, tanh form)", given.source, *a)
		}
		if e := given.LayerNorm; e != nil && *e != 1e-5 {
			return cfg, s.errorf("", "%s: layer_norm_epsilon %g, GPT-2 uses 1e-05", given.source, *e)
		}
	}
	if err := cfg.Validate(); err != nil {
		return cfg, s.errorf("", "%v", err)
	}
	return cfg, nil
}

// fill streams every tensor of plan into p, then checks lm_head.weight against wte.
func (s *Safetensors) fill(p *Params, plan loadPlan) error {
	buf := make([]byte, chunkBytes)
	for i, t := range p.Tensors {
		if err := s.readRange(plan.src[i], 0, t.Data, buf); err != nil {
			return err
		}
	}
	if plan.lmHead == nil {
		return nil
	}
	C := plan.cfg.Channels
	x := make([]float32, chunkBytes/4)
	for off := 0; off < len(p.Wte); off += len(x) {
		x := x[:min(len(x), len(p.Wte)-off)]
		if err := s.readRange(*plan.lmHead, off, x, buf); err != nil {
			return err
		}
		for i, v := range x {
			if w := p.Wte[off+i]; v != w && !(v != v && w != w) {
				j := off + i
				return s.errorf(plan.lmHead.Name, "differs from wte.weight at [%d %d] (%g, %g): an untied output layer is not GPT-2",
					j/C, j%C, v, w)
			}
		}
	}
	return nil
}

// Save writes m to path as a safetensors file in Params' layout and names, with the config
// in __metadata__ (vocab_size, n_positions, n_layer, n_head, n_embd, as config.json spells
// them, and format "gptnotes") beside meta, e.g. {"tokenizer": "gpt2"}; the config keys win
// over meta's. The weights are stored as m computes: F32 for an FP32 model, BF16 (half the
// bytes) for a BF16 one, so Save(path, m.WithPrecision(BF16), meta) ships a model at 2 bytes
// per parameter. The file is written beside path and renamed into place, so a failed Save
// leaves no partial file.
func Save(path string, m *Model, meta map[string]string) error {
	cfg := m.Config
	all := map[string]string{}
	for k, v := range meta {
		all[k] = v
	}
	all["format"] = "gptnotes"
	all["vocab_size"] = strconv.Itoa(cfg.VocabSize)
	all["n_positions"] = strconv.Itoa(cfg.BlockSize)
	all["n_layer"] = strconv.Itoa(cfg.Layers)
	all["n_head"] = strconv.Itoa(cfg.Heads)
	all["n_embd"] = strconv.Itoa(cfg.Channels)
	if cfg.AttnOnly {
		all["attn_only"] = "true" // TransformerLens's name; Load also reads it from the tensors
	}

	dtype := DtypeF32
	var srcs []tensorSource
	for _, t := range Layout(cfg) {
		src := tensorSource{name: t.Name, shape: t.Shape}
		if m.Precision == BF16 {
			dtype = DtypeBF16
			w := m.w16.data[t.Offset : t.Offset+t.Size()]
			src.read = func(dst []float32, off int) {
				for i, h := range w[off : off+len(dst)] {
					dst[i] = bf16ToFloat32(h)
				}
			}
		} else {
			w := m.Params.Data[t.Offset : t.Offset+t.Size()]
			src.read = func(dst []float32, off int) { copy(dst, w[off:]) }
		}
		srcs = append(srcs, src)
	}

	return writeFileAtomic(path, func(f *os.File) error { return writeSafetensors(f, srcs, dtype, all) })
}

// Load reads a checkpoint written by Save into an FP32 model (BF16 weights widen exactly),
// and returns the file's __metadata__ as well: the config keys and whatever Save was given.
func Load(path string) (*Model, map[string]string, error) { return LoadAs(path, FP32) }

// LoadAs is Load into a model computing in p: in BF16 the weights stream from the file into
// bfloat16 without a float32 copy, as in LoadHFAs. Save(path, m) of a BF16 model and
// LoadAs(path, BF16) give back the same bits.
func LoadAs(path string, p Precision) (*Model, map[string]string, error) {
	s, err := OpenSafetensors(path)
	if err != nil {
		return nil, nil, err
	}
	defer s.Close()
	given := &hfConfig{source: "__metadata__"}
	for _, f := range []struct {
		key string
		dst **int
	}{
		{"vocab_size", &given.VocabSize}, {"n_positions", &given.NPositions},
		{"n_layer", &given.NLayer}, {"n_head", &given.NHead}, {"n_embd", &given.NEmbd},
	} {
		v, ok := s.Metadata[f.key]
		if !ok {
			return nil, nil, s.errorf("", "__metadata__ has no %s: not a checkpoint written by Save (a Hugging Face one loads with LoadHF)", f.key)
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return nil, nil, s.errorf("", "__metadata__: %s %q is not a number", f.key, v)
		}
		*f.dst = &n
	}
	plan, err := planLoad(s, given)
	if err != nil {
		return nil, nil, err
	}
	m, err := s.load(plan, p)
	if err != nil {
		return nil, nil, err
	}
	return m, s.Metadata, nil
}

// Find looks for GPT-2's weights and returns the path of a model.safetensors:
//
//  1. $GPT2_WEIGHTS, a file, or a directory holding model.safetensors; when it is set,
//     nothing else is searched.
//  2. The Hugging Face hub cache, in $HF_HUB_CACHE, $HF_HOME/hub and
//     ~/.cache/huggingface/hub: models--gpt2*/snapshots/*/model.safetensors, and the
//     same under models--openai-community--gpt2* (the hub's newer name for GPT-2). The
//     snapshot refs/main names comes first; "gpt2" (Small) sorts before its bigger sizes.
//
// The error lists every place it looked.
func Find() (string, error) {
	if p := os.Getenv("GPT2_WEIGHTS"); p != "" {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			p = filepath.Join(p, "model.safetensors")
		}
		if fi, err := os.Stat(p); err != nil || fi.IsDir() {
			return "", fmt.Errorf("gpt: find GPT-2 weights: $GPT2_WEIGHTS: no file %s", p)
		}
		return p, nil
	}
	var hubs []string
	if d := os.Getenv("HF_HUB_CACHE"); d != "" {
		hubs = append(hubs, d)
	}
	if d := os.Getenv("HF_HOME"); d != "" {
		hubs = append(hubs, filepath.Join(d, "hub"))
	}
	if d, err := os.UserHomeDir(); err == nil {
		hubs = append(hubs, filepath.Join(d, ".cache", "huggingface", "hub"))
	}
	var looked []string
	for _, hub := range hubs {
		for _, repo := range []string{"models--gpt2*", "models--openai-community--gpt2*"} {
			looked = append(looked, filepath.Join(hub, repo, "snapshots", "*", "model.safetensors"))
			dirs, _ := filepath.Glob(filepath.Join(hub, repo))
			for _, dir := range dirs {
				if p := snapshotFile(dir); p != "" {
					return p, nil
				}
			}
		}
	}
	return "", fmt.Errorf("gpt: find GPT-2 weights: no model.safetensors in $GPT2_WEIGHTS (unset), %s; set GPT2_WEIGHTS to the file or its directory",
		strings.Join(looked, ", "))
}

// snapshotFile returns the model.safetensors of a hub cache repo directory: the snapshot
// refs/main points at when it has one, else the first snapshot that does, else "".
func snapshotFile(dir string) string {
	if ref, err := os.ReadFile(filepath.Join(dir, "refs", "main")); err == nil {
		p := filepath.Join(dir, "snapshots", strings.TrimSpace(string(ref)), "model.safetensors")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "snapshots", "*", "model.safetensors"))
	for _, p := range files {
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() { // follows the blob symlink
			return p
		}
	}
	return ""
}
