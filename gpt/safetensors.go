package gpt

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"math"
	"math/bits"
	"os"
	"sort"
	"strings"
)

// Safetensors is the file format of Hugging Face checkpoints, and of ours:
//
//	8 bytes   N, the header's length, a little-endian uint64
//	N bytes   a JSON object, one entry per tensor and an optional "__metadata__" of strings:
//	          {"__metadata__": {"format": "pt"},
//	           "wte.weight": {"dtype": "F32", "shape": [50257, 768], "data_offsets": [0, 154389504]}, …}
//	the rest  the data: each tensor's numbers, little-endian and row-major, in the byte range
//	          data_offsets = [begin, end) counted from the first byte after the header
//
// The reader checks everything the header claims against the file before any number is read:
// the header fits in the file and under 100 MB, every dtype is known, every byte range holds
// exactly its shape, and the ranges tile the data section with no gap and no overlap. A tensor
// is then read in chunks straight into the caller's []float32, so loading never holds the
// file in memory.

// Dtype is a safetensors element type, spelled as in the header.
type Dtype string

// The three float types this package reads into float32 and writes.
const (
	DtypeF32  Dtype = "F32"  // IEEE float32
	DtypeF16  Dtype = "F16"  // IEEE float16: 5 exponent bits, 10 mantissa bits
	DtypeBF16 Dtype = "BF16" // bfloat16: the top half of a float32, 8 exponent bits, 7 mantissa bits
)

// dtypeSizes lists every dtype of the safetensors format with its bytes per element; the
// header check accepts them all, ReadFloat32 converts the three above.
var dtypeSizes = map[Dtype]int{
	"BOOL": 1, "U8": 1, "I8": 1, "F8_E4M3": 1, "F8_E5M2": 1,
	"I16": 2, "U16": 2, "F16": 2, "BF16": 2,
	"I32": 4, "U32": 4, "F32": 4,
	"I64": 8, "U64": 8, "F64": 8,
}

// Size is the number of bytes of one element, or 0 for a dtype safetensors does not define.
func (d Dtype) Size() int { return dtypeSizes[d] }

// MaxHeaderBytes bounds the JSON header, as the safetensors library does: 100 MB.
const MaxHeaderBytes = 100_000_000

// SafeTensor is one entry of a safetensors header.
type SafeTensor struct {
	Name       string // e.g. "h.3.attn.c_attn.weight" (Hugging Face may prefix "transformer.")
	Dtype      Dtype  // e.g. "F32"
	Shape      []int  // e.g. [768 2304]
	Begin, End int64  // data_offsets: its bytes in the data section, [Begin, End)
}

// Len is the number of elements, the product of the shape (1 for a scalar).
func (t SafeTensor) Len() int { return product(t.Shape) }

// Safetensors is an open safetensors file whose header has been checked.
type Safetensors struct {
	Name     string            // the file, for errors, e.g. "model.safetensors"
	Tensors  []SafeTensor      // in data order
	Metadata map[string]string // the "__metadata__" entry; empty when there is none

	byName map[string]int // index into Tensors
	r      io.ReaderAt
	data   int64 // where the data section starts: 8 + header length
	size   int64 // bytes in the data section
	closer io.Closer
}

// OpenSafetensors opens path and checks its header. Close it when done.
func OpenSafetensors(path string) (*Safetensors, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("gpt: load %s: %w", path, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("gpt: load %s: %w", path, err)
	}
	s, err := ReadSafetensors(f, fi.Size(), path)
	if err != nil {
		f.Close()
		return nil, err
	}
	s.closer = f
	return s, nil
}

// Close closes the file OpenSafetensors opened.
func (s *Safetensors) Close() error {
	if s.closer == nil {
		return nil
	}
	return s.closer.Close()
}

