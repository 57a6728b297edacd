package gpt

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// This file is the data pipeline: a corpus is a directory of text files (by default the
// Go standard library's source), split into training and validation by file, tokenized
// once and cached on disk; a Loader draws seeded random (B, T) batches from a split.

// CorpusTokenizer is what the corpus needs from a tokenizer; *tokenizer.Tokenizer has it.
type CorpusTokenizer interface {
	Encode(text string) []int
	VocabSize() int
	EndTokenID() int     // written after every file; -1 for none
	Token(id int) []byte // the bytes of a token, used to key the cache
}

// CorpusOptions choose the files of a corpus and where its tokens are cached.
type CorpusOptions struct {
	Exts       []string // file name endings to read, e.g. [".go"] (the default)
	SkipDirs   []string // directory names never entered, e.g. ["testdata"] (the default)
	ValPercent int      // share of files held out for validation, e.g. 5 (the default)
	MaxBytes   int64    // stop listing after this many bytes of text (0: no limit)
	CacheDir   string   // token cache; "" → os.UserCacheDir()/gptnotes/corpus, "-" → no cache
}

func (o CorpusOptions) withDefaults() CorpusOptions {
	if o.Exts == nil {
		o.Exts = []string{".go"}
	}
	if o.SkipDirs == nil {
		o.SkipDirs = []string{"testdata"}
	}
	if o.ValPercent == 0 {
		o.ValPercent = 5
	}
	return o
}

// CorpusFile is one file of a corpus.
type CorpusFile struct {
	Path    string // relative to the corpus directory, slash-separated, e.g. "net/http/server.go"
	Size    int64  // bytes
	ModTime int64  // Unix nanoseconds, part of the cache key
	Val     bool   // held out for validation
}

// Corpus is a directory of text files split into training and validation by file.
// Train and Val hold token ids once Tokenize has run: each file's tokens followed by the
// tokenizer's end token (if it has one), files in path order.
type Corpus struct {
	Dir     string
	Options CorpusOptions
	Files   []CorpusFile // in path order
	Bytes   int64        // text bytes in Files

	Train  []int32 // token ids of the training files
	Val    []int32 // token ids of the validation files
	Key    string  // hex hash of the file list, sizes, times and tokenizer: the cache's name
	Cache  string  // path of the cache file; "" if caching is off
	Cached bool    // whether Tokenize read the tokens from the cache
}

// ErrEmptyCorpus is wrapped by the error for a corpus without any text.
var ErrEmptyCorpus = errors.New("gpt: empty corpus")

// GoSourceDir is the default corpus: `go env GOROOT`/src, present wherever Go is.
func GoSourceDir() string { return filepath.Join(runtime.GOROOT(), "src") }

