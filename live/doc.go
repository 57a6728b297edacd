// Package live holds the model's live explorers: widgets (package kernel/widget) bound to the
// model's own API (package gpt), so a slider makes the model compute.
//
//	model, tok, _, _ := gpt.Pretrained()
//	live.Sampling(model, tok, "// The")        // temperature, top-k, top-p: the distribution redrawn
//	live.Stepper(model, tok, "func main() {")  // Step, Step 10, Reset: one token per click
//	live.Attention(model, tok, "// The")       // layer, head, query: the pattern as a PNG heatmap
//	live.Tokens("func main() {}", "shipped", tok) // the tokens of two tokenizers, as you type
//
// Files:
//
//	sampling.go  the sampling explorer: the next-token distribution under a sampling policy
//	stepper.go   the generation stepper: a Generator driven by buttons
//	attention.go the attention explorer: one head's pattern from the model's Trace
//	tokens.go    the tokenizer explorer: a text cut by two tokenizers, side by side
package live

// A Tokenizer turns text into token ids and back: *tokenizer.Tokenizer.
type Tokenizer interface {
	Encode(text string) []int
	Decode(ids []int) string
}
