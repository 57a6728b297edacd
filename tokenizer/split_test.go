package tokenizer

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
)

// referenceSplit runs GPT2Pattern with regexp2 and returns the length of
// each match in runes. regexp2 reads the text as []rune, so an invalid byte
// is one U+FFFD rune.
func referenceSplit(tb testing.TB, re *regexp2.Regexp, text string) []int {
	var lengths []int
	m, err := re.FindStringMatch(text)
	for ; m != nil && err == nil; m, err = re.FindNextMatch(m) {
		lengths = append(lengths, m.Length)
	}
	if err != nil {
		tb.Fatal(err)
	}
	return lengths
}

// runeLengths is the length of each chunk in runes, counting an invalid byte
// as one rune, as []rune(s) does.
func runeLengths(chunks []string) []int {
	lengths := make([]int, len(chunks))
	for i, c := range chunks {
		lengths[i] = utf8.RuneCountInString(c)
	}
	return lengths
}

func checkSplit(t *testing.T, re *regexp2.Regexp, text string) bool {
	t.Helper()
	chunks := Split(text)
	if strings.Join(chunks, "") != text {
		t.Errorf("%q: chunks do not join back to the text", text)
		return false
	}
	got, want := runeLengths(chunks), referenceSplit(t, re, text)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("%q: Split gives chunk lengths (runes) %v, regexp2 %v; chunks %q", text, got, want, chunks)
		return false
	}
	return true
}

// pieces are the building blocks of the adversarial corpus: whitespace of
// every kind, contractions and their near misses, letters and numbers of
// several scripts, marks, emoji, symbols and invalid UTF-8.
var pieces = []string{
	" ", "  ", "\t", "\n", "\r\n", "\r", "\v", "\f", "\u00a0", "\u0085", "\u1680", "\u2000", "\u2028", "\u2029", "\u202f", "\u3000",
	"'s", "'t", "'re", "'ve", "'m", "'ll", "'d", "'S", "'LL", "'r", "'v", "'l", "'", "''", "’s",
	"a", "Z", "word", "é", "e\u0301", "ß", "日本", "한", "ا", "ـ", "ǅ", "ʰ", "\u0903",
	"0", "42", "١٢", "Ⅻ", "½", "²", "𝟘",
	"!", "...", "_", "-", "{", "}", "\"", "//", "$", "€", "©", "\u200d", "\u200b", "\ufeff",
	"😀", "👍🏽", "🇫🇷",
	"\x7f", "\x00", "\x80", "\xff", "\xe2\x82", "\xf0\x9f\x98", "\xc3", "\xed\xa0\x80", "\ufffd",
}

// TestSplitAdversarial compares Split with regexp2 on random strings of up
// to 24 pieces, on every pair of pieces, and on runs of one piece.
func TestSplitAdversarial(t *testing.T) {
	re := regexp2.MustCompile(GPT2Pattern, regexp2.None)
	for _, a := range pieces {
		for _, b := range pieces {
			if !checkSplit(t, re, a+b) || !checkSplit(t, re, a+b+a) {
				t.FailNow()
			}
		}
		checkSplit(t, re, strings.Repeat(a, 7))
	}
	rng := rand.New(rand.NewSource(1))
	bad := 0
	for range 20000 {
		var b strings.Builder
		for range rng.Intn(25) {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		if !checkSplit(t, re, b.String()) {
			if bad++; bad == 10 {
				t.Fatal("stopping after 10 differences")
			}
		}
	}
}

// TestSplitGoSource compares Split with regexp2 on a sample of Go source.
func TestSplitGoSource(t *testing.T) {
	re := regexp2.MustCompile(GPT2Pattern, regexp2.None)
	texts := readAll(t, sample(goFiles(t), 60))
	for i, text := range texts {
		if !checkSplit(t, re, text) {
			t.Fatalf("file %d differs", i)
		}
	}
}

func FuzzSplit(f *testing.F) {
	for _, p := range pieces {
		f.Add(p + " x")
	}
	f.Add("Hello world's  end\n\n  x")
	re := regexp2.MustCompile(GPT2Pattern, regexp2.None)
	f.Fuzz(func(t *testing.T, text string) {
		checkSplit(t, re, text)
	})
}
