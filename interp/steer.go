package interp

import (
	"errors"
	"fmt"

	"github.com/gptnotes/gptnotes/gpt"
)

// Steering: the difference between the residual streams of two prompts at one layer is a
// direction in the stream ("Go" − "Python", say); adding a multiple of it at that layer,
// at every position while the model generates, pushes the text that way. This is
// contrastive activation addition (Rimsky et al., 2023) with the difference taken at
// each prompt's last position, the way ActAdd (Turner et al., 2023) writes "Love" − "Hate".

// Steering is a vector added to blocks.Layer.hook_resid_pre at every position.
type Steering struct {
	Layer  int
	Vector []float32 // (C)
	Coeff  float32   // the vector is added Coeff times
}

// SteeringVector is the stream entering block layer at the last position of plus minus
// that of minus.
func SteeringVector(m *gpt.Model, plus, minus []int, layer int) ([]float32, error) {
	if layer < 0 || layer >= m.Config.Layers {
		return nil, fmt.Errorf("interp: steering vector: layer %d, want 0 … %d", layer, m.Config.Layers-1)
	}
	at := func(ids []int) ([]float32, error) {
		acc, err := Accumulated(m, ids, -1)
		if err != nil {
			return nil, err
		}
		return acc[layer], nil
	}
	a, err := at(plus)
	if err != nil {
		return nil, fmt.Errorf("interp: steering vector: %w", err)
	}
	b, err := at(minus)
	if err != nil {
		return nil, fmt.Errorf("interp: steering vector: %w", err)
	}
	v := make([]float32, len(a))
	for i := range v {
		v[i] = a[i] - b[i]
	}
	return v, nil
}

// Hook is the steering as a gpt.Hook, for a Generator's Hooks or RunWithHooks.
func (s Steering) Hook() gpt.Hook {
	return gpt.Hook{Name: fmt.Sprintf("blocks.%d.hook_resid_pre", s.Layer), Fn: func(a *gpt.Activation) {
		C := len(s.Vector)
		for p := 0; p < len(a.Data)/C; p++ {
			row := a.Data[p*C : (p+1)*C]
			for i, x := range s.Vector {
				row[i] += s.Coeff * x
			}
		}
	}}
}

// Steered is a prompt continued greedily with and without the steering.
type Steered struct {
	Prompt           string
	Plain, WithSteer string // the generated text of each
}

func (s Steered) String() string {
	return fmt.Sprintf("prompt:   %q\nplain:    %q\nsteered:  %q", s.Prompt, s.Plain, s.WithSteer)
}

// Steer continues prompt greedily for n tokens twice, without and with s, in the cached
// loop (the steering's hook runs at every new position of every step).
func Steer(m *gpt.Model, tok gpt.Tokenizer, prompt string, s Steering, n int) (Steered, error) {
	run := func(hooks []gpt.Hook) (string, error) {
		g, err := gpt.NewGenerator(m, tok.Encode(prompt), gpt.Greedy, true)
		if err != nil {
			return "", err
		}
		defer g.Close() // its cache serves the next Generator over m
		g.Hooks = hooks
		if _, err := g.Steps(n); err != nil && !errors.Is(err, gpt.ErrStopped) {
			return "", err
		}
		return tok.Decode(g.Generated()), nil
	}
	out := Steered{Prompt: prompt}
	var err error
	if out.Plain, err = run(nil); err != nil {
		return out, fmt.Errorf("interp: steer: %w", err)
	}
	if out.WithSteer, err = run([]gpt.Hook{s.Hook()}); err != nil {
		return out, fmt.Errorf("interp: steer: %w", err)
	}
	return out, nil
}

// Differs reports whether the steered text is not the plain one.
func (s Steered) Differs() bool { return s.Plain != s.WithSteer }
