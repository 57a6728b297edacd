package gpt

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"os"

	"github.com/gptnotes/gptnotes/internal/atomicfile"
)

// A training checkpoint is a safetensors file: the model's tensors under their checkpoint
// names, the optimizer's moments as "adamw.m" and "adamw.v" (slab order, float32), and in
// __metadata__ under "gptnotes.train" the JSON of trainState below. It is written to a
// temporary file beside path and renamed over it, so a run that fails while saving never
// leaves a broken checkpoint, and an earlier one stays as it was.

// TrainStateKey is the __metadata__ key of a training checkpoint's state.
const TrainStateKey = "gptnotes.train"

// trainState is everything besides tensors that a resumed run needs.
type trainState struct {
	Config    Config         `json:"config"`
	Step      int            `json:"step"`       // steps done
	AdamSteps int            `json:"adam_steps"` // AdamW updates taken (bias correction)
	Loader    string         `json:"loader"`     // Loader.State, base64
	Options   TrainOptions   `json:"options"`
	History   []historyEntry `json:"history"`
}

type historyEntry struct {
	Step     int      `json:"step"`
	Loss     float64  `json:"loss"`
	ValLoss  *float64 `json:"val_loss,omitempty"`
	LR       float64  `json:"lr"`
	GradNorm float64  `json:"grad_norm"`
	TokensPS float64  `json:"tokens_per_sec"`
}

// SaveCheckpoint writes the model, the optimizer state and the loader's position to path.
func (t *Trainer) SaveCheckpoint(path string) error {
	m := t.Model
	loader, err := t.Train.State()
	if err != nil {
		return err
	}
	st := trainState{
		Config: m.Config, Step: t.step, AdamSteps: t.Opt.Steps,
		Loader: base64.StdEncoding.EncodeToString(loader), Options: t.Options,
	}
	for _, r := range t.History {
		h := historyEntry{Step: r.Step, Loss: r.Loss, LR: r.LR, GradNorm: r.GradNorm, TokensPS: r.TokensPerSec}
		if !math.IsNaN(r.ValLoss) {
			v := r.ValLoss
			h.ValLoss = &v
		}
		st.History = append(st.History, h)
	}
	js, err := json.Marshal(st)
	if err != nil {
		return fmt.Errorf("gpt: save checkpoint %s: %w", path, err)
	}
	n := len(m.Params.Data)
	tensors := append(append([]Tensor(nil), m.Params.Tensors...),
		Tensor{Name: "adamw.m", Shape: []int{n}, Data: t.Opt.M},
		Tensor{Name: "adamw.v", Shape: []int{n}, Data: t.Opt.V})
	meta := map[string]string{TrainStateKey: string(js)}
	return writeFileAtomic(path, func(f *os.File) error {
		return WriteSafetensors(f, tensors, DtypeF32, meta)
	})
}

// writeFileAtomic writes path with write through package atomicfile (a temporary file,
// synced, renamed over path only when write succeeded), so that a reader never sees half a
// file. Every file this package writes goes through it.
func writeFileAtomic(path string, write func(*os.File) error) error {
	if err := atomicfile.Write(path, write); err != nil {
		return fmt.Errorf("gpt: save %s: %w", path, err)
	}
	return nil
}

