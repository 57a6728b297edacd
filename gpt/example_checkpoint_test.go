package gpt_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/gptnotes/gptnotes/gpt"
)

// Save writes a model with its config and the caller's metadata; Load gives both back.
// A BF16 model is stored at 2 bytes per parameter, half the F32 file.
func ExampleSave() {
	m, _ := gpt.New(gpt.Tiny)
	m.Init(1, true)
	dir, _ := os.MkdirTemp("", "gpt-example")
	defer os.RemoveAll(dir)

	f32 := filepath.Join(dir, "tiny.safetensors")
	bf16 := filepath.Join(dir, "tiny-bf16.safetensors")
	if err := gpt.Save(f32, m, map[string]string{"tokenizer": "gpt2"}); err != nil {
		fmt.Println(err)
	}
	if err := gpt.Save(bf16, m.WithPrecision(gpt.BF16), map[string]string{"tokenizer": "gpt2"}); err != nil {
		fmt.Println(err)
	}

	loaded, meta, err := gpt.Load(f32)
	if err != nil {
		fmt.Println(err)
	}
	same := true
	for i, w := range loaded.Params.Data {
		same = same && w == m.Params.Data[i]
	}
	fmt.Println(loaded.Config)
	fmt.Println("tokenizer:", meta["tokenizer"], "heads:", meta["n_head"], "identical weights:", same)
	a, _ := os.Stat(f32)
	b, _ := os.Stat(bf16)
	fmt.Printf("%s parameters: F32 file %d bytes, BF16 file %d bytes\n", gpt.Commas(m.Config.NumParams()), a.Size(), b.Size())
	// Output:
	// GPT-2 config: vocab 512, block 64, 2 layers, 4 heads, width 32
	// tokenizer: gpt2 heads: 4 identical weights: true
	// 43,904 parameters: F32 file 178008 bytes, BF16 file 90200 bytes
}

// LoadHF reads a Hugging Face GPT-2 checkpoint; here the small random one the reference
// test uses, with config.json beside it.
func ExampleLoadHF() {
	m, err := gpt.LoadHF("testdata/reference/model.safetensors")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Config)
	// Output: GPT-2 config: vocab 300, block 32, 2 layers, 2 heads, width 16
}

// LoadAs loads a model file straight into the precision asked for: a BF16 model holds only
// its bfloat16 weights (no Params), and its KV cache is bfloat16 too.
func ExampleLoadAs() {
	m, _ := gpt.New(gpt.Tiny)
	m.Init(1, true)
	dir, _ := os.MkdirTemp("", "gpt-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "tiny.safetensors")
	if err := gpt.Save(path, m, nil); err != nil {
		fmt.Println(err)
	}
	b, _, err := gpt.LoadAs(path, gpt.BF16)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(b.Precision, "weights:", b.WeightBytes(), "bytes, fp32 Params:", b.Params != nil)
	fmt.Println("cache:", b.NewCache().Bytes(), "bytes, fp32 model's:", m.NewCache().Bytes())
	// Output:
	// bf16 weights: 87808 bytes, fp32 Params: false
	// cache: 16384 bytes, fp32 model's: 32768
}

// LoadHFAs reads a Hugging Face checkpoint into a BF16 model without a float32 copy.
func ExampleLoadHFAs() {
	m, err := gpt.LoadHFAs("testdata/reference/model.safetensors", gpt.BF16)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Config, m.Precision, m.WeightBytes())
	// Output: GPT-2 config: vocab 300, block 32, 2 layers, 2 heads, width 16 bf16 23808
}

// OpenSafetensors reads only the header: the tensors' names, dtypes, shapes and where
// their bytes are. HTML renders the same as a table in a notebook.
func ExampleOpenSafetensors() {
	s, err := gpt.OpenSafetensors("testdata/reference/model-prefixed.safetensors")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	fmt.Println(s)
	for _, t := range s.Tensors[:3] {
		fmt.Println(t.Name, t.Dtype, t.Shape, t.Begin, t.End)
	}
	// Output:
	// testdata/reference/model-prefixed.safetensors: 31 tensors, 16,706 numbers, 1 metadata keys
	// lm_head.weight F32 [300 16] 0 19200
	// transformer.h.0.attn.c_attn.bias F32 [48] 19200 19392
	// transformer.h.0.attn.c_attn.weight F32 [16 48] 19392 22464
}
