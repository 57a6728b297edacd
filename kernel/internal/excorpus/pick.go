package main

import (
	"bufio"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
)

// An entry is one line of the list: an example by file (relative to GOROOT/src) and name.
type entry struct {
	File, Name string
}

func (e entry) String() string { return e.File + " " + e.Name }

// Exclusion reasons decided when picking, from the source alone.
const (
	exclUnordered  = "Unordered output (go test compares it as a set of lines)"
	exclInPackage  = "in-package test file (package foo, not foo_test: it sees unexported names)"
	exclConstraint = "build constraints exclude the file on this GOOS/GOARCH"
	exclSibling    = "does not compile alone: uses declarations of other _test.go files"
	exclExportTest = "does not compile alone: uses test-only exports of the package under test"
	exclImport     = "does not compile alone: the type checker cannot load an import"
	exclOther      = "does not compile alone: other type error"
	exclParse      = "test file does not parse"
)

// census is what a walk of GOROOT/src finds.
type census struct {
	withOutput int            // Example functions with an // Output: or // Unordered output: comment
	noOutput   int            // Example functions go test compiles but does not run
	eligible   []entry        // examples the kernel can be asked to run
	excluded   map[string]int // reason → examples
	firstErr   map[string]string
	pkgs       map[string]bool // packages with an example with output
}

// walkExamples finds the Example functions with an // Output: comment under root (GOROOT/src),
// skipping cmd, vendor and testdata directories, and sorts them into eligible and excluded.
func walkExamples(root string, check bool) (*census, error) {
	c := &census{excluded: map[string]int{}, firstErr: map[string]string{}, pkgs: map[string]bool{}}
	ctxt := build.Default // files as the go command selects them here
	// The source importer type-checks the imported packages with build.Default: without cgo,
	// it needs no C toolchain (net and os/user have pure-Go versions with the same API).
	build.Default.CgoEnabled = false
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "source", nil)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			base := d.Name()
			if rel == "cmd" || base == "vendor" || base == "testdata" || (path != root && (strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_"))) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if !strings.Contains(string(src), "func Example") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			c.excluded[exclParse]++
			return nil
		}
		exs := fileExamples(f)
		var withOut []exampleInfo
		for _, ex := range exs {
			if ex.HasOutput {
				withOut = append(withOut, ex)
			} else {
				c.noOutput++
			}
		}
		if len(withOut) == 0 {
			return nil
		}
		c.withOutput += len(withOut)
		dir := filepath.ToSlash(filepath.Dir(rel))
		c.pkgs[dir] = true
		exclude := func(reason string, n int, detail string) {
			c.excluded[reason] += n
			if _, ok := c.firstErr[reason]; !ok && detail != "" {
				c.firstErr[reason] = detail
			}
		}
		if ok, err := ctxt.MatchFile(filepath.Dir(path), filepath.Base(path)); err != nil || !ok {
			exclude(exclConstraint, len(withOut), rel)
			return nil
		}
		inPackage := !strings.HasSuffix(f.Name.Name, "_test")
		for _, ex := range withOut {
			switch {
			case ex.Unordered:
				exclude(exclUnordered, 1, "")
			case inPackage:
				exclude(exclInPackage, 1, "")
			default:
				if check {
					p, err := buildProgram(fset, f, src, rel, filepath.Dir(path), ex.Name)
					if err != nil {
						return err
					}
					if reason, msg := typeCheck(imp, p); reason != "" {
						exclude(reason, 1, rel+" "+ex.Name+": "+msg)
						continue
					}
				}
				c.eligible = append(c.eligible, entry{rel, ex.Name})
			}
		}
		return nil
	})
	return c, err
}

var qualifiedUndefined = regexp.MustCompile(`undefined: \w+\.\w+|not declared by package`)

// typeCheck checks the whole program of p as the go command would compile it; it returns an
// exclusion reason and the first error, or "" when the program is valid.
func typeCheck(imp types.Importer, p *program) (reason, msg string) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "main.go", p.Whole(), 0)
	if err != nil {
		return exclOther, err.Error()
	}
	var first error
	conf := types.Config{Importer: imp, Error: func(err error) {
		if first == nil {
			first = err
		}
	}}
	conf.Check("main", fset, []*ast.File{f}, nil)
	if first == nil {
		return "", ""
	}
	msg = first.Error()
	if i := strings.Index(msg, ": "); i >= 0 && strings.HasPrefix(msg, "main.go:") {
		msg = msg[i+2:]
	}
	switch {
	case qualifiedUndefined.MatchString(msg):
		return exclExportTest, msg
	case strings.HasPrefix(msg, "undefined: "):
		return exclSibling, msg
	case strings.Contains(msg, "could not import"):
		return exclImport, msg
	}
	return exclOther, msg
}