// Resume loads a checkpoint written by SaveCheckpoint into the trainer: parameters,
// optimizer moments and step, loader position and history. The checkpoint must be of the
// model's configuration and of the same batch shape; on any error the trainer is unchanged.
func (t *Trainer) Resume(path string) error {
	s, err := OpenSafetensors(path)
	if err != nil {
		return fmt.Errorf("gpt: resume: %w", err)
	}
	defer s.Close()
	js, ok := s.Metadata[TrainStateKey]
	if !ok {
		return fmt.Errorf("gpt: resume %s: not a training checkpoint (no %q in its metadata)", path, TrainStateKey)
	}
	var st trainState
	if err := json.Unmarshal([]byte(js), &st); err != nil {
		return fmt.Errorf("gpt: resume %s: training state: %w", path, err)
	}
	if st.Config != t.Model.Config {
		return fmt.Errorf("gpt: resume %s: the checkpoint is of another model: %v; this run trains %v", path, st.Config, t.Model.Config)
	}
	if st.Options.Batch != t.Options.Batch || st.Options.SeqLen != t.Options.SeqLen {
		return fmt.Errorf("gpt: resume %s: the checkpoint was trained on batches of %d × %d, this run uses %d × %d",
			path, st.Options.Batch, st.Options.SeqLen, t.Options.Batch, t.Options.SeqLen)
	}
	loader, err := base64.StdEncoding.DecodeString(st.Loader)
	if err != nil {
		return fmt.Errorf("gpt: resume %s: loader state: %w", path, err)
	}
	// Read everything into new buffers first, so that a bad file changes nothing.
	p, err := readCheckpointParams(s, path, t.Model.Config)
	if err != nil {
		return fmt.Errorf("gpt: resume %w", err)
	}
	n := len(p.Data)
	mom, vel := make([]float32, n), make([]float32, n)
	if err := readTensor(s, path, "adamw.m", []int{n}, mom); err != nil {
		return fmt.Errorf("gpt: resume %w", err)
	}
	if err := readTensor(s, path, "adamw.v", []int{n}, vel); err != nil {
		return fmt.Errorf("gpt: resume %w", err)
	}
	if err := t.Train.Restore(loader); err != nil {
		return fmt.Errorf("gpt: resume %s: %w", path, err)
	}
	copy(t.Model.Params.Data, p.Data)
	copy(t.Opt.M, mom)
	copy(t.Opt.V, vel)
	t.Opt.Steps = st.AdamSteps
	t.step = st.Step
	t.History = t.History[:0]
	for _, h := range st.History {
		r := StepResult{Step: h.Step, Steps: t.Options.Steps, Loss: h.Loss, ValLoss: math.NaN(), LR: h.LR, GradNorm: h.GradNorm, TokensPerSec: h.TokensPS}
		if h.ValLoss != nil {
			r.ValLoss = *h.ValLoss
		}
		t.History = append(t.History, r)
	}
	return nil
}

// readTensor reads the tensor name of shape into dst; errors start with path.
func readTensor(s *Safetensors, path, name string, shape []int, dst []float32) error {
	e, ok := s.Lookup(name)
	if !ok {
		return fmt.Errorf("%s: tensor %s is missing", path, name)
	}
	if fmt.Sprint(e.Shape) != fmt.Sprint(shape) {
		return fmt.Errorf("%s: tensor %s: shape %v, want %v", path, name, e.Shape, shape)
	}
	return s.ReadFloat32(e, dst)
}

// readCheckpointParams reads the model tensors of a training checkpoint into new Params.
func readCheckpointParams(s *Safetensors, path string, cfg Config) (*Params, error) {
	p, err := NewParams(cfg)
	if err != nil {
		return nil, err
	}
	for _, pt := range p.Tensors {
		if err := readTensor(s, path, pt.Name, pt.Shape, pt.Data); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// LoadTrainCheckpoint reads the model of a training checkpoint (SaveCheckpoint's file,
// e.g. gopher.safetensors.ckpt while `gptnotes train` runs), to look at a run midway;
// it returns the steps the checkpoint had taken too.
func LoadTrainCheckpoint(path string) (*Model, int, error) {
	s, err := OpenSafetensors(path)
	if err != nil {
		return nil, 0, err
	}
	defer s.Close()
	js, ok := s.Metadata[TrainStateKey]
	if !ok {
		return nil, 0, fmt.Errorf("gpt: load %s: not a training checkpoint (no %q in its metadata)", path, TrainStateKey)
	}
	var st trainState
	if err := json.Unmarshal([]byte(js), &st); err != nil {
		return nil, 0, fmt.Errorf("gpt: load %s: training state: %w", path, err)
	}
	p, err := readCheckpointParams(s, path, st.Config)
	if err != nil {
		return nil, 0, fmt.Errorf("gpt: load %w", err)
	}
	return &Model{Config: st.Config, Params: p, Precision: FP32}, st.Step, nil
}
