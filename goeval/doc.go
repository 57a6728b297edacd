// Package goeval measures a model trained on Go source the same way every time, so the
// shipped model and its successors can be compared (`gptnotes evalmodel` prints what it
// returns; docs/model-card.md keeps the figures):
//
//	validation.go  the loss on held-out windows, in nats per token and bits per byte
//	parse.go       does its Go parse: samples from the start of func main, cut where its body
//	               closes (found with go/scanner), parsed with go/parser
//	greedy.go      greedy continuations of fixed prompts
//
// Usage:
//
//	v, err := goeval.ValidationLoss(m, tok, corpus.Val, 8, 0) // v.Loss, v.BitsPerByte
//	p, err := goeval.Parse(m, tok, goeval.ParseOptions{Samples: 100, MaxNew: 256, Policy: gpt.Policy{Temperature: 0.8, TopK: 200}})
//	text, err := goeval.Greedy(m, tok, goeval.GreedyPrompts[0], 64)
package goeval
