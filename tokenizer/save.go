package tokenizer

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
)

// This file saves and loads a tokenizer in one self-describing text format,
// one fact per line:
//
//	gptnotes-tokenizer 1
//	# comments start with #
//	pattern gpt2
//	vocab 50257
//	byte 0 188                    byte value, its id (256 lines, by byte value)
//	merge 220 83 256 " t"         left, right, new id, the new token Go-quoted (rank order)
//	special 50256 "<|endoftext|>" id, text Go-quoted
//
// Load checks every line (the quoted token must equal left + right) and
// reports the line number of the first problem.

// formatHeader is the first line of a saved tokenizer.
const formatHeader = "gptnotes-tokenizer 1"

// WriteTo writes t in the text format above. It implements io.WriterTo.
func (t *Tokenizer) WriteTo(w io.Writer) (int64, error) {
	bw := bufio.NewWriter(w)
	cw := &countWriter{w: bw}
	fmt.Fprintf(cw, "%s\n", formatHeader)
	fmt.Fprintf(cw, "# byte-level BPE: 256 one-byte tokens, %d merges in rank order, %d special tokens\n", len(t.merges), len(t.special))
	fmt.Fprintf(cw, "pattern %s\nvocab %d\n", t.split, len(t.vocab))
	for b, id := range t.byteID {
		fmt.Fprintf(cw, "byte %d %d\n", b, id)
	}
	for _, m := range t.merges {
		fmt.Fprintf(cw, "merge %d %d %d %s\n", m.Left, m.Right, m.ID, strconv.Quote(string(t.vocab[m.ID])))
	}
	for _, s := range t.SpecialTokens() {
		fmt.Fprintf(cw, "special %d %s\n", t.special[s], strconv.Quote(s))
	}
	if cw.err != nil {
		return cw.n, fmt.Errorf("tokenizer: save: %w", cw.err)
	}
	if err := bw.Flush(); err != nil {
		return cw.n, fmt.Errorf("tokenizer: save: %w", err)
	}
	return cw.n, nil
}

type countWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
	return n, err
}

// Save writes t to the file path (see WriteTo for the format), through a temporary file
// renamed over path, so that a reader never sees half a tokenizer.
func (t *Tokenizer) Save(path string) error {
	var buf bytes.Buffer
	if _, err := t.WriteTo(&buf); err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("tokenizer: save %s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("tokenizer: save %s: %w", path, err)
	}
	return nil
}

// Load reads a tokenizer written by Save.
func Load(path string) (*Tokenizer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: load: %w", err)
	}
	defer f.Close()
	t, err := read(f, path)
	if err != nil {
		return nil, fmt.Errorf("tokenizer: load %w", err)
	}
	return t, nil
}

// Read reads a tokenizer in the format WriteTo writes.
func Read(r io.Reader) (*Tokenizer, error) {
	t, err := read(r, "input")
	if err != nil {
		return nil, fmt.Errorf("tokenizer: read %w", err)
	}
	return t, nil
}

// read parses the format; errors start with "name:line: ".
func read(r io.Reader, name string) (*Tokenizer, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	var (
		line    int
		split   string
		vocab   = -1
		byteID  [256]int32
		nbytes  int
		merges  []MergeRule
		tokens  = map[int][]byte{} // id → bytes, to check quoted merge tokens
		special = map[string]int{}
	)
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
	}
	ints := func(fields []string, n int) ([]int, error) {
		if len(fields) < n {
			return nil, fail("%q: want %d numbers", fields[0], n)
		}
		out := make([]int, n)
		for i := range n {
			v, err := strconv.Atoi(fields[1+i])
			if err != nil {
				return nil, fail("%s: %q is not a number", fields[0], fields[1+i])
			}
			out[i] = v
		}
		return out, nil
	}
	for sc.Scan() {
		line++
		text := sc.Text()
		if line == 1 {
			if text != formatHeader {
				return nil, fail("first line %.40q, want %q", text, formatHeader)
			}
			continue
		}
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.SplitN(text, " ", 5)
		switch fields[0] {
		case "pattern":
			if len(fields) != 2 || (fields[1] != SplitGPT2 && fields[1] != SplitNone) {
				return nil, fail("pattern: want %q or %q, got %q", SplitGPT2, SplitNone, text)
			}
			split = fields[1]
		case "vocab":
			v, err := ints(fields, 1)
			if err != nil {
				return nil, err
			}
			vocab = v[0]
		case "byte":
			v, err := ints(fields, 2)
			if err != nil {
				return nil, err
			}
			if v[0] != nbytes {
				return nil, fail("byte %d: want byte %d next (bytes come in order 0..255)", v[0], nbytes)
			}
			byteID[nbytes] = int32(v[1])
			tokens[v[1]] = []byte{byte(nbytes)}
			nbytes++
		case "merge":
			if nbytes != 256 {
				return nil, fail("merge before all 256 byte lines")
			}
			v, err := ints(fields, 3)
			if err != nil {
				return nil, err
			}
			if len(fields) != 5 {
				return nil, fail("merge: want left, right, id and the quoted token")
			}
			tok, err := strconv.Unquote(fields[4])
			if err != nil {
				return nil, fail("merge: token %s is not a Go-quoted string", fields[4])
			}
			left, okl := tokens[v[0]]
			right, okr := tokens[v[1]]
			if !okl || !okr {
				return nil, fail("merge %d %d: uses an id no earlier line defines", v[0], v[1])
			}
			if tok != string(left)+string(right) {
				return nil, fail("merge %d %d → %d: token %q is not %q + %q", v[0], v[1], v[2], tok, left, right)
			}
			if _, dup := tokens[v[2]]; dup {
				return nil, fail("merge: id %d is defined twice", v[2])
			}
			tokens[v[2]] = []byte(tok)
			merges = append(merges, MergeRule{Left: v[0], Right: v[1], ID: v[2]})
		case "special":
			v, err := ints(fields, 1)
			if err != nil {
				return nil, err
			}
			q := strings.TrimPrefix(text, fields[0]+" "+fields[1]+" ")
			s, err := strconv.Unquote(q)
			if err != nil {
				return nil, fail("special: text %s is not a Go-quoted string", q)
			}
			special[s] = v[0]
		default:
			return nil, fail("unknown line %.40q", text)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, line, err)
	}
	if line == 0 {
		return nil, fmt.Errorf("%s: empty file", name)
	}
	line++ // problems found at the end are reported past the last line
	if split == "" {
		return nil, fail("no pattern line")
	}
	if nbytes != 256 {
		return nil, fail("%d byte lines, want 256", nbytes)
	}
	t, err := newTokenizer(split, byteID, merges, special, true)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if vocab != t.VocabSize() {
		return nil, fail("vocab line says %d tokens, the file defines %d", vocab, t.VocabSize())
	}
	return t, nil
}
