package study

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/study/reference"
	"github.com/gptnotes/gptnotes/tokenizer"
)

// The cheap rows of the study (arithmetic, allocation, a tiny model): the run
// succeeds, report.md's table parses, no row that can run here failed, rows that need
// OpenAI's weights say so, and the figures exist. Their numbers: TestCheapRowNumbers.
func TestCheapRows(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("GPT2_WEIGHTS", filepath.Join(dir, "no-such-model.safetensors"))
	cheap := []string{"config", "params", "untied", "token-share", "wpe", "tokenizer", "positions", "kv-cache",
		"crop", "why", "temperature-0", "capital", "top-p-0.9", "nanogpt-defaults"}
	report(t, dir, cheap)
	report, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := parseReportTable(t, string(report))
	if len(rows) != len(cheap) {
		t.Fatalf("report table has %d rows, want %d:\n%s", len(rows), len(cheap), report)
	}
	kinds := map[string]Kind{}
	for _, r := range Rows() {
		kinds[r.Name] = r.Kind
	}
	for i, row := range rows {
		name, ours := row[0], row[3]
		if name != cheap[i] {
			t.Errorf("row %d is %q, want %q (study order)", i, name, cheap[i])
		}
		if want := "`gptnotes reproduce --only " + name + "`"; row[5] != want {
			t.Errorf("%s: command %q, want %q", name, row[5], want)
		}
		switch kinds[name] {
		case OpenAIOnly:
			if !strings.Contains(ours, "needs OpenAI's GPT-2 weights") {
				t.Errorf("%s: without weights says %q, want that it needs OpenAI's weights", name, ours)
			}
		case Fact:
			if ours != "—" {
				t.Errorf("%s: a fact row reports %q", name, ours)
			}
		default:
			if strings.HasPrefix(ours, "FAILED") {
				t.Errorf("%s: %s", name, ours)
			}
		}
	}
	for _, f := range []string{"positions.png", "positions.svg", "positions_slider.html", "budget.png", "budget.svg", "budget_slider.html"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() < 1000 {
			t.Errorf("figure %s missing or empty: %v", f, err)
		}
	}
}

func TestSelectUnknownRow(t *testing.T) {
	_, err := Select(Rows(), []string{"config", "nope"})
	if err == nil || !strings.Contains(err.Error(), "unknown rows nope") {
		t.Errorf("Select nope: err = %v, want unknown rows nope", err)
	}
}

// report runs the rows called names into dir, as `gptnotes reproduce --only` does.
func report(t *testing.T, dir string, names []string) {
	t.Helper()
	rows, err := Select(Rows(), names)
	if err != nil {
		t.Fatal(err)
	}
	if err := NewRun(Options{Out: dir}).Report(rows); err != nil {
		t.Fatal(err)
	}
}

// parseReportTable returns the cells of every body row of report.md's table, checking that
// the header has the six columns and every row as many cells.
func parseReportTable(t *testing.T, md string) [][]string {
	t.Helper()
	var rows [][]string
	header := false
	for _, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "|") {
			continue
		}
		cells := splitRow(line)
		switch {
		case !header:
			want := []string{"row", "figure", "study", "ours", "model", "command"}
			if strings.Join(cells, ",") != strings.Join(want, ",") {
				t.Fatalf("table header %q, want %q", cells, want)
			}
			header = true
		case strings.Trim(line, "|-") == "":
		default:
			if len(cells) != 6 {
				t.Fatalf("table row has %d cells, want 6: %s", len(cells), line)
			}
			rows = append(rows, cells)
		}
	}
	if !header {
		t.Fatalf("no table in report.md:\n%s", md)
	}
	return rows
}

// splitRow splits a Markdown table row on the pipes that are not escaped.
func splitRow(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(strings.TrimSuffix(line, "|"), "|")
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			cur.WriteByte('|')
			i++
		case line[i] == '|':
			cells = append(cells, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(line[i])
		}
	}
	return append(cells, strings.TrimSpace(cur.String()))
}

// The rows about a trained model run on the model shipped in testdata/ when OpenAI's is not
// found: here a random gpt.Tiny saved as testdata/tiny.safetensors stands in for it.
func TestShippedModelRows(t *testing.T) {
	work := t.TempDir()
	t.Setenv("GPT2_WEIGHTS", filepath.Join(work, "no-such-model.safetensors"))
	// Its tokenizer, saved beside it, is trained on a little Go source.
	src, err := os.ReadFile(filepath.Join(gpt.GoSourceDir(), "strings", "strings.go"))
	if err != nil {
		t.Fatal(err)
	}
	tok, err := tokenizer.Train(string(src), 300, tokenizer.TrainOptions{Special: []string{tokenizer.EndOfText}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := gpt.Tiny
	cfg.VocabSize = tok.VocabSize()
	m, err := gpt.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	m.Init(3, true)
	if err := os.Mkdir(filepath.Join(work, "testdata"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := gpt.Save(filepath.Join(work, "testdata", "tiny.safetensors"), m, nil); err != nil {
		t.Fatal(err)
	}
	if err := tok.Save(filepath.Join(work, "testdata", "tiny.tok")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GPTNOTES_MODEL", filepath.Join(work, "testdata", "tiny.safetensors")) // gpt.ShippedModelPath
	rows := []string{"cached-vs-uncached", "bf16", "batch", "repeatability", "attention", "sampling-figures"}
	out := filepath.Join(work, "out")
	report(t, out, rows)
	report, err := os.ReadFile(filepath.Join(out, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	got := parseReportTable(t, string(report))
	if len(got) != len(rows) {
		t.Fatalf("%d rows in the report, want %d", len(got), len(rows))
	}
	for _, row := range got {
		if strings.HasPrefix(row[3], "FAILED") {
			t.Errorf("%s: %s", row[0], row[3])
		}
		if !strings.Contains(row[4], "shipped model") || !strings.Contains(row[4], "tiny.safetensors") {
			t.Errorf("%s: model %q, want the shipped model", row[0], row[4])
		}
	}
	check(t, measure(t, "cached-vs-uncached", "batch", "repeatability", "attention"), shippedWants())
	for _, f := range []string{"caching.png", "precision.svg", "attention.png", "attention_heads.svg",
		"next_token.png", "sampling.svg", "sampling_slider.html"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("figure %s: %v", f, err)
		}
	}
}

// shippedWants are the trained-model rows' numbers on any model: the study's differences on
// GPT-2 small are upper bounds for ours, the counts exact.
func shippedWants() []want {
	return []want{
		{row: "cached-vs-uncached", number: "first divergence", value: 0},
		{row: "cached-vs-uncached", number: "max |Δlogit|", value: reference.CachingMaxDiff, atMost: true, why: "the study's largest, on GPT-2 small"},
		{row: "cached-vs-uncached", number: "top-2 gap moved", value: reference.CachingGapMoved, atMost: true, why: "the study's largest, on GPT-2 small"},
		{row: "batch", number: "tokens kept", value: 1},
		{row: "batch", number: "max |Δlogit|", value: reference.BatchMaxDiff, atMost: true, why: "the study's largest, on GPT-2 small"},
		{row: "repeatability", number: "sampled", value: reference.RepeatTokens},
		{row: "repeatability", number: "same", value: reference.RepeatTokens},
		{row: "attention", number: "positions", value: 16},
	}
}

func TestOrdinal(t *testing.T) {
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 5: "5th", 11: "11th", 12: "12th", 21: "21st", 113: "113th"} {
		if got := ordinal(n); got != want {
			t.Errorf("ordinal(%d) = %s, want %s", n, got, want)
		}
	}
}