// OpenCorpus lists the files of dir (recursively, in path order) and splits them: a file
// is held out for validation when the FNV hash of its path falls in the lowest
// ValPercent of 100, so the split is stable as files come and go. At least one file goes
// to each side when there are two or more; a corpus of one file is split by tokens
// instead (its last tenth validates), see Tokenize.
func OpenCorpus(dir string, opts CorpusOptions) (*Corpus, error) {
	opts = opts.withDefaults()
	c := &Corpus{Dir: dir, Options: opts}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != dir && slices.Contains(opts.SkipDirs, d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !hasAnySuffix(d.Name(), opts.Exts) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if info.Size() == 0 {
			return nil
		}
		if opts.MaxBytes > 0 && c.Bytes+info.Size() > opts.MaxBytes {
			return filepath.SkipAll
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		c.Files = append(c.Files, CorpusFile{Path: rel, Size: info.Size(), ModTime: info.ModTime().UnixNano(), Val: valFile(rel, opts.ValPercent)})
		c.Bytes += info.Size()
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("gpt: corpus %s: %w", dir, err)
	}
	if len(c.Files) == 0 {
		return nil, fmt.Errorf("%w: %s has no non-empty files ending in %s", ErrEmptyCorpus, dir, strings.Join(opts.Exts, ", "))
	}
	c.balance()
	return c, nil
}

func hasAnySuffix(name string, exts []string) bool {
	for _, e := range exts {
		if strings.HasSuffix(name, e) {
			return true
		}
	}
	return false
}

// valFile holds out a file when the hash of its path lands in the lowest percent of 100.
func valFile(path string, percent int) bool {
	h := fnv.New32a()
	h.Write([]byte(path))
	return int(h.Sum32()%100) < percent
}

// balance makes sure both sides have a file when there are at least two.
func (c *Corpus) balance() {
	if len(c.Files) < 2 {
		c.Files[0].Val = false
		return
	}
	nVal := 0
	for _, f := range c.Files {
		if f.Val {
			nVal++
		}
	}
	switch nVal {
	case 0:
		c.Files[len(c.Files)-1].Val = true
	case len(c.Files):
		c.Files[0].Val = false
	}
}

// Text returns the text of the training files, visiting them in an order shuffled by
// seed and stopping before maxBytes (0: all), for training a tokenizer on a sample that
// spans the whole corpus rather than its first directories.
func (c *Corpus) Text(maxBytes int64, seed uint64) (string, error) {
	order := make([]int, 0, len(c.Files))
	for i, f := range c.Files {
		if !f.Val {
			order = append(order, i)
		}
	}
	rng := rand.New(rand.NewPCG(seed, 0))
	rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	var b strings.Builder
	for _, i := range order {
		f := c.Files[i]
		if maxBytes > 0 && int64(b.Len())+f.Size > maxBytes {
			if b.Len() > 0 {
				continue
			}
		}
		data, err := os.ReadFile(filepath.Join(c.Dir, filepath.FromSlash(f.Path)))
		if err != nil {
			return "", fmt.Errorf("gpt: corpus text: %w", err)
		}
		b.Write(data)
	}
	return b.String(), nil
}

// Tokenize fills Train and Val with the token ids of the files, reading them from the
// cache when the file list, sizes, modification times and tokenizer are the same, and
// writing the cache otherwise. Files are encoded in parallel on all cores.
func (c *Corpus) Tokenize(tok CorpusTokenizer) error {
	c.Key = c.key(tok)
	if c.Options.CacheDir != "-" {
		dir := c.Options.CacheDir
		if dir == "" {
			base, err := os.UserCacheDir()
			if err != nil {
				base = os.TempDir()
			}
			dir = filepath.Join(base, "gptnotes", "corpus")
		}
		c.Cache = filepath.Join(dir, c.Key+".tokens")
		if train, val, err := readTokenCache(c.Cache, tok.VocabSize()); err == nil {
			c.Train, c.Val, c.Cached = train, val, true
			return nil
		}
	}
	tokens := make([][]int32, len(c.Files))
	errs := make([]error, len(c.Files))
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < runtime.GOMAXPROCS(0); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				data, err := os.ReadFile(filepath.Join(c.Dir, filepath.FromSlash(c.Files[i].Path)))
				if err != nil {
					errs[i] = err
					continue
				}
				ids := tok.Encode(string(data))
				if end := tok.EndTokenID(); end >= 0 {
					ids = append(ids, end)
				}
				t := make([]int32, len(ids))
				for j, id := range ids {
					t[j] = int32(id)
				}
				tokens[i] = t
			}
		}()
	}
	for i := range c.Files {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("gpt: corpus tokenize: %w", err)
	}
	c.Train, c.Val = nil, nil
	for i, f := range c.Files {
		if f.Val {
			c.Val = append(c.Val, tokens[i]...)
		} else {
			c.Train = append(c.Train, tokens[i]...)
		}
	}
	if len(c.Files) == 1 { // one file: its last tenth validates
		cut := len(c.Train) - len(c.Train)/10
		c.Train, c.Val = c.Train[:cut], c.Train[cut:]
	}
	if c.Cache != "" {
		if err := writeTokenCache(c.Cache, tok.VocabSize(), c.Train, c.Val); err != nil {
			return fmt.Errorf("gpt: corpus cache: %w", err)
		}
	}
	return nil
}

// OpenTokenized is OpenCorpus followed by Tokenize.
func OpenTokenized(dir string, tok CorpusTokenizer, opts CorpusOptions) (*Corpus, error) {
	c, err := OpenCorpus(dir, opts)
	if err != nil {
		return nil, err
	}
	return c, c.Tokenize(tok)
}