// ReadSafetensors reads and checks the header of the size-byte safetensors file r; name
// is used in errors. The data is read later, tensor by tensor, with ReadFloat32.
func ReadSafetensors(r io.ReaderAt, size int64, name string) (*Safetensors, error) {
	s := &Safetensors{Name: name, r: r, Metadata: map[string]string{}, byName: map[string]int{}}
	if size < 8 {
		return nil, s.errorf("", "file is %d bytes, too short for the 8-byte header length", size)
	}
	var lenBuf [8]byte
	if err := readFull(r, lenBuf[:], 0); err != nil {
		return nil, s.errorf("", "reading the header length: %v", err)
	}
	n := binary.LittleEndian.Uint64(lenBuf[:])
	if n > MaxHeaderBytes {
		return nil, s.errorf("", "header length %d is over the %d MB limit", n, MaxHeaderBytes/1_000_000)
	}
	if int64(n) > size-8 {
		return nil, s.errorf("", "header length %d runs past the end of the file (%d bytes); truncated?", n, size)
	}
	header := make([]byte, n)
	if err := readFull(r, header, 8); err != nil {
		return nil, s.errorf("", "reading the header: %v", err)
	}
	s.data, s.size = 8+int64(n), size-8-int64(n)
	if err := s.parseHeader(header); err != nil {
		return nil, err
	}
	return s, s.checkTiling()
}

// headerEntry is one tensor's JSON; pointers tell a missing field from a zero one.
type headerEntry struct {
	Dtype       *string  `json:"dtype"`
	Shape       *[]int64 `json:"shape"`
	DataOffsets *[]int64 `json:"data_offsets"`
}

func (s *Safetensors) parseHeader(header []byte) error {
	// A decoder rather than a map, so entries are checked in file order (the first problem
	// reported is always the same one) and a name given twice is caught.
	dec := json.NewDecoder(bytes.NewReader(header))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return s.errorf("", "header is not a JSON object: %s", jsonProblem(tok, err))
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return s.errorf("", "header is not a JSON object: %v", err)
		}
		name, _ := tok.(string) // inside an object the decoder only returns string keys
		var msg json.RawMessage
		if err := dec.Decode(&msg); err != nil {
			return s.errorf("", "header is not a JSON object: %v", err)
		}
		if seen[name] {
			return s.errorf(name, "appears twice in the header")
		}
		seen[name] = true
		if name == "__metadata__" {
			if err := json.Unmarshal(msg, &s.Metadata); err != nil {
				return s.errorf("", "__metadata__ must map strings to strings: %v", err)
			}
			continue
		}
		t, err := s.parseEntry(name, msg)
		if err != nil {
			return err
		}
		s.Tensors = append(s.Tensors, t)
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return s.errorf("", "header is not a JSON object: %v", err)
	}
	if tok, err := dec.Token(); err != io.EOF { // only the spaces that pad the header may follow
		return s.errorf("", "header has more after its JSON object: %s", jsonProblem(tok, err))
	}
	if s.Metadata == nil { // "__metadata__": null
		s.Metadata = map[string]string{}
	}
	// Data order; a zero-length tensor sorts before one starting at the same byte.
	sort.Slice(s.Tensors, func(i, j int) bool {
		a, b := s.Tensors[i], s.Tensors[j]
		if a.Begin != b.Begin {
			return a.Begin < b.Begin
		}
		if a.End != b.End {
			return a.End < b.End
		}
		return a.Name < b.Name
	})
	for i, t := range s.Tensors {
		s.byName[t.Name] = i
	}
	return nil
}

// jsonProblem describes what a JSON decoder found instead of what was wanted.
func jsonProblem(tok json.Token, err error) string {
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("found %v", tok)
}

