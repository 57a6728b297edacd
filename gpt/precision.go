package gpt

// Precision is the number format a model computes in.
type Precision int

const (
	// FP32: weights and activations in float32.
	FP32 Precision = iota
	// BF16: weights stored as bfloat16 (2 bytes per parameter, no float32 copy) and every
	// activation rounded to bfloat16 after each op, with products accumulated in float32,
	// as PyTorch's model.to(torch.bfloat16) does on a CPU; bf16.go lists every rounding.
	BF16
)

func (p Precision) String() string {
	switch p {
	case FP32:
		return "fp32"
	case BF16:
		return "bf16"
	}
	return "Precision(?)"
}