// key hashes what the tokens depend on: the file list with sizes, times and split, and
// the tokenizer's vocabulary (the bytes of every token, its size and end token).
func (c *Corpus) key(tok CorpusTokenizer) string {
	h := sha256.New()
	fmt.Fprintf(h, "gptnotes corpus v1\n%d files\n", len(c.Files))
	for _, f := range c.Files {
		fmt.Fprintf(h, "%s\t%d\t%d\t%v\n", f.Path, f.Size, f.ModTime, f.Val)
	}
	fmt.Fprintf(h, "tokenizer %d %d\n", tok.VocabSize(), tok.EndTokenID())
	var n [4]byte
	for id := 0; id < tok.VocabSize(); id++ {
		b := tok.Token(id)
		binary.LittleEndian.PutUint32(n[:], uint32(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil)[:12])
}

// The token cache: magic, vocabulary size, token width in bytes (2 or 4), the lengths of
// the two splits, then the ids little-endian.
const tokenCacheMagic = "GPTNTOK1"

func writeTokenCache(path string, vocab int, train, val []int32) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return writeFileAtomic(path, func(f *os.File) error { return writeTokens(f, vocab, train, val) })
}

// writeTokens writes the token cache's bytes to f.
func writeTokens(f *os.File, vocab int, train, val []int32) error {
	w := bufio.NewWriter(f)
	width := tokenWidth(vocab)
	hdr := make([]byte, 0, 32)
	hdr = append(hdr, tokenCacheMagic...)
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(vocab))
	hdr = binary.LittleEndian.AppendUint32(hdr, uint32(width))
	hdr = binary.LittleEndian.AppendUint64(hdr, uint64(len(train)))
	hdr = binary.LittleEndian.AppendUint64(hdr, uint64(len(val)))
	w.Write(hdr)
	buf := make([]byte, 4)
	for _, split := range [][]int32{train, val} {
		for _, id := range split {
			if width == 2 {
				binary.LittleEndian.PutUint16(buf, uint16(id))
			} else {
				binary.LittleEndian.PutUint32(buf, uint32(id))
			}
			w.Write(buf[:width])
		}
	}
	return w.Flush()
}

func tokenWidth(vocab int) int {
	if vocab <= 1<<16 {
		return 2
	}
	return 4
}

func readTokenCache(path string, vocab int) (train, val []int32, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	if len(data) < 32 || string(data[:8]) != tokenCacheMagic {
		return nil, nil, fmt.Errorf("%s: not a token cache", path)
	}
	v := int(binary.LittleEndian.Uint32(data[8:]))
	width := int(binary.LittleEndian.Uint32(data[12:]))
	nt := binary.LittleEndian.Uint64(data[16:])
	nv := binary.LittleEndian.Uint64(data[24:])
	if v != vocab || width != tokenWidth(vocab) || uint64(len(data)-32) != (nt+nv)*uint64(width) {
		return nil, nil, fmt.Errorf("%s: token cache does not match", path)
	}
	ids := make([]int32, nt+nv)
	body := data[32:]
	for i := range ids {
		if width == 2 {
			ids[i] = int32(binary.LittleEndian.Uint16(body[2*i:]))
		} else {
			ids[i] = int32(binary.LittleEndian.Uint32(body[4*i:]))
		}
		if ids[i] < 0 || int(ids[i]) >= vocab {
			return nil, nil, fmt.Errorf("%s: token %d out of range", path, ids[i])
		}
	}
	return ids[:nt:nt], ids[nt:], nil
}

// Loader draws (B, T) batches of inputs and next-token targets from a token stream at
// random offsets, from a seeded PCG whose state can be saved and restored so that a
// resumed run draws exactly the batches it would have drawn.
type Loader struct {
	Tokens  []int32 // the split it samples from
	B, T    int     // batch size and sequence length
	Batches int     // batches drawn so far

	// Repeated rows of every batch (the last ones) are not from Tokens but random tokens
	// of a vocabulary of Vocab, repeated twice: the standard way to make induction heads
	// form in a small model, which a second copy rewards for attending to what followed
	// the same token in the first (see RepeatedSequence). 0: none.
	Repeated, Vocab int

	pcg *rand.PCG
	rng *rand.Rand
}

// NewLoader makes a loader over tokens; it needs at least T+1 of them.
func NewLoader(tokens []int32, B, T int, seed uint64) (*Loader, error) {
	if B <= 0 || T <= 0 {
		return nil, fmt.Errorf("gpt: loader: batch %d × %d positions, want both > 0", B, T)
	}
	if len(tokens) < T+1 {
		return nil, fmt.Errorf("gpt: loader: %d tokens, block size %d needs at least %d", len(tokens), T, T+1)
	}
	pcg := rand.NewPCG(seed, 0x853c49e6748fea9b)
	return &Loader{Tokens: tokens, B: B, T: T, pcg: pcg, rng: rand.New(pcg)}, nil
}

