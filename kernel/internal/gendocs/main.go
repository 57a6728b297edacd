// Command gendocs writes docs.go for package kernel/symbols: the signature and doc comment of
// every exported symbol of every plugin, extracted with go/doc, for the kernel's inspect_request.
//
// It finds the plugins itself, in the `yaegi extract` go:generate lines of symbols.go, so adding
// a plugin stays one line; -std adds standard library packages cells use most. Run by
// `go generate` in kernel/symbols:
//
//	//go:generate go run ../internal/gendocs -std fmt,strings
//
// Methods are keyed "importpath.Type.Method", everything else "importpath.Name", and the package
// doc "importpath".
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/build"
	"go/doc"
	"go/format"
	"go/parser"
	"go/printer"
	"go/token"
	"log"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("gendocs: ")
	src := flag.String("src", "symbols.go", "file whose go:generate lines name the plugins")
	out := flag.String("o", "docs.go", "output file")
	std := flag.String("std", "", "comma-separated standard library packages to document too")
	flag.Parse()

	paths, err := pluginPaths(*src)
	if err != nil {
		log.Fatal(err)
	}
	if *std != "" {
		paths = append(paths, strings.Split(*std, ",")...)
	}
	dirs, err := packageDirs(paths)
	if err != nil {
		log.Fatal(err)
	}
	docs := map[string]string{}
	for _, path := range paths {
		if err := extract(path, dirs[path], docs); err != nil {
			log.Fatal(err)
		}
	}
	code, err := render(docs)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, code, 0o644); err != nil {
		log.Fatal(err)
	}
}

// pluginPaths reads the import paths of the `yaegi extract` go:generate lines of file.
func pluginPaths(file string) ([]string, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var paths []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "//go:generate ") || !strings.Contains(line, "yaegi extract") {
			continue
		}
		fields := strings.Fields(line)
		paths = append(paths, fields[len(fields)-1])
	}
	return paths, sc.Err()
}

// packageDirs finds the source directory of every package, with one go list.
func packageDirs(paths []string) (map[string]string, error) {
	out, err := exec.Command("go", append([]string{"list", "-f", "{{.ImportPath}} {{.Dir}}"}, paths...)...).Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w", err)
	}
	dirs := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if path, dir, ok := strings.Cut(line, " "); ok {
			dirs[path] = dir
		}
	}
	return dirs, nil
}

// extract adds the docs of package path, in pkgDir: "path" → package doc, "path.Name" → the
// declaration and doc of each exported function, type, constant and variable,
// "path.Type.Method" for methods.
func extract(path, pkgDir string, docs map[string]string) error {
	fset := token.NewFileSet()
	// Only the files of this platform's build (os has file_posix.go and file_windows.go): the
	// docs must not depend on the order files are read in.
	pkgs, err := parser.ParseDir(fset, pkgDir, func(fi os.FileInfo) bool {
		ok, err := build.Default.MatchFile(pkgDir, fi.Name())
		return err == nil && ok && !strings.HasSuffix(fi.Name(), "_test.go")
	}, parser.ParseComments)
	if err != nil {
		return fmt.Errorf("parse %s: %w", path, err)
	}
	for name, p := range pkgs {
		if strings.HasSuffix(name, "_test") || name == "main" {
			continue
		}
		names := make([]string, 0, len(p.Files))
		for name := range p.Files {
			names = append(names, name)
		}
		sort.Strings(names)
		files := make([]*ast.File, 0, len(names))
		for _, name := range names {
			files = append(files, p.Files[name])
		}
		d, err := doc.NewFromFiles(fset, files, path)
		if err != nil {
			return fmt.Errorf("doc %s: %w", path, err)
		}
		docs[path] = "package " + d.Name + ` // import "` + path + "\"\n\n" + d.Doc
		for _, f := range d.Funcs {
			docs[path+"."+f.Name] = decl(fset, f.Decl) + "\n\n" + f.Doc
		}
		for _, v := range append(d.Consts, d.Vars...) {
			for _, n := range v.Names {
				docs[path+"."+n] = decl(fset, v.Decl) + "\n\n" + v.Doc
			}
		}
		for _, t := range d.Types {
			docs[path+"."+t.Name] = decl(fset, t.Decl) + "\n\n" + t.Doc
			for _, f := range append(t.Funcs, t.Methods...) {
				key := path + "." + f.Name
				if f.Recv != "" {
					key = path + "." + t.Name + "." + f.Name
				}
				docs[key] = decl(fset, f.Decl) + "\n\n" + f.Doc
			}
			for _, v := range append(t.Consts, t.Vars...) {
				for _, n := range v.Names {
					docs[path+"."+n] = decl(fset, v.Decl) + "\n\n" + v.Doc
				}
			}
		}
	}
	return nil
}

// decl prints a declaration without function bodies.
func decl(fset *token.FileSet, n ast.Node) string {
	if f, ok := n.(*ast.FuncDecl); ok {
		c := *f
		c.Body, c.Doc = nil, nil
		n = &c
	}
	if g, ok := n.(*ast.GenDecl); ok {
		c := *g
		c.Doc = nil
		n = &c
	}
	var b bytes.Buffer
	printer.Fprint(&b, fset, n)
	return b.String()
}

func render(docs map[string]string) ([]byte, error) {
	keys := make([]string, 0, len(docs))
	for k := range docs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b bytes.Buffer
	b.WriteString("// Code generated by gendocs from the plugins' sources. DO NOT EDIT.\n\npackage symbols\n\nfunc init() {\n")
	for _, k := range keys {
		fmt.Fprintf(&b, "\tDocs[%s] = %s\n", strconv.Quote(k), strconv.Quote(strings.TrimSpace(docs[k])))
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}
