package main

import (
	"fmt"
	"go/ast"
	"go/doc"
	"go/parser"
	"go/scanner"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A program is one Example function turned into what a notebook user would paste: the whole
// program for one cell, and the same program split into cells.
type program struct {
	File string // path relative to GOROOT/src, "strings/example_test.go"
	Name string // "ExampleContains"
	Dir  string // absolute directory of the file: examples run there (testdata reads)
	Want string // the // Output: text

	Imports string   // the import declaration (only imports the program uses), "" if none
	Decls   []string // the file's other top-level declarations, in source order
	Body    string   // the example's body, without its braces, after a //line directive
	Cells   []string // imports, declarations (dependency order, one per cell), body
}

// Whole is the program as one cell: package clause, imports, declarations, func main.
func (p *program) Whole() string { return "package main\n\n" + p.Bare() }

// Bare is Whole without its package clause.
func (p *program) Bare() string {
	var b strings.Builder
	if p.Imports != "" {
		b.WriteString(p.Imports + "\n\n")
	}
	for _, d := range p.Decls {
		b.WriteString(d + "\n\n")
	}
	b.WriteString("func main() {\n" + p.Body + "}\n")
	return b.String()
}

// modeCells is what a mode pastes into the kernel.
func (p *program) modeCells(mode string) []string {
	switch mode {
	case "whole":
		return []string{p.Whole()}
	case "bare":
		return []string{p.Bare()}
	case "cells":
		return p.Cells
	}
	panic("excorpus: unknown mode " + mode)
}

// exampleInfo is what go/doc finds of an Example function: its Output comment.
type exampleInfo struct {
	Name      string // function name
	Output    string
	HasOutput bool // an // Output: or // Unordered output: comment
	Unordered bool
}

// fileExamples lists the Example functions of a parsed test file as go test sees them.
func fileExamples(f *ast.File) []exampleInfo {
	var out []exampleInfo
	for _, ex := range doc.Examples(f) {
		out = append(out, exampleInfo{
			Name:      "Example" + ex.Name,
			Output:    ex.Output,
			HasOutput: ex.Output != "" || ex.EmptyOutput,
			Unordered: ex.Unordered,
		})
	}
	return out
}

// isTestFunc reports whether name is a function go test treats specially (the rule of
// cmd/go's isTest: the prefix, then nothing or a character that is not lower case).
func isTestFunc(name string) bool {
	if name == "TestMain" {
		return true
	}
	for _, prefix := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
		if !strings.HasPrefix(name, prefix) {
			continue
		}
		if len(name) == len(prefix) {
			return true
		}
		r, _ := utf8.DecodeRuneInString(name[len(prefix):])
		if !unicode.IsLower(r) {
			return true
		}
	}
	return false
}

// parseTestFile parses a test file with its comments.
func parseTestFile(path string) (*token.FileSet, *ast.File, []byte, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, nil, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, nil, err
	}
	return fset, f, src, nil
}

