package tokenizer

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	tiktoken "github.com/tiktoken-go/tokenizer"
)

// r50k is tiktoken-go's r50k_base codec, the reference for GPT2().
func r50k(tb testing.TB) tiktoken.Codec {
	tb.Helper()
	c, err := tiktoken.Get(tiktoken.R50kBase)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

func gpt2(tb testing.TB) *Tokenizer {
	tb.Helper()
	t, err := GPT2()
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// diffIDs describes the first difference between two id lists, or "" if
// they are equal.
func diffIDs(got []int, want []uint) string {
	for i := 0; i < len(got) || i < len(want); i++ {
		if i >= len(got) || i >= len(want) || got[i] != int(want[i]) {
			lo := max(i-3, 0)
			return fmt.Sprintf("first difference at id %d (got %d ids, want %d): got %v…, want %v…",
				i, len(got), len(want), got[lo:min(i+4, len(got))], want[lo:min(i+4, len(want))])
		}
	}
	return ""
}

// checkSame compares GPT2().Encode with tiktoken-go on text and checks that
// the ids decode back to text.
func checkSame(t *testing.T, g *Tokenizer, c tiktoken.Codec, name, text string) bool {
	t.Helper()
	want, _, err := c.Encode(text)
	if err != nil {
		t.Fatalf("%s: tiktoken-go: %v", name, err)
	}
	got := g.Encode(text)
	if d := diffIDs(got, want); d != "" {
		t.Errorf("%s: Encode differs from tiktoken-go r50k_base: %s", name, d)
		return false
	}
	if back := g.Decode(got); back != text {
		t.Errorf("%s: Decode(Encode(text)) != text", name)
		return false
	}
	return true
}

func TestGPT2Shape(t *testing.T) {
	g := gpt2(t)
	if g.VocabSize() != 50257 || g.EndTokenID() != 50256 || len(g.Merges()) != 50000 {
		t.Fatalf("VocabSize %d, EndTokenID %d, %d merges; want 50257, 50256, 50000", g.VocabSize(), g.EndTokenID(), len(g.Merges()))
	}
	// The first merge of GPT-2's merges.txt is "Ġ t": ' ' (220) + 't' (83).
	if m := g.Merges()[0]; m != (MergeRule{Left: 220, Right: 83, ID: 256}) {
		t.Errorf("first merge %+v, want {220 83 256} (\" t\")", m)
	}
	if got := string(g.Token(50255)); got != " gazed" {
		t.Errorf("Token(50255) = %q, want \" gazed\"", got)
	}
	if got := string(g.Token(50256)); got != EndOfText {
		t.Errorf("Token(50256) = %q, want %q", got, EndOfText)
	}
}

// TestGPT2GoSource compares with tiktoken-go on Go source: every 12th .go
// file under GOROOT/src, or all of them with -long.
func TestGPT2GoSource(t *testing.T) {
	g, c := gpt2(t), r50k(t)
	files := goFiles(t)
	if !*long {
		files = sample(files, 12)
	}
	bytes, bad, skipped := 0, 0, 0
	for i, text := range readAll(t, files) {
		if !utf8.ValidString(text) {
			skipped++ // tiktoken-go reads invalid UTF-8 as U+FFFD; tested in TestGPT2InvalidUTF8
			continue
		}
		bytes += len(text)
		if !checkSame(t, g, c, files[i], text) {
			if bad++; bad == 5 {
				t.Fatal("stopping after 5 files")
			}
		}
	}
	t.Logf("%d files, %d bytes: same ids as tiktoken-go (%d files of invalid UTF-8 not compared)", len(files)-skipped, bytes, skipped)
}

var multilingual = []string{
	"The quick brown fox jumps over the lazy dog. It's 3:45pm; we'll see, they'd've said.",
	"Größenwahn, Ærø, Ñandú, façade, naïve coöperate — “quotes” and ‘single’ « guillemets »",
	"Съешь же ещё этих мягких французских булок, да выпей чаю.",
	"Ξεσκεπάζω την ψυχοφθόρα βδελυγμία.",
	"我能吞下玻璃而不伤身体。日本語のテキスト、カタカナとひらがな。한국어 문장입니다.",
	"أنا قادر على أكل الزجاج و هذا لا يؤلمني. עברית עם ניקוד: שָׁלוֹם",
	"मैं काँच खा सकता हूँ और मुझे उससे कोई चोट नहीं पहुंचती. ภาษาไทย ๑๒๓ ٣٤٥ ۶۷۸",
	"Emoji: 😀👍🏽👨‍👩‍👧‍👦🏳️‍🌈 ❤️ ✔︎ and flags 🇫🇷🇯🇵",
	"Combining: e\u0301 a\u0308\u0304 Z\u0351\u0352\u0353 and \u200b zero\u200dwidth \ufeffBOM",
	"Numbers: ½ ¾ Ⅻ ⅷ ① ² ₃ 1,234.56e-7 0x1F 1_000 ١٢٣ 一二三",
	"Math: ∀x∈ℝ, ∃y: x² + y² ≤ 1 ⇒ ∫₀¹ f(x)dx ≈ π/4 ∑ ∏ √ ∞ ≠",
	"Spaces:\u00a0nbsp\u2002en\u3000ideographic\u2028line\u2029para\u0085nel\u000bvt\u000cff",
	"Code: if x != nil { return fmt.Errorf(\"wrap: %w\", err) } // ok\n\t\t\n  \n",
	"Contractions: I'M YOU'RE 'S 's 't 're 've 'm 'll 'd 'x '' ''' ' 's",
	"\U0001F600\U0001F601 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝐁𝐨𝐥𝐝 ＦＵＬＬＷＩＤＴＨ　ｔｅｘｔ",
}

func TestGPT2Multilingual(t *testing.T) {
	g, c := gpt2(t), r50k(t)
	for i, s := range multilingual {
		checkSame(t, g, c, fmt.Sprintf("multilingual[%d]", i), s)
	}
}

// TestGPT2Whitespace tries every string of up to 5 pieces from an alphabet
// of whitespace and its neighbours: the cases `\s+(?!\S)` decides.
func TestGPT2Whitespace(t *testing.T) {
	g, c := gpt2(t), r50k(t)
	alphabet := []string{" ", "\t", "\n", "\r", "\u00a0", "\u3000", "a", "1", "!", "'s"}
	var walk func(prefix string, depth int)
	n := 0
	walk = func(prefix string, depth int) {
		if prefix != "" {
			n++
			if !checkSame(t, g, c, fmt.Sprintf("%q", prefix), prefix) && n > 0 {
				t.FailNow()
			}
		}
		if depth == 0 {
			return
		}
		for _, a := range alphabet {
			walk(prefix+a, depth-1)
		}
	}
	walk("", 5)
	for _, s := range []string{
		strings.Repeat(" ", 1000), strings.Repeat(" ", 1000) + "x", strings.Repeat("\n", 500) + " y",
		strings.Repeat("\t \n", 300) + "end", "x" + strings.Repeat(" ", 70) + "y" + strings.Repeat("\u3000", 40),
	} {
		checkSame(t, g, c, fmt.Sprintf("run of %d bytes", len(s)), s)
	}
	t.Logf("%d strings", n)
}

// TestGPT2Long covers chunks long enough for the heap merge loop.
func TestGPT2Long(t *testing.T) {
	g, c := gpt2(t), r50k(t)
	for _, s := range []string{
		strings.Repeat("a", 5000), strings.Repeat("ab", 3000), strings.Repeat("Supercalifragilistic", 200),
		strings.Repeat("!?", 700), strings.Repeat("0123456789", 300), strings.Repeat("日本語", 400),
	} {
		checkSame(t, g, c, fmt.Sprintf("%.20q… (%d bytes)", s, len(s)), s)
	}
}

func TestGPT2InvalidUTF8(t *testing.T) {
	g := gpt2(t)
	for _, s := range []string{"\xff", "a\x80b", "\xe2\x82", "caf\xc3", "\xed\xa0\x80 surrogate", " \xff\xfe ", "ok\xf0\x9f\x98"} {
		ids := g.Encode(s)
		if back, err := g.DecodeBytes(ids); err != nil || string(back) != s {
			t.Errorf("%q: DecodeBytes(Encode) = %q, %v", s, back, err)
		}
	}
	// DEL is GPT-2's token 221. (tiktoken-go v0.10.0 drops it: its
	// regexp2/v2-compiled pattern never matches 0x7f.)
	if ids := g.Encode("a\x7fb"); fmt.Sprint(ids) != "[64 221 65]" {
		t.Errorf("Encode(\"a\\x7fb\") = %v, want [64 221 65]", ids)
	}
	// Byte by byte: an invalid byte alone is its one-byte token.
	if ids := g.Encode("\xff"); len(ids) != 1 || string(g.Token(ids[0])) != "\xff" {
		t.Errorf("Encode(\"\\xff\") = %v, want the one-byte token of 0xff", ids)
	}
}

func TestGPT2Special(t *testing.T) {
	g := gpt2(t)
	text := "a<|endoftext|>b"
	plain := g.Encode(text)
	for _, id := range plain {
		if id == 50256 {
			t.Fatalf("Encode(%q) = %v: special token from plain text", text, plain)
		}
	}
	if g.Decode(plain) != text {
		t.Errorf("Decode(Encode(%q)) = %q", text, g.Decode(plain))
	}
	want := []int{64, 50256, 65}
	for _, allowed := range [][]string{{EndOfText}, {"all"}} {
		if got := g.EncodeWithSpecial(text, allowed); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("EncodeWithSpecial(%q, %q) = %v, want %v", text, allowed, got, want)
		}
	}
	if got := g.EncodeWithSpecial(text, nil); fmt.Sprint(got) != fmt.Sprint(plain) {
		t.Errorf("EncodeWithSpecial(%q, nil) = %v, want %v", text, got, plain)
	}
}

func TestDecodeUnknownID(t *testing.T) {
	g := gpt2(t)
	_, err := g.DecodeBytes([]int{15496, 50257})
	if err == nil || !strings.Contains(err.Error(), "50257") || !strings.Contains(err.Error(), "position 1") {
		t.Errorf("DecodeBytes of id 50257: err = %v, want an error naming id 50257 at position 1", err)
	}
	if got := g.Decode([]int{15496, -1}); got != "Hello\uFFFD" {
		t.Errorf("Decode with id -1 = %q, want \"Hello\\uFFFD\"", got)
	}
	if g.Token(50257) != nil || g.Token(-1) != nil {
		t.Error("Token of an unknown id is not nil")
	}
}

// TestEncodeConcurrent encodes from several goroutines at once (the chunk
// cache is shared); run with -race.
func TestEncodeConcurrent(t *testing.T) {
	g := gpt2(t)
	texts := readAll(t, sample(goFiles(t), 400))
	want := make([]string, len(texts))
	for i, text := range texts {
		want[i] = fmt.Sprint(g.EncodeTrace(text).IDs())
	}
	done := make(chan string)
	for w := range 4 {
		go func() {
			for i := range texts {
				j := (i + w*7) % len(texts)
				if got := fmt.Sprint(g.Encode(texts[j])); got != want[j] {
					done <- fmt.Sprintf("goroutine %d, text %d: ids differ", w, j)
					return
				}
			}
			done <- ""
		}()
	}
	for range 4 {
		if msg := <-done; msg != "" {
			t.Error(msg)
		}
	}
}

// TestDecodePartialUTF8: GPT-2 splits 😀 over two tokens; each decodes to
// its raw bytes, and the pieces join back to the character.
func TestDecodePartialUTF8(t *testing.T) {
	g := gpt2(t)
	ids := g.Encode("😀")
	if len(ids) != 2 {
		t.Fatalf("Encode(😀) = %v, want 2 tokens", ids)
	}
	first, second := g.Decode(ids[:1]), g.Decode(ids[1:])
	if first != "\xf0\x9f\x98" || second != "\x80" || first+second != "😀" {
		t.Errorf("Decode of the halves = %q, %q; want \"\\xf0\\x9f\\x98\", \"\\x80\"", first, second)
	}
}
