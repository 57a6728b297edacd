package tokenizer

import (
	"math"
	"strings"
	"sync/atomic"
)

// This file is the encoder: pre-split the text, then for each chunk either
// find it as one whole token or run the merge loop on its bytes: repeatedly
// merge the adjacent pair with the lowest rank, leftmost first, until no
// adjacent pair has a merge rule.

// Encode returns the token ids of text. Special-token text in it, such as
// "<|endoftext|>", is encoded as ordinary text (tiktoken's rule for user
// input); use EncodeWithSpecial to let it through as special tokens.
// Invalid UTF-8 is encoded byte by byte and decodes back to the same bytes.
func (t *Tokenizer) Encode(text string) []int {
	return t.appendOrdinary(make([]int, 0, len(text)/3+1), text) // Go source: ~3.5 bytes a token
}

// EncodeWithSpecial is Encode, except that occurrences of the special tokens
// listed in allowed become their ids. allowed may hold "all" to allow every
// special token of t; texts that are not special tokens of t are ignored.
// Special tokens not allowed stay ordinary text, as with tiktoken's
// encode(text, allowed_special=allowed, disallowed_special=()).
//
//	EncodeWithSpecial("a<|endoftext|>b", []string{"<|endoftext|>"}) → [64 50256 65]
func (t *Tokenizer) EncodeWithSpecial(text string, allowed []string) []int {
	var specials []string
	for _, a := range allowed {
		if a == "all" {
			specials = t.SpecialTokens()
			break
		}
		if _, ok := t.special[a]; ok {
			specials = append(specials, a)
		}
	}
	ids := make([]int, 0, len(text)/3+1)
	for len(text) > 0 {
		at, text1 := nextSpecial(text, specials)
		ids = t.appendOrdinary(ids, text[:at])
		if at == len(text) {
			break
		}
		ids = append(ids, t.special[text1])
		text = text[at+len(text1):]
	}
	return ids
}

// nextSpecial finds the first occurrence in text of any of specials (the
// longest, if several start there). It returns len(text) if there is none.
func nextSpecial(text string, specials []string) (at int, special string) {
	at = len(text)
	for _, s := range specials {
		i := strings.Index(text, s)
		if i >= 0 && (i < at || i == at && len(s) > len(special)) {
			at, special = i, s
		}
	}
	return at, special
}

// appendOrdinary appends the ids of text, with no special tokens, to dst.
func (t *Tokenizer) appendOrdinary(dst []int, text string) []int {
	if t.split == SplitNone {
		if text == "" {
			return dst
		}
		return t.appendChunk(dst, text)
	}
	for i := 0; i < len(text); {
		j := nextChunk(text, i)
		dst = t.appendChunk(dst, text[i:j])
		i = j
	}
	return dst
}

// appendChunk appends the ids of one chunk. A one-byte chunk ("(", "\n") is
// its byte's token. Otherwise one hash of the chunk serves two tables: the
// whole-token table (" func", "\n\t", "err" are tokens), then a small cache
// of the merge loop's results ("Println" → "Print" "ln" comes back often in
// Go source). Only a chunk found in neither runs the merge loop.
func (t *Tokenizer) appendChunk(dst []int, chunk string) []int {
	if len(chunk) == 1 {
		return append(dst, int(t.byteID[chunk[0]]))
	}
	h := hashString(chunk)
	if id := t.whole.find(chunk, h); id >= 0 {
		return append(dst, int(id))
	}
	if len(chunk) > scanLimit {
		return t.mergeChunk(dst, chunk)
	}
	slot := &t.cache.slots[h&(cacheSlots-1)]
	if e := slot.Load(); e != nil && e.text == chunk {
		for _, id := range e.ids {
			dst = append(dst, int(id))
		}
		return dst
	}
	n := len(dst)
	dst = t.mergeChunk(dst, chunk)
	e := &cacheEntry{text: strings.Clone(chunk), ids: make([]int32, len(dst)-n)}
	for i, id := range dst[n:] {
		e.ids[i] = int32(id)
	}
	slot.Store(e)
	return dst
}

// chunkCache remembers the merge loop's result for recent chunks: a
// direct-mapped table indexed by the chunk's hash, where a new entry simply
// replaces the old one. Slots are atomic pointers, so concurrent Encode calls
// need no lock; the size is bounded (cacheSlots entries of at most scanLimit
// bytes).
type chunkCache struct {
	slots [cacheSlots]atomic.Pointer[cacheEntry]
}

type cacheEntry struct {
	text string  // the chunk (a copy, so the caller's text is not retained)
	ids  []int32 // its ids
}

const cacheSlots = 1 << 14