// parseEntry checks one tensor's dtype, shape and byte range against each other.
func (s *Safetensors) parseEntry(name string, msg json.RawMessage) (SafeTensor, error) {
	var e headerEntry
	if err := json.Unmarshal(msg, &e); err != nil {
		return SafeTensor{}, s.errorf(name, "bad header entry: %v", err)
	}
	switch {
	case e.Dtype == nil:
		return SafeTensor{}, s.errorf(name, "header entry has no dtype")
	case e.Shape == nil:
		return SafeTensor{}, s.errorf(name, "header entry has no shape")
	case e.DataOffsets == nil:
		return SafeTensor{}, s.errorf(name, "header entry has no data_offsets")
	}
	t := SafeTensor{Name: name, Dtype: Dtype(*e.Dtype)}
	size := t.Dtype.Size()
	if size == 0 {
		return t, s.errorf(name, "unknown dtype %q", *e.Dtype)
	}
	// The number of bytes the shape needs, refusing any product that overflows.
	need := uint64(size)
	for _, d := range *e.Shape {
		if d < 0 {
			return t, s.errorf(name, "shape %v has a negative dimension", *e.Shape)
		}
		hi, lo := bits.Mul64(need, uint64(d))
		if hi != 0 || lo > math.MaxInt64 {
			return t, s.errorf(name, "shape %v is impossibly large", *e.Shape)
		}
		need = lo
		t.Shape = append(t.Shape, int(d))
	}
	if t.Shape == nil {
		t.Shape = []int{} // a scalar
	}
	off := *e.DataOffsets
	if len(off) != 2 {
		return t, s.errorf(name, "data_offsets %v, want [begin, end]", off)
	}
	t.Begin, t.End = off[0], off[1]
	if t.Begin < 0 || t.End < t.Begin {
		return t, s.errorf(name, "data_offsets %v are not an increasing pair of byte positions", off)
	}
	if uint64(t.End-t.Begin) != need {
		return t, s.errorf(name, "data_offsets %v hold %d bytes, shape %v of %s needs %d",
			off, t.End-t.Begin, t.Shape, t.Dtype, need)
	}
	if t.End > s.size {
		return t, s.errorf(name, "data_offsets %v run past the end of the file (the data section has %d bytes); truncated?",
			off, s.size)
	}
	return t, nil
}

// checkTiling makes sure the tensors, in data order, cover the data section exactly.
func (s *Safetensors) checkTiling() error {
	var end int64
	prev := ""
	for _, t := range s.Tensors {
		switch {
		case t.Begin < end:
			return s.errorf(t.Name, "data_offsets [%d %d] overlap tensor %s, which ends at %d", t.Begin, t.End, prev, end)
		case t.Begin > end && prev == "":
			return s.errorf(t.Name, "data_offsets [%d %d] leave a gap of %d bytes at the start of the data", t.Begin, t.End, t.Begin)
		case t.Begin > end:
			return s.errorf(t.Name, "data_offsets [%d %d] leave a gap of %d bytes after tensor %s", t.Begin, t.End, t.Begin-end, prev)
		}
		end, prev = t.End, t.Name
	}
	if end != s.size {
		return s.errorf("", "%d bytes of data after the last tensor", s.size-end)
	}
	return nil
}

// Lookup returns the header entry of the tensor called name, exactly as the file spells it.
func (s *Safetensors) Lookup(name string) (SafeTensor, bool) {
	i, ok := s.byName[name]
	if !ok {
		return SafeTensor{}, false
	}
	return s.Tensors[i], true
}

// HTML lists the file's tensors in data order (name, dtype, shape, numbers) and its
// metadata, for a notebook cell.
func (s *Safetensors) HTML() string {
	var b strings.Builder
	total := 0
	b.WriteString("<table><tr><th>tensor</th><th>dtype</th><th>shape</th><th>numbers</th></tr>")
	for _, t := range s.Tensors {
		total += t.Len()
		fmt.Fprintf(&b, "<tr><td><code>%s</code></td><td>%s</td><td>%v</td><td style=\"text-align:right\">%s</td></tr>",
			html.EscapeString(t.Name), html.EscapeString(string(t.Dtype)), t.Shape, Commas(t.Len()))
	}
	fmt.Fprintf(&b, "<tr><td><b>%d tensors</b></td><td></td><td></td><td style=\"text-align:right\"><b>%s</b></td></tr>",
		len(s.Tensors), Commas(total))
	keys := make([]string, 0, len(s.Metadata))
	for k := range s.Metadata {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "<tr><td colspan=\"2\"><i>__metadata__</i> %s</td><td colspan=\"2\">%s</td></tr>",
			html.EscapeString(k), html.EscapeString(s.Metadata[k]))
	}
	b.WriteString("</table>")
	return b.String()
}

func (s *Safetensors) String() string {
	total := 0
	for _, t := range s.Tensors {
		total += t.Len()
	}
	return fmt.Sprintf("%s: %d tensors, %s numbers, %d metadata keys", s.Name, len(s.Tensors), Commas(total), len(s.Metadata))
}

// chunkBytes is how much of a tensor is read at a time: 1 MB.
const chunkBytes = 1 << 20

