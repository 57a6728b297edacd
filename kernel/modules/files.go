package modules

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// UninterpretableError is a package the interpreter cannot run from source: it needs assembly,
// cgo or embedded files. Such a package can still be compiled into the kernel as a plugin.
type UninterpretableError struct {
	ImportPath string
	File       string // the file holding Construct
	Line       int
	Construct  string // "assembly (func Foo has no body)", "cgo (import \"C\")", "//go:embed"
}

func (e *UninterpretableError) Error() string {
	return fmt.Sprintf("package %s cannot be interpreted: %s:%d uses %s; compile it into the kernel as a plugin instead (docs/kernel.md, section Adding your own package)",
		e.ImportPath, e.File, e.Line, e.Construct)
}

// buildContext is the build the interpreter stands for: this machine, cgo off (the interpreter
// has none), and the purego tag, under which many modules offer Go in place of their assembly.
var buildContext = func() build.Context {
	c := build.Default
	c.CgoEnabled = false
	c.BuildTags = append(c.BuildTags, "purego")
	return c
}()

// Files returns the names of the package's Go files in dir that this build compiles (tests
// left out), sorted, or an *UninterpretableError naming the file and construct the interpreter
// cannot run.
func Files(importPath, dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names, cgo []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		ok, err := buildContext.MatchFile(dir, name)
		if err != nil {
			return nil, fmt.Errorf("package %s: %w", importPath, err)
		}
		switch {
		case ok && importCLine(filepath.Join(dir, name)) > 0:
			cgo = append(cgo, name) // cgo off leaves it out, as CGO_ENABLED=0 go build does
		case ok:
			names = append(names, name)
		}
	}
	sort.Strings(names)
	if len(names) == 0 && len(cgo) > 0 {
		return nil, &UninterpretableError{ImportPath: importPath, File: filepath.Join(dir, cgo[0]), Line: importCLine(filepath.Join(dir, cgo[0])), Construct: `cgo (import "C")`}
	}
	fset := token.NewFileSet()
	for _, name := range names {
		file := filepath.Join(dir, name)
		f, err := parser.ParseFile(fset, file, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("package %s: %w", importPath, err)
		}
		if err := uninterpretable(importPath, fset, f); err != nil {
			return nil, err
		}
	}
	return names, nil
}

// uninterpretable finds in f a function without body (its body is assembly) or a //go:embed
// directive.
func uninterpretable(importPath string, fset *token.FileSet, f *ast.File) error {
	fail := func(pos token.Pos, what string) error {
		p := fset.Position(pos)
		return &UninterpretableError{ImportPath: importPath, File: p.Filename, Line: p.Line, Construct: what}
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body == nil {
			return fail(fd.Pos(), fmt.Sprintf("assembly (func %s has no Go body)", fd.Name.Name))
		}
	}
	for _, g := range f.Comments {
		for _, c := range g.List {
			if strings.HasPrefix(c.Text, "//go:embed") {
				return fail(c.Pos(), "//go:embed (files embedded at compile time)")
			}
		}
	}
	return nil
}

// importCLine is the line of file's import "C", 0 when it has none (or cannot be read).
func importCLine(file string) int {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.ImportsOnly)
	if err != nil {
		return 0
	}
	for _, im := range f.Imports {
		if p, _ := strconv.Unquote(im.Path.Value); p == "C" {
			return fset.Position(im.Pos()).Line
		}
	}
	return 0
}