// hashString is a fast non-cryptographic hash of s (eight bytes at a time,
// multiply and xor-shift), used by the whole-token table and the cache.
func hashString(s string) uint64 {
	h := uint64(len(s)) * 0x9e3779b97f4a7c15
	for len(s) >= 8 {
		w := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
			uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
		h = (h ^ w) * 0xff51afd7ed558ccd
		h ^= h >> 32
		s = s[8:]
	}
	var w uint64
	for i := len(s) - 1; i >= 0; i-- {
		w = w<<8 | uint64(s[i])
	}
	h = (h ^ w) * 0xc4ceb9fe1a85ec53
	return h ^ h>>29
}

// wholeTable finds the token whose bytes are exactly a chunk: an
// open-addressing hash table of ids with linear probing. Each slot keeps 32
// bits of the hash so most misses need no byte comparison, and the tokens'
// bytes sit in one array, in id order, to compare against.
type wholeTable struct {
	slots []wholeSlot
	shift uint     // 64 - log2(len(slots))
	bytes []byte   // every token's bytes, concatenated in id order
	start []uint32 // (V+1) token id's bytes are bytes[start[id]:start[id+1]]
}

type wholeSlot struct {
	hash uint32 // high bits of hashString
	id   int32  // token id, or -1 for an empty slot
}

func newWholeTable(n int) wholeTable {
	bits := uint(4)
	for 1<<bits < 2*n {
		bits++
	}
	slots := make([]wholeSlot, 1<<bits)
	for i := range slots {
		slots[i].id = -1
	}
	return wholeTable{slots: slots, shift: 64 - bits}
}

// add records that token id's bytes are tok. The table must have room
// (newWholeTable(n) holds n tokens).
func (w *wholeTable) add(tok []byte, id int32) {
	h := hashString(string(tok))
	mask := uint64(len(w.slots) - 1)
	i := h >> w.shift
	for w.slots[i].id >= 0 {
		i = (i + 1) & mask
	}
	w.slots[i] = wholeSlot{uint32(h >> 32), id}
}

// find returns the id of the token whose bytes are s (h = hashString(s)),
// or -1.
func (w *wholeTable) find(s string, h uint64) int32 {
	mask := uint64(len(w.slots) - 1)
	for i := h >> w.shift; ; i = (i + 1) & mask {
		slot := w.slots[i]
		if slot.id < 0 {
			return -1
		}
		if slot.hash == uint32(h>>32) && string(w.bytes[w.start[slot.id]:w.start[slot.id+1]]) == s {
			return slot.id
		}
	}
}

// noRank marks a pair with no merge rule.
const noRank = math.MaxInt32

// scanLimit is the chunk length up to which mergeChunk finds the best pair by
// scanning (O(n²) per chunk, but no allocation and tiny constants); longer
// chunks use a heap (O(n log n)).
const scanLimit = 64

// mergeChunk appends to dst the ids the merge loop makes of chunk's bytes.
func (t *Tokenizer) mergeChunk(dst []int, chunk string) []int {
	if len(chunk) > scanLimit {
		return t.mergeHeap(dst, chunk)
	}
	var partsBuf, ranksBuf [scanLimit]int32
	n := len(chunk)
	parts := partsBuf[:n] // (n) token ids, one per byte to start with
	for i := range n {
		parts[i] = t.byteID[chunk[i]]
	}
	ranks := ranksBuf[:n] // ranks[i]: rank of the pair (parts[i], parts[i+1])
	for i := 0; i+1 < n; i++ {
		ranks[i] = t.pairs.rank(parts[i], parts[i+1])
	}
	for n > 1 {
		best, bestRank := 0, int32(noRank)
		for i, r := range ranks[:n-1] {
			if r < bestRank {
				best, bestRank = i, r
			}
		}
		if bestRank == noRank {
			break
		}
		// Merge parts[best] and parts[best+1]; only the ranks of the pairs
		// either side of the new token change.
		parts[best] = int32(t.merges[bestRank].ID)
		copy(parts[best+1:n], parts[best+2:n])
		copy(ranks[best+1:n], ranks[best+2:n])
		n--
		if best > 0 {
			ranks[best-1] = t.pairs.rank(parts[best-1], parts[best])
		}
		if best+1 < n {
			ranks[best] = t.pairs.rank(parts[best], parts[best+1])
		} else {
			ranks[best] = noRank
		}
	}
	for _, id := range parts[:n] {
		dst = append(dst, int(id))
	}
	return dst
}

