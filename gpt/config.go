package gpt

import (
	"fmt"
	"maps"
)

// Config is the shape of a GPT-2: everything needed to lay out its parameters.
type Config struct {
	VocabSize int // V, e.g. 50257
	BlockSize int // the longest context, e.g. 1024 (rows of wpe)
	Layers    int // L, e.g. 12 transformer blocks
	Heads     int // NH, e.g. 12 attention heads per block
	Channels  int // C, e.g. 768; the head size HS is C/NH

	// HookMLPIn adds the hook point blocks.l.hook_mlp_in, as TransformerLens's
	// use_hook_mlp_in does: ln_2 reads a copy of hook_resid_mid, so a hook that changes it
	// changes what the MLP sees and not the residual stream. It changes no weight and is
	// not saved with the model.
	HookMLPIn bool
	// AttnOnly makes every block attention alone, as TransformerLens's attn_only: no ln_2
	// and no MLP, so a block's output is resid_pre + attn_out. The toy models of the first
	// interpretability lessons (induction heads, composition) are attention-only. Saved
	// with the model (attn_only in __metadata__) and read back from its tensors.
	AttnOnly bool
}

// The four sizes OpenAI released, and small teaching sizes that train on a laptop.
var (
	Small  = Config{VocabSize: 50257, BlockSize: 1024, Layers: 12, Heads: 12, Channels: 768}
	Medium = Config{VocabSize: 50257, BlockSize: 1024, Layers: 24, Heads: 16, Channels: 1024}
	Large  = Config{VocabSize: 50257, BlockSize: 1024, Layers: 36, Heads: 20, Channels: 1280}
	XL     = Config{VocabSize: 50257, BlockSize: 1024, Layers: 48, Heads: 25, Channels: 1600}

	// Tiny is small enough for gradient checks and quick tests: 2 blocks, width 32.
	Tiny = Config{VocabSize: 512, BlockSize: 64, Layers: 2, Heads: 4, Channels: 32}
	// Mini is a teaching size that trains in minutes: 6 blocks, width 192, 3.5M parameters
	// (the shape of the first two models shipped in testdata/).
	Mini = Config{VocabSize: 4096, BlockSize: 256, Layers: 6, Heads: 6, Channels: 192}
	// Gopher is the shape of the model shipped in testdata/: 8 blocks, width 256, 7.4M
	// parameters, 29.7 MB in fp32.
	Gopher = Config{VocabSize: 4096, BlockSize: 256, Layers: 8, Heads: 8, Channels: 256}
)

// presets names the configurations above the way a notebook or the command line spells them.
// It is Preset's, and unexported: a notebook cell that changes Small or Presets changes nothing
// a check compares with.
var presets = map[string]Config{
	"small": Small, "medium": Medium, "large": Large, "xl": XL, "tiny": Tiny, "mini": Mini,
	"gopher": Gopher,
}

// Presets is a copy of the named configurations, for a notebook or the command line to list.
var Presets = maps.Clone(presets)

// Preset is the configuration named name ("small", "xl", "gopher", …) as this package defines
// it, whatever a caller did to Presets or Small; the zero Config for a name it does not know.
func Preset(name string) Config { return presets[name] }

// HeadSize is HS = C/NH, e.g. 64.
func (c Config) HeadSize() int { return c.Channels / c.Heads }

// Validate reports the first impossible setting.
func (c Config) Validate() error {
	switch {
	case c.VocabSize <= 0:
		return fmt.Errorf("gpt: config: vocab size %d, want > 0", c.VocabSize)
	case c.BlockSize <= 0:
		return fmt.Errorf("gpt: config: block size %d, want > 0", c.BlockSize)
	case c.Layers <= 0:
		return fmt.Errorf("gpt: config: %d layers, want > 0", c.Layers)
	case c.Heads <= 0:
		return fmt.Errorf("gpt: config: %d heads, want > 0", c.Heads)
	case c.Channels <= 0 || c.Channels%c.Heads != 0:
		return fmt.Errorf("gpt: config: %d channels is not a positive multiple of %d heads", c.Channels, c.Heads)
	case c.AttnOnly && c.HookMLPIn:
		return fmt.Errorf("gpt: config: HookMLPIn in an attention-only model, which has no MLP")
	}
	return nil
}

func (c Config) String() string {
	s := fmt.Sprintf("GPT-2 config: vocab %d, block %d, %d layers, %d heads, width %d",
		c.VocabSize, c.BlockSize, c.Layers, c.Heads, c.Channels)
	if c.AttnOnly {
		s += ", attention only"
	}
	return s
}
