package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/tokenizer"
)

// `gptnotes generate` samples text from a GPT-2 on the command line: the policy first (the
// study's habit 4: log the sampling settings with every output), then the text as it
// streams, then what it cost on stderr.

func init() {
	register(command{
		name:    "generate",
		summary: "sample text from GPT-2 weights (OpenAI's or a trained checkpoint), streaming",
		run:     func(args []string) error { return runGenerate(args, os.Stdout, os.Stderr) },
	})
}

func runGenerate(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("generate", "[--weights PATH] [--prompt TEXT] [--tokens N] [policy flags]",
		"Loads GPT-2 weights and continues the prompt, printing the sampling policy, then the text as\n"+
			"it is generated. PATH is a Hugging Face model.safetensors (or its directory), or a checkpoint\n"+
			"written by `gptnotes train` (its tokenizer is the .tok file beside it). Without --weights,\n"+
			"GPT-2 is searched in $GPT2_WEIGHTS and the Hugging Face cache. The defaults are nanoGPT's\n"+
			"sample.py: temperature 0.8, top-k 200. Temperature 0 is greedy (argmax).")
	fs.SetOutput(stderr)
	weights := fs.String("weights", "", "model.safetensors of GPT-2 (or its directory), or a checkpoint of gptnotes train (default: search)")
	prompt := fs.String("prompt", "Hello, I'm a language model,", "the text to continue; empty starts from <|endoftext|>")
	tokens := fs.Int("tokens", 100, "new tokens to generate (fewer if the end-of-text token comes first)")
	p := gpt.NanoGPT
	fs.Float64Var(&p.Temperature, "temperature", p.Temperature, "divides the logits; 0 = argmax")
	fs.IntVar(&p.TopK, "top-k", p.TopK, "keep the k most probable tokens; 0 = off")
	fs.Float64Var(&p.TopP, "top-p", 0, "keep the smallest set holding this much of the mass, in (0, 1]; 0 = off")
	fs.Uint64Var(&p.Seed, "seed", p.Seed, "seeds the sampler: the same seed gives the same text")
	cached := fs.Bool("cached", true, "use the KV cache (--cached=false forwards the whole context every token, as nanoGPT does)")
	keep := fs.Int("keep", 0, "tokens kept when the context passes the block size; 0 = the block size (slide by one)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q (the prompt goes in --prompt)", fs.Args())
	}
	if *tokens < 0 {
		return fmt.Errorf("--tokens %d, want ≥ 0", *tokens)
	}
	if err := p.Validate(); err != nil {
		return err
	}

	m, tok, source, err := loadForGenerate(*weights)
	if err != nil {
		return err
	}
	ids := tok.Encode(*prompt)
	if len(ids) == 0 {
		ids = []int{tok.EndTokenID()}
	}
	g, err := gpt.NewGenerator(m, ids, p, *cached)
	if err != nil {
		return err
	}
	g.EndID, g.Keep = tok.EndTokenID(), *keep

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	fmt.Fprintf(stdout, "# %s; %s\n# weights: %s\n", p, g.Mode(), source)
	fmt.Fprint(stdout, *prompt)
	start := time.Now()
	n := 0
	for ; n < *tokens && ctx.Err() == nil; n++ {
		s, err := g.Step()
		if err != nil {
			fmt.Fprintln(stdout)
			return err
		}
		if s.End {
			break
		}
		stdout.Write(tok.Token(s.Token)) // raw bytes: a character split over two tokens joins on the terminal
	}
	fmt.Fprintln(stdout)
	el := time.Since(start)
	why := ""
	if g.Stopped() {
		why = ", stopped at <|endoftext|>"
	} else if ctx.Err() != nil {
		why = ", interrupted"
	}
	fmt.Fprintf(stderr, "%d tokens in %.2f s (%.1f tokens/s)%s; %s positions forwarded\n",
		n, el.Seconds(), float64(n)/el.Seconds(), why, gpt.Commas(g.Positions()))
	return nil
}

// loadForGenerate opens the model at path (or the one gpt.Find finds) with its tokenizer
// (gpt.Open), and returns a line describing what was loaded.
func loadForGenerate(path string) (*gpt.Model, *tokenizer.Tokenizer, string, error) {
	if path == "" {
		found, err := gpt.Find()
		if err != nil {
			return nil, nil, "", fmt.Errorf("%w\n(or pass --weights, e.g. --weights testdata/gopher.safetensors, the small model gptnotes ships)", err)
		}
		path = found
	}
	m, tok, err := gpt.Open(path)
	if err != nil {
		return nil, nil, "", err
	}
	return m, tok, fmt.Sprintf("%s (%v)", path, m.Config), nil
}