// mergeHeap is mergeChunk for long chunks. The parts form a linked list over
// byte offsets; a min-heap holds candidate merges keyed by rank<<32|offset, so
// the lowest rank, then the leftmost, pops first. An entry is stale (skipped)
// when its part is gone or its pair changed. A stale entry can never look
// current: each change at an offset replaces an id by a newer token, so the
// pair there never comes back, and each rank belongs to one pair.
func (t *Tokenizer) mergeHeap(dst []int, chunk string) []int {
	n := len(chunk)
	id := make([]int32, n)   // (n) token id of the part starting at each offset
	next := make([]int32, n) // (n) offset of the next part, or n
	prev := make([]int32, n) // (n) offset of the previous part, or -1
	rank := make([]int32, n) // (n) rank of (part, next part); noRank if none or removed
	for i := range n {
		id[i], next[i], prev[i], rank[i] = t.byteID[chunk[i]], int32(i+1), int32(i-1), noRank
	}
	h := make(minHeap, 0, n)
	for i := 0; i+1 < n; i++ {
		if rank[i] = t.pairs.rank(id[i], id[i+1]); rank[i] != noRank {
			h = append(h, uint64(rank[i])<<32|uint64(i))
		}
	}
	h.init()
	for len(h) > 0 {
		top := h.pop()
		i, r := int32(top&math.MaxUint32), int32(top>>32)
		if rank[i] != r {
			continue
		}
		j := next[i]
		id[i] = int32(t.merges[r].ID)
		next[i] = next[j]
		if next[j] < int32(n) {
			prev[next[j]] = i
		}
		rank[j] = noRank
		rank[i] = noRank
		if k := next[i]; k < int32(n) {
			if rank[i] = t.pairs.rank(id[i], id[k]); rank[i] != noRank {
				h.push(uint64(rank[i])<<32 | uint64(i))
			}
		}
		if p := prev[i]; p >= 0 {
			if rank[p] = t.pairs.rank(id[p], id[i]); rank[p] != noRank {
				h.push(uint64(rank[p])<<32 | uint64(p))
			}
		}
	}
	for i := int32(0); i < int32(n); i = next[i] {
		dst = append(dst, int(id[i]))
	}
	return dst
}

// minHeap is a binary min-heap of uint64 keys.
type minHeap []uint64

func (h minHeap) init() {
	for i := len(h)/2 - 1; i >= 0; i-- {
		h.down(i)
	}
}

func (h *minHeap) push(k uint64) {
	*h = append(*h, k)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if s[p] <= s[i] {
			break
		}
		s[p], s[i] = s[i], s[p]
		i = p
	}
}

func (h *minHeap) pop() uint64 {
	s := *h
	top := s[0]
	s[0] = s[len(s)-1]
	*h = s[:len(s)-1]
	h.down(0)
	return top
}

func (h minHeap) down(i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && h[c+1] < h[c] {
			c++
		}
		if h[i] <= h[c] {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// pairTable maps a pair of ids to the rank of its merge rule: an
// open-addressing hash table with linear probing, so the merge loop does no
// Go map look-ups. A slot is one uint64, Left<<43 | Right<<22 | rank, so a
// probe touches 8 bytes; ids must be below 2^21 and ranks below 2^22.
type pairTable struct {
	slots []uint64
	shift uint // 64 - log2(len(slots))
	used  int  // slots holding a pair
}

const (
	maxVocab  = 1<<21 - 1 // ids are 21 bits; the all-ones id marks an empty slot
	rankBits  = 22
	rankMask  = 1<<rankBits - 1
	emptySlot = math.MaxUint64
)

func newPairTable(n int) pairTable {
	bits := uint(4)
	for 1<<bits < 2*n {
		bits++
	}
	slots := make([]uint64, 1<<bits)
	for i := range slots {
		slots[i] = emptySlot
	}
	return pairTable{slots: slots, shift: 64 - bits}
}

// pairKey packs a pair into the 42 bits above the rank.
func pairKey(left, right int32) uint64 { return uint64(left)<<21 | uint64(right) }

func (p *pairTable) rank(left, right int32) int32 {
	key := pairKey(left, right)
	mask := uint64(len(p.slots) - 1)
	for i := (key * 0x9e3779b97f4a7c15) >> p.shift; ; i = (i + 1) & mask {
		s := p.slots[i]
		if s>>rankBits == key {
			return int32(s & rankMask)
		}
		if s == emptySlot {
			return noRank
		}
	}
}

// insert adds a pair (or changes its rank), growing the table when it is
// half full.
func (p *pairTable) insert(left, right, rank int32) {
	if (p.used+1)*2 > len(p.slots) {
		old := p.slots
		*p = newPairTable(len(old))
		for _, s := range old {
			if s != emptySlot {
				key := s >> rankBits
				p.insert(int32(key>>21), int32(key&(1<<21-1)), int32(s&rankMask))
			}
		}
	}
	key := pairKey(left, right)
	mask := uint64(len(p.slots) - 1)
	i := (key * 0x9e3779b97f4a7c15) >> p.shift
	for p.slots[i] != emptySlot && p.slots[i]>>rankBits != key {
		i = (i + 1) & mask
	}
	if p.slots[i] == emptySlot {
		p.used++
	}
	p.slots[i] = key<<rankBits | uint64(rank)
}