// ReadFloat32 reads tensor t into dst, converting F16 and BF16 to float32; dst must
// hold exactly t.Len() numbers. The file is read in 1 MB chunks converted into place.
func (s *Safetensors) ReadFloat32(t SafeTensor, dst []float32) error {
	if len(dst) != t.Len() {
		return s.errorf(t.Name, "shape %v holds %d numbers, destination %d", t.Shape, t.Len(), len(dst))
	}
	return s.readRange(t, 0, dst, make([]byte, min(chunkBytes, max(8, len(dst)*t.Dtype.Size()))))
}

// readRange reads elements [start, start+len(dst)) of t into dst, using buf as scratch.
func (s *Safetensors) readRange(t SafeTensor, start int, dst []float32, buf []byte) error {
	size := t.Dtype.Size()
	switch t.Dtype {
	case DtypeF32, DtypeF16, DtypeBF16:
	default:
		return s.errorf(t.Name, "dtype %s, want F32, F16 or BF16", t.Dtype)
	}
	per := len(buf) / size // elements per chunk
	pos := s.data + t.Begin + int64(start)*int64(size)
	for len(dst) > 0 {
		n := min(per, len(dst))
		b := buf[:n*size]
		if err := readFull(s.r, b, pos); err != nil {
			return s.errorf(t.Name, "reading the data: %v", err)
		}
		decodeFloats(dst[:n], b, t.Dtype)
		dst, pos = dst[n:], pos+int64(len(b))
	}
	return nil
}

// decodeFloats converts little-endian elements of dtype in b into dst.
func decodeFloats(dst []float32, b []byte, dtype Dtype) {
	switch dtype {
	case DtypeF32:
		for i := range dst {
			dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
		}
	case DtypeF16:
		for i := range dst {
			dst[i] = decodeF16(binary.LittleEndian.Uint16(b[2*i:]))
		}
	case DtypeBF16:
		for i := range dst {
			dst[i] = bf16ToFloat32(binary.LittleEndian.Uint16(b[2*i:]))
		}
	}
}

// encodeFloats converts src into little-endian elements of dtype in b.
func encodeFloats(b []byte, src []float32, dtype Dtype) {
	switch dtype {
	case DtypeF32:
		for i, x := range src {
			binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
		}
	case DtypeF16:
		for i, x := range src {
			binary.LittleEndian.PutUint16(b[2*i:], encodeF16(x))
		}
	case DtypeBF16:
		for i, x := range src {
			binary.LittleEndian.PutUint16(b[2*i:], float32ToBF16(x))
		}
	}
}

// readFull reads len(b) bytes at off; a short read is io.ErrUnexpectedEOF.
func readFull(r io.ReaderAt, b []byte, off int64) error {
	n, err := r.ReadAt(b, off)
	if n == len(b) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		err = io.ErrUnexpectedEOF
	}
	return err
}

// errorf names the file and, when given, the tensor:
// "gpt: load model.safetensors: tensor h.3.attn.c_attn.weight: shape [768 2300], want [768 2304]".
func (s *Safetensors) errorf(tensor, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if tensor != "" {
		msg = "tensor " + tensor + ": " + msg
	}
	return fmt.Errorf("gpt: load %s: %s", s.Name, msg)
}

// WriteSafetensors writes tensors, in the order given, as a safetensors file of one dtype
// (F32, F16 or BF16, rounding to nearest even), with meta as its "__metadata__". Each
// tensor's Data must hold its Shape. The data is converted and written 1 MB at a time.
func WriteSafetensors(w io.Writer, tensors []Tensor, dtype Dtype, meta map[string]string) error {
	srcs := make([]tensorSource, len(tensors))
	for i, t := range tensors {
		if len(t.Data) != product(t.Shape) {
			return fmt.Errorf("gpt: write safetensors: tensor %s: shape %v holds %d numbers, data has %d",
				t.Name, t.Shape, product(t.Shape), len(t.Data))
		}
		srcs[i] = tensorSource{t.Name, t.Shape, func(dst []float32, off int) { copy(dst, t.Data[off:]) }}
	}
	return writeSafetensors(w, srcs, dtype, meta)
}

