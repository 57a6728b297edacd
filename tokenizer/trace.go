package tokenizer

import (
	"fmt"
	"html"
	"strings"
)

// This file is the step-through view of Encode: the chunks the pre-split
// makes and, inside each, every merge in the order it is applied. The trace
// is made by the plain merge loop (find the lowest-ranked adjacent pair,
// leftmost first, merge it, repeat), which is also the reference the fast
// encoder is tested against.

// Trace is the record of encoding one text; EncodeTrace makes it. It prints
// as text (String) and renders as HTML in a notebook (HTML).
type Trace struct {
	Text   string       // the text encoded
	Chunks []ChunkTrace // pre-split chunks, in order
	tok    *Tokenizer
}

// ChunkTrace is one chunk's way from bytes to tokens.
type ChunkTrace struct {
	Text  string      // the chunk, e.g. " world"
	Bytes []int       // ids before any merge, one per byte, e.g. [220 86 78 81 75 67]
	Steps []MergeStep // the merges, in the order they are applied
	IDs   []int       // the chunk's final ids, e.g. [995]
}

// MergeStep is one merge inside a chunk.
type MergeStep struct {
	Pair  Pair  // the adjacent ids merged, e.g. (220 86) = " w"
	Rank  int   // the rule's rank: lower ranks merge first
	ID    int   // the new token
	At    int   // index of the pair's left id in the parts before the step
	After []int // the chunk's ids after the step
}

// EncodeTrace encodes text like Encode and records every chunk and merge.
// Its ids (Trace.IDs) equal Encode(text).
func (t *Tokenizer) EncodeTrace(text string) *Trace {
	tr := &Trace{Text: text, tok: t}
	chunks := []string{text}
	if t.split == SplitGPT2 {
		chunks = Split(text)
	} else if text == "" {
		chunks = nil
	}
	for _, c := range chunks {
		tr.Chunks = append(tr.Chunks, t.traceChunk(c))
	}
	return tr
}

// traceChunk runs the plain merge loop on one chunk.
func (t *Tokenizer) traceChunk(chunk string) ChunkTrace {
	ct := ChunkTrace{Text: chunk}
	parts := make([]int, len(chunk))
	for i := range len(chunk) {
		parts[i] = int(t.byteID[chunk[i]])
	}
	ct.Bytes = append([]int(nil), parts...)
	for {
		at, best := -1, int32(noRank)
		for i := 0; i+1 < len(parts); i++ {
			if r := t.pairs.rank(int32(parts[i]), int32(parts[i+1])); r < best {
				at, best = i, r
			}
		}
		if at < 0 {
			break
		}
		m := t.merges[best]
		parts = append(parts[:at:at], append([]int{m.ID}, parts[at+2:]...)...)
		ct.Steps = append(ct.Steps, MergeStep{Pair: Pair{m.Left, m.Right}, Rank: int(best), ID: m.ID, At: at, After: parts})
	}
	ct.IDs = parts
	return ct
}

// IDs returns the token ids of the whole text, chunk after chunk.
func (tr *Trace) IDs() []int {
	var ids []int
	for _, c := range tr.Chunks {
		ids = append(ids, c.IDs...)
	}
	return ids
}

// Merges is the number of merges applied over all chunks.
func (tr *Trace) Merges() int {
	n := 0
	for _, c := range tr.Chunks {
		n += len(c.Steps)
	}
	return n
}

// String lists the chunks and merges, one line each:
//
//	"aaab" → 1 chunks, 3 merges, 1 tokens
//	chunk 1 "aaab" bytes [97 97 97 98]
//	  merge (97 97) rank 0 → 256 "aa"  [256 97 98]
//	  merge (97 98) rank 1 → 257 "ab"  [256 257]
//	  merge (256 257) rank 2 → 258 "aaab"  [258]
//	  = [258]
func (tr *Trace) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%q → %d chunks, %d merges, %d tokens\n", tr.Text, len(tr.Chunks), tr.Merges(), len(tr.IDs()))
	for i, c := range tr.Chunks {
		fmt.Fprintf(&b, "chunk %d %q bytes %v\n", i+1, c.Text, c.Bytes)
		for _, s := range c.Steps {
			fmt.Fprintf(&b, "  merge (%d %d) rank %d → %d %s  %v\n", s.Pair.Left, s.Pair.Right, s.Rank, s.ID, tokenLabel(tr.tok.vocab[s.ID]), s.After)
		}
		fmt.Fprintf(&b, "  = %v\n", c.IDs)
	}
	return b.String()
}

// HTML renders the trace as a table, one row per chunk: the chunk's bytes,
// the parts after every merge with the new token outlined, and the final
// tokens, each token a coloured span with its id.
func (tr *Trace) HTML() string {
	var b strings.Builder
	b.WriteString(`<div class="gptnotes-trace" style="font-family:monospace;font-size:13px">`)
	fmt.Fprintf(&b, `<div style="margin-bottom:4px">%s → %d chunks, %d merges, %d tokens</div>`,
		html.EscapeString(fmt.Sprintf("%q", tr.Text)), len(tr.Chunks), tr.Merges(), len(tr.IDs()))
	b.WriteString(`<table style="border-collapse:collapse">`)
	b.WriteString(`<tr><th style="text-align:left;padding:2px 8px">chunk</th><th style="text-align:left;padding:2px 8px">merges (pair, rank → token)</th><th style="text-align:left;padding:2px 8px">tokens</th></tr>`)
	for _, c := range tr.Chunks {
		b.WriteString(`<tr style="border-top:1px solid #ddd;vertical-align:top"><td style="padding:2px 8px">`)
		b.WriteString(tr.tok.spans(c.Bytes, -1))
		b.WriteString(`</td><td style="padding:2px 8px">`)
		for _, s := range c.Steps {
			fmt.Fprintf(&b, `<div>(%d %d) r%d → %d: %s</div>`, s.Pair.Left, s.Pair.Right, s.Rank, s.ID, tr.tok.spans(s.After, s.At))
		}
		b.WriteString(`</td><td style="padding:2px 8px">`)
		b.WriteString(tr.tok.spans(c.IDs, -1))
		b.WriteString(`</td></tr>`)
	}
	b.WriteString(`</table></div>`)
	return b.String()
}