// buildProgram makes the program of example name in the parsed file. rel is the file's path
// relative to GOROOT/src, dir its absolute directory.
func buildProgram(fset *token.FileSet, f *ast.File, src []byte, rel, dir, name string) (*program, error) {
	var info *exampleInfo
	for _, ex := range fileExamples(f) {
		if ex.Name == name {
			info = &ex
			break
		}
	}
	if info == nil {
		return nil, fmt.Errorf("%s: no example %s", rel, name)
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	text := func(from, to token.Pos) string { return string(src[off(from):off(to)]) }

	p := &program{File: rel, Name: name, Dir: dir, Want: info.Output}
	var example *ast.FuncDecl
	var decls []ast.Decl
	var imports []*ast.ImportSpec
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Tok == token.IMPORT {
				for _, sp := range d.Specs {
					imports = append(imports, sp.(*ast.ImportSpec))
				}
				continue
			}
		case *ast.FuncDecl:
			if d.Recv == nil && d.Name.Name == name {
				example = d
				continue
			}
			if d.Recv == nil && isTestFunc(d.Name.Name) {
				continue
			}
		}
		decls = append(decls, d)
	}
	if example == nil || example.Body == nil {
		return nil, fmt.Errorf("%s: no body for %s", rel, name)
	}
	// Each piece of the file the program copies starts with a //line directive naming the line
	// it came from, so that what Go prints of a source position (log.Lshortfile's
	// example_test.go:19) is the example's own, whether go run or the kernel runs the program.
	base := filepath.Base(rel)
	directive := func(line int) string { return fmt.Sprintf("//line %s:%d\n", base, line) }
	body := text(example.Body.Lbrace+1, example.Body.Rbrace)
	blank := len(body) - len(strings.TrimLeft(body, "\n")) // the rest of the { line, then blank lines
	p.Body = directive(fset.Position(example.Body.Lbrace).Line+blank) + strings.TrimLeft(body, "\n")

	// Keep the imports the remaining code names (plus blank and dot imports). The check of the
	// whole program at pick time catches the rare shadowing this syntactic test could miss.
	used := map[string]bool{}
	mark := func(n ast.Node) {
		ast.Inspect(n, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok {
					used[id.Name] = true
				}
			}
			return true
		})
	}
	for _, d := range decls {
		mark(d)
	}
	mark(example.Body)
	var kept []string
	for _, sp := range imports {
		path, _ := strconv.Unquote(sp.Path.Value)
		name := importName(path)
		if sp.Name != nil {
			name = sp.Name.Name
		}
		if name == "_" || name == "." || used[name] {
			s := sp.Path.Value
			if sp.Name != nil {
				s = sp.Name.Name + " " + s
			}
			kept = append(kept, s)
		}
	}
	switch len(kept) {
	case 0:
	case 1:
		p.Imports = "import " + kept[0]
	default:
		p.Imports = "import (\n\t" + strings.Join(kept, "\n\t") + "\n)"
	}

	declText := make([]string, len(decls))
	for i, d := range decls {
		start := d.Pos()
		switch d := d.(type) {
		case *ast.GenDecl:
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
		case *ast.FuncDecl:
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
		}
		declText[i] = directive(fset.Position(start).Line) + text(start, d.End())
	}
	p.Decls = declText

	if p.Imports != "" {
		p.Cells = append(p.Cells, p.Imports)
	}
	for _, group := range orderDecls(decls) {
		var parts []string
		for _, i := range group {
			parts = append(parts, declText[i])
		}
		p.Cells = append(p.Cells, strings.Join(parts, "\n\n"))
	}
	p.Cells = append(p.Cells, dedent(p.Body))
	return p, nil
}

// importName is the name a package is used under when its import has no name: the last
// element of its path, without a major version element (math/rand/v2 is rand).
func importName(path string) string {
	elems := strings.Split(path, "/")
	name := elems[len(elems)-1]
	if len(elems) > 1 && len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" {
		name = elems[len(elems)-2]
	}
	return name
}

// dedent removes the body's indentation (one tab) and its blank first line, as a user pasting
// the statements at the top level would; lines inside raw string literals stay as they are.
func dedent(body string) string {
	body = strings.Trim(body, "\n")
	var raw [][2]int // [start, end) of multi-line raw strings
	var s scanner.Scanner
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(body))
	s.Init(file, []byte(body), nil, 0)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.STRING && strings.HasPrefix(lit, "`") && strings.Contains(lit, "\n") {
			start := file.Offset(pos)
			raw = append(raw, [2]int{start, start + len(lit)})
		}
	}
	inRaw := func(off int) bool {
		for _, r := range raw {
			if r[0] < off && off < r[1] {
				return true
			}
		}
		return false
	}
	var b strings.Builder
	off := 0
	for i, l := range strings.Split(body, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		if !inRaw(off) {
			l = strings.TrimPrefix(l, "\t")
		}
		b.WriteString(l)
		off += len(l) + 1
	}
	b.WriteByte('\n')
	return b.String()
}