// tensorSource is one tensor to write: read fills dst with its numbers from element off on.
// Save uses it to stream a BF16 model's weights without widening them all at once.
type tensorSource struct {
	name  string
	shape []int
	read  func(dst []float32, off int)
}

func writeSafetensors(w io.Writer, tensors []tensorSource, dtype Dtype, meta map[string]string) error {
	if dtype != DtypeF32 && dtype != DtypeF16 && dtype != DtypeBF16 {
		return fmt.Errorf("gpt: write safetensors: dtype %q, want F32, F16 or BF16", dtype)
	}
	header, err := safetensorsHeader(tensors, dtype, meta)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	var lenBuf [8]byte
	binary.LittleEndian.PutUint64(lenBuf[:], uint64(len(header)))
	bw.Write(lenBuf[:])
	bw.Write(header)
	size := dtype.Size()
	buf := make([]byte, chunkBytes)
	x := make([]float32, chunkBytes/size)
	for _, t := range tensors {
		for off, n := 0, product(t.shape); off < n; {
			k := min(len(x), n-off)
			t.read(x[:k], off)
			encodeFloats(buf, x[:k], dtype)
			if _, err := bw.Write(buf[:k*size]); err != nil {
				return fmt.Errorf("gpt: write safetensors: tensor %s: %w", t.name, err)
			}
			off += k
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("gpt: write safetensors: %w", err)
	}
	return nil
}

// safetensorsHeader writes the JSON header with the tensors in the order given (so the file
// reads like the checkpoint), padded with spaces so the data starts 8-byte aligned.
func safetensorsHeader(tensors []tensorSource, dtype Dtype, meta map[string]string) ([]byte, error) {
	var b strings.Builder
	b.WriteString("{")
	if len(meta) > 0 {
		m, err := json.Marshal(meta)
		if err != nil {
			return nil, fmt.Errorf("gpt: write safetensors: __metadata__: %w", err)
		}
		fmt.Fprintf(&b, `"__metadata__":%s`, m)
	}
	seen := map[string]bool{"__metadata__": true}
	var off int64
	for i, t := range tensors {
		if seen[t.name] {
			return nil, fmt.Errorf("gpt: write safetensors: tensor %s: name used twice", t.name)
		}
		seen[t.name] = true
		name, _ := json.Marshal(t.name)
		shape, _ := json.Marshal(append([]int{}, t.shape...)) // [] rather than null for a scalar
		end := off + int64(product(t.shape)*dtype.Size())
		if i > 0 || len(meta) > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `%s:{"dtype":"%s","shape":%s,"data_offsets":[%d,%d]}`, name, dtype, shape, off, end)
		off = end
	}
	b.WriteString("}")
	for (8+b.Len())%8 != 0 {
		b.WriteString(" ")
	}
	return []byte(b.String()), nil
}

// decodeF16 converts an IEEE half to float32 (exactly: every half is a float32).
func decodeF16(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f: // inf, NaN
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	case exp == 0: // zero, subnormal: mant × 2^-24
		f := float32(mant) * (1.0 / (1 << 24))
		if sign != 0 {
			f = -f
		}
		return f
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
}

// encodeF16 rounds x to the nearest IEEE half, ties to even; too large becomes ±inf.
func encodeF16(x float32) uint16 {
	b := math.Float32bits(x)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23) & 0xff
	mant := b & 0x7fffff
	if exp == 0xff { // inf, NaN
		if mant != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	}
	e := exp - 127 + 15 // the half's biased exponent
	switch {
	case e >= 0x1f:
		return sign | 0x7c00
	case e <= 0: // a half subnormal, h × 2^-24, or zero
		if e < -10 {
			return sign
		}
		m := mant | 0x800000
		shift := uint(14 - e)
		h := m >> shift
		rem, half := m&(1<<shift-1), uint32(1)<<(shift-1)
		if rem > half || rem == half && h&1 == 1 {
			h++
		}
		return sign | uint16(h)
	}
	h := uint32(e)<<10 | mant>>13
	rem := mant & 0x1fff
	if rem > 0x1000 || rem == 0x1000 && h&1 == 1 {
		h++ // may carry into the exponent, up to inf: that is the right answer
	}
	return sign | uint16(h)
}