// Next returns the next batch: inputs (B, T) and targets (B, T), targets[b][t] being the
// token after inputs[b][t].
func (l *Loader) Next() (inputs, targets [][]int) {
	inputs, targets = make([][]int, l.B), make([][]int, l.B)
	for b := range inputs {
		if b >= l.B-l.Repeated {
			seq := RepeatedSequence(l.rng, l.T+1, l.Vocab)
			inputs[b], targets[b] = seq[:l.T], seq[1:]
			continue
		}
		start := l.rng.IntN(len(l.Tokens) - l.T)
		inputs[b], targets[b] = window(l.Tokens, start, l.T)
	}
	l.Batches++
	return inputs, targets
}

// RepeatedSequence returns n tokens: a prefix of P random tokens, then a segment of L
// drawn uniformly from a vocabulary of V, then the same segment again and again, cut at n.
// After the segment's first copy a model can predict every token from the one before it, if
// it has learnt to look for that token earlier and take what followed it: an induction head.
// L is drawn from n/8 … n/2, so that no fixed distance back gives the answer (with one L, a
// head attending L positions back would do, and would fail on any other repetition); P from
// 0 … n-2L, so that no absolute position does either (with P always 0, a model learns which
// positions repeat which for each L and stops there: seen here, at vocabularies 300 and 4096).
//
//	n 9, P 2, L 3 → x y a b c a b c a
func RepeatedSequence(rng *rand.Rand, n, V int) []int {
	lo, hi := max(1, n/8), max(1, n/2)
	L := lo + rng.IntN(hi-lo+1)
	P := rng.IntN(max(1, n-2*L+1))
	seq := make([]int, n)
	for i := range min(P+L, n) {
		seq[i] = rng.IntN(V)
	}
	for i := P + L; i < n; i++ {
		seq[i] = seq[i-L]
	}
	return seq
}

func window(tokens []int32, start, T int) (x, y []int) {
	x, y = make([]int, T), make([]int, T)
	for t := range x {
		x[t] = int(tokens[start+t])
		y[t] = int(tokens[start+t+1])
	}
	return x, y
}

// State is the loader's position: the PCG state and the number of batches drawn.
func (l *Loader) State() ([]byte, error) {
	s, err := l.pcg.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("gpt: loader state: %w", err)
	}
	return binary.LittleEndian.AppendUint64(s, uint64(l.Batches)), nil
}

// Restore sets the position saved by State.
func (l *Loader) Restore(state []byte) error {
	if len(state) < 8 {
		return fmt.Errorf("gpt: loader restore: state of %d bytes", len(state))
	}
	n := len(state) - 8
	if err := l.pcg.UnmarshalBinary(state[:n]); err != nil {
		return fmt.Errorf("gpt: loader restore: %w", err)
	}
	l.Batches = int(binary.LittleEndian.Uint64(state[n:]))
	return nil
}

// Windows cuts non-overlapping (B, T) batches out of tokens, at most n of them (n ≤ 0: all
// that fit), for a validation loss that is the same every time. When fewer than all fit in
// n batches, the windows are spread evenly from the first token to the last, so the loss
// is measured on the whole split rather than its first files. A last partial batch is kept
// with fewer rows.
//
//	50 tokens, B 2, T 8, n 0 → 3 batches, windows starting at 0, 8, …, 40
//	1000 tokens, B 2, T 8, n 1 → 1 batch, windows starting at 0 and 991
func Windows(tokens []int32, B, T, n int) (inputs, targets [][][]int, err error) {
	fit := (len(tokens) - 1) / T // non-overlapping windows that fit
	if fit == 0 {
		return nil, nil, fmt.Errorf("gpt: windows: %d tokens, block size %d needs at least %d", len(tokens), T, T+1)
	}
	rows, last := fit, (fit-1)*T // how many windows, and where the last one starts
	if n > 0 && n*B < fit {
		rows, last = n*B, len(tokens)-1-T
	}
	for r := 0; r < rows; r++ {
		start := 0
		if rows > 1 {
			start = r * last / (rows - 1)
		}
		k := r / B
		if k == len(inputs) {
			inputs, targets = append(inputs, nil), append(targets, nil)
		}
		x, y := window(tokens, start, T)
		inputs[k], targets[k] = append(inputs[k], x), append(targets[k], y)
	}
	return inputs, targets, nil
}