// orderDecls orders top-level declarations the way a notebook needs them, each one after what
// it uses: a method after its type, a use of a type after the type's methods; declarations that
// use each other go into one group (one cell). Otherwise the source order is kept.
func orderDecls(decls []ast.Decl) [][]int {
	n := len(decls)
	defines := map[string]int{}   // top-level name → declaration
	methods := map[string][]int{} // type name → its method declarations
	for i, d := range decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil {
				defines[d.Name.Name] = i
			} else if t := recvType(d.Recv.List[0].Type); t != "" {
				methods[t] = append(methods[t], i)
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					defines[sp.Name.Name] = i
				case *ast.ValueSpec:
					for _, id := range sp.Names {
						defines[id.Name] = i
					}
				}
			}
		}
	}
	byName := map[string][]int{} // method name → its declarations
	for _, ms := range methods {
		for _, j := range ms {
			name := decls[j].(*ast.FuncDecl).Name.Name
			byName[name] = append(byName[name], j)
		}
	}
	deps := make([]map[int]bool, n)
	for i, d := range decls {
		deps[i] = map[int]bool{}
		add := func(j int) {
			if j != i {
				deps[i][j] = true
			}
		}
		// A type's declaration does not need its methods. A method needs its receiver type, and
		// the other methods of that type only when it uses the receiver as a value (sort.Sort(ms)
		// needs ms's Len, Swap and Less), not to reach its fields or methods (ms.changes).
		self := map[string]bool{}
		recvName, recvT := "", ""
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil {
				recvT = recvType(d.Recv.List[0].Type)
				if names := d.Recv.List[0].Names; len(names) > 0 {
					recvName = names[0].Name
				}
				if j, ok := defines[recvT]; ok {
					add(j)
				}
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				if ts, ok := sp.(*ast.TypeSpec); ok {
					self[ts.Name.Name] = true
				}
			}
		}
		var visit func(node ast.Node) bool
		visit = func(node ast.Node) bool {
			switch node := node.(type) {
			case *ast.SelectorExpr:
				if id, ok := node.X.(*ast.Ident); !ok || id.Name != recvName || recvName == "" {
					ast.Inspect(node.X, visit)
				}
				for _, j := range byName[node.Sel.Name] { // x.M, M a method declared here
					add(j)
				}
				return false // Sel is a field or method, not a top-level name
			case *ast.Ident:
				if j, ok := defines[node.Name]; ok {
					add(j)
				}
				typ := node.Name
				if recvName != "" && node.Name == recvName {
					typ = recvT
				}
				if !self[typ] {
					for _, j := range methods[typ] { // a use of a T value may need T's methods
						add(j)
					}
				}
			}
			return true
		}
		if f, ok := d.(*ast.FuncDecl); ok && f.Recv != nil {
			ast.Inspect(f.Type, visit)
			if f.Body != nil {
				ast.Inspect(f.Body, visit)
			}
		} else {
			ast.Inspect(d, visit)
		}
	}

	// Tarjan's strongly connected components; then the components in an order where each
	// follows its dependencies, the earliest in the source first among those ready.
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	comp := make([]int, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	var comps [][]int
	next := 0
	var strong func(v int)
	strong = func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for w := range deps[v] {
			if index[w] < 0 {
				strong(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var c []int
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp[w] = len(comps)
				c = append(c, w)
				if w == v {
					break
				}
			}
			sort.Ints(c)
			comps = append(comps, c)
		}
	}
	for v := 0; v < n; v++ {
		if index[v] < 0 {
			strong(v)
		}
	}
	waiting := make([]int, len(comps)) // dependencies not yet placed
	users := make([][]int, len(comps))
	for c, members := range comps {
		seen := map[int]bool{}
		for _, v := range members {
			for w := range deps[v] {
				if cw := comp[w]; cw != c && !seen[cw] {
					seen[cw] = true
					waiting[c]++
					users[cw] = append(users[cw], c)
				}
			}
		}
	}
	placed := make([]bool, len(comps))
	var order [][]int
	for len(order) < len(comps) {
		best := -1
		for c := range comps {
			if !placed[c] && waiting[c] == 0 && (best < 0 || comps[c][0] < comps[best][0]) {
				best = c
			}
		}
		placed[best] = true
		order = append(order, comps[best])
		for _, u := range users[best] {
			waiting[u]--
		}
	}
	return order
}

// recvType is the name of a method's receiver type: T for T, *T, T[P], *T[P].
func recvType(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}
