package tokenizer

import (
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// -long runs the comparisons on the whole GOROOT/src corpus instead of a
// deterministic sample.
var long = flag.Bool("long", false, "compare against tiktoken-go on every .go file under GOROOT/src")

// goFiles lists the .go files under GOROOT/src, sorted.
func goFiles(tb testing.TB) []string {
	tb.Helper()
	root := filepath.Join(runtime.GOROOT(), "src")
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		tb.Fatalf("walk %s: %v", root, err)
	}
	if len(files) == 0 {
		tb.Skipf("no .go files under %s", root)
	}
	sort.Strings(files)
	return files
}

// sample keeps every nth file, starting with the first: a deterministic
// spread over the whole tree.
func sample(files []string, n int) []string {
	var out []string
	for i := 0; i < len(files); i += n {
		out = append(out, files[i])
	}
	return out
}

// readAll reads files, failing the test on an error.
func readAll(tb testing.TB, files []string) []string {
	tb.Helper()
	texts := make([]string, len(files))
	for i, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		texts[i] = string(b)
	}
	return texts
}

// goSource returns about n bytes of Go source from GOROOT/src, whole files
// in sorted order, for training and benchmarks.
func goSource(tb testing.TB, n int) string {
	tb.Helper()
	var b strings.Builder
	for _, f := range goFiles(tb) {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		b.Write(data)
		if b.Len() >= n {
			break
		}
	}
	return b.String()
}