// draw picks n of the eligible examples with a PCG(seed, seed) generator, spread over the
// packages: the packages in a random order, one example of each per round.
func draw(eligible []entry, n int, seed uint64) []entry {
	rng := rand.New(rand.NewPCG(seed, seed))
	byPkg := map[string][]entry{}
	var pkgs []string
	sorted := append([]entry(nil), eligible...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].String() < sorted[j].String() })
	for _, e := range sorted {
		dir := pathDir(e.File)
		if byPkg[dir] == nil {
			pkgs = append(pkgs, dir)
		}
		byPkg[dir] = append(byPkg[dir], e)
	}
	rng.Shuffle(len(pkgs), func(i, j int) { pkgs[i], pkgs[j] = pkgs[j], pkgs[i] })
	for _, p := range pkgs {
		es := byPkg[p]
		rng.Shuffle(len(es), func(i, j int) { es[i], es[j] = es[j], es[i] })
	}
	var out []entry
	for round := 0; len(out) < n; round++ {
		added := false
		for _, p := range pkgs {
			if round < len(byPkg[p]) && len(out) < n {
				out = append(out, byPkg[p][round])
				added = true
			}
		}
		if !added {
			break
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

func pathDir(file string) string {
	if i := strings.LastIndex(file, "/"); i >= 0 {
		return file[:i]
	}
	return "."
}

// writeList writes the list file: a header saying how it was made and what was left out, then
// one example a line.
func writeList(w io.Writer, c *census, picked []entry, n int, seed uint64) error {
	bw := bufio.NewWriter(w)
	pkgs := map[string]bool{}
	eligPkgs := map[string]bool{}
	for _, e := range picked {
		pkgs[pathDir(e.File)] = true
	}
	for _, e := range c.eligible {
		eligPkgs[pathDir(e.File)] = true
	}
	fmt.Fprintf(bw, "# Example functions of the Go distribution (GOROOT/src) that kernel/internal/excorpus runs\n")
	fmt.Fprintf(bw, "# through the kernel and compares with their // Output: comments. Made by:\n")
	fmt.Fprintf(bw, "#   go run ./kernel/internal/excorpus pick -n %d -seed %d > testdata/examples.txt\n", n, seed)
	fmt.Fprintf(bw, "# with %s %s/%s, walking GOROOT/src without cmd, vendor and testdata; drawn with\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Fprintf(bw, "# math/rand/v2 PCG(%d, %d), packages in random order, one example of each per round.\n", seed, seed)
	fmt.Fprintf(bw, "# Example functions with an output comment: %d in %d packages (%d more without one: not run by go test).\n", c.withOutput, len(c.pkgs), c.noOutput)
	fmt.Fprintf(bw, "# Eligible: %d in %d packages; drawn: %d from %d packages.\n", len(c.eligible), len(eligPkgs), len(picked), len(pkgs))
	for _, r := range sortedReasons(c.excluded) {
		fmt.Fprintf(bw, "# excluded: %d: %s\n", c.excluded[r], r)
	}
	for _, e := range picked {
		fmt.Fprintln(bw, e)
	}
	return bw.Flush()
}

// sortedReasons are the keys of m, most frequent first.
func sortedReasons(m map[string]int) []string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	return keys
}

// readList reads a list file: its entries and its header's exclusion lines.
func readList(path string) (entries []entry, header []string, err error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "#") {
			header = append(header, strings.TrimSpace(strings.TrimPrefix(line, "#")))
			continue
		}
		file, name, ok := strings.Cut(line, " ")
		if !ok {
			return nil, nil, fmt.Errorf("%s:%d: want \"path_test.go ExampleName\", have %q", path, i+1, line)
		}
		entries = append(entries, entry{file, strings.TrimSpace(name)})
	}
	return entries, header, nil
}
