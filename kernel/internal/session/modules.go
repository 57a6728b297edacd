package session

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/printer"
	"go/token"
	"go/types"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/gptnotes/gptnotes/kernel/modules"
)

// Modules: a cell's import of a path that is neither the standard library, nor a plugin, nor
// one of the kernel's source packages is a package of a Go module. The type check's importer
// asks the session's resolver (package kernel/modules) for the package's directory, fetching
// the module through GOPROXY on first use; the directory's files that this build compiles are
// checked with go/types like a cell, and handed to yaegi, which interprets them from source
// through moduleFS. A module beside the notebook (its go.mod's module path, or a replace to a
// directory) is read from there.
//
// Pins: a cell's `//gptnotes:require path version` line, then the notebook's go.mod, then the
// gptnotes.sum the kernel writes beside the notebook; with none, the newest release.

// requireDirective pins a module's version from a cell: //gptnotes:require example.com/mod v1.2.3
const requireDirective = "//gptnotes:require"

// fitModuleFile rewrites a module file for the interpreter, as the kernel's passes rewrite a
// cell, for the gaps that need no more than the file: named results of basic types start at
// their zero values on every call and a composite literal assigned to a named result is put
// in parentheses (see zeroNamedResults), the builtins min and max (Go 1.21),
// which yaegi lacks, become function literals, and constant arithmetic with another package's
// constants is folded. It reports whether the file changed; the caller prints it.
func fitModuleFile(f *ast.File, info *types.Info) bool {
	changed := minMaxLiterals(f, info)
	if foldCompiledConstants(f, info) {
		changed = true
	}
	eachFuncBody(f, func(ft *ast.FuncType, body *ast.BlockStmt) {
		if ft.Results == nil {
			return
		}
		var zero []ast.Stmt
		for _, r := range ft.Results.List {
			t, ok := r.Type.(*ast.Ident)
			if !ok || !basicResult[t.Name] {
				continue
			}
			for _, name := range r.Names {
				if name.Name != "_" {
					zero = append(zero, &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent(name.Name)}, Tok: token.ASSIGN, TokPos: body.Lbrace,
						Rhs: []ast.Expr{&ast.StarExpr{X: &ast.CallExpr{Fun: ast.NewIdent("new"), Args: []ast.Expr{ast.NewIdent(t.Name)}}}}})
				}
			}
		}
		if len(zero) > 0 {
			body.List = append(zero, body.List...)
			changed = true
		}
		if parenResultLiterals(ft, body) {
			changed = true
		}
	})
	return changed
}

// rewriteModuleStmts replaces each statement of f's statement lists (blocks, case and comm
// clauses), inner ones first, by what step returns for it, for a pass's module step that
// rewrites statements as its statement step does in a cell. It reports whether anything changed.
func rewriteModuleStmts(f *ast.File, step func(ast.Stmt) ast.Stmt) bool {
	changed := false
	var list func([]ast.Stmt)
	var visit func(n ast.Node) bool
	list = func(stmts []ast.Stmt) {
		for i, st := range stmts {
			ast.Inspect(st, visit)
			if r := step(st); r != st {
				stmts[i] = r
				changed = true
			}
		}
	}
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			list(n.List)
			return false
		case *ast.CaseClause:
			list(n.Body)
			return false
		case *ast.CommClause:
			list(n.Body)
			return false
		}
		return true
	}
	ast.Inspect(f, visit)
	return changed
}

// minMaxLiterals replaces the builtin min and max, in calls whose type the file can name (a
// basic type, or a type of its own package), by a function literal of that type:
// max(a, b) becomes (func(x T, ys ...T) T { for _, y := range ys { if y > x { x = y } }; return x })(a, b).
func minMaxLiterals(f *ast.File, info *types.Info) bool {
	changed := false
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		id, ok := call.Fun.(*ast.Ident)
		if !ok || (id.Name != "min" && id.Name != "max") {
			return true
		}
		if _, builtin := info.Uses[id].(*types.Builtin); !builtin {
			return true
		}
		var te ast.Expr
		switch t := types.Default(info.Types[call].Type).(type) {
		case *types.Basic:
			te = ast.NewIdent(t.Name())
		case *types.Named:
			if t.Obj().Pkg() != nil && t.Obj().Pkg().Scope().Lookup(t.Obj().Name()) == t.Obj() && t.TypeArgs() == nil && f.Scope == nil {
				te = ast.NewIdent(t.Obj().Name())
			}
		}
		if te == nil {
			return true
		}
		op := token.GTR
		if id.Name == "min" {
			op = token.LSS
		}
		x, y := ast.NewIdent("x"), ast.NewIdent("y")
		call.Fun = &ast.ParenExpr{X: &ast.FuncLit{
			Type: &ast.FuncType{
				Params: &ast.FieldList{List: []*ast.Field{
					{Names: []*ast.Ident{ast.NewIdent("x")}, Type: te},
					{Names: []*ast.Ident{ast.NewIdent("ys")}, Type: &ast.Ellipsis{Elt: te}},
				}},
				Results: &ast.FieldList{List: []*ast.Field{{Type: te}}},
			},
			Body: &ast.BlockStmt{List: []ast.Stmt{
				&ast.RangeStmt{Key: ast.NewIdent("_"), Value: y, Tok: token.DEFINE, X: ast.NewIdent("ys"), Body: &ast.BlockStmt{List: []ast.Stmt{
					&ast.IfStmt{Cond: &ast.BinaryExpr{X: ast.NewIdent("y"), Op: op, Y: ast.NewIdent("x")}, Body: &ast.BlockStmt{List: []ast.Stmt{
						&ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent("x")}, Tok: token.ASSIGN, Rhs: []ast.Expr{ast.NewIdent("y")}},
					}}},
				}}},
				&ast.ReturnStmt{Results: []ast.Expr{x}},
			}},
		}}
		changed = true
		return true
	})
	return changed
}

// foldCompiledConstants replaces each constant binary expression that uses another package's
// constant (0.0 - math.MaxFloat64) by its value: yaegi mixes the compiled package's constant,
// typed float64 in its table, with an untyped one and fails ("mismatched types").
func foldCompiledConstants(f *ast.File, info *types.Info) bool {
	changed := false
	var fold func(e ast.Expr) ast.Expr
	fold = func(e ast.Expr) ast.Expr {
		b, ok := e.(*ast.BinaryExpr)
		if !ok {
			return e
		}
		tv := info.Types[b]
		if tv.Value == nil || !usesOtherPackage(b, info) {
			return e
		}
		var lit string
		switch tv.Value.Kind() {
		case constant.Int:
			lit = tv.Value.ExactString()
		case constant.Float:
			v, _ := constant.Float64Val(tv.Value)
			lit = strconv.FormatFloat(v, 'g', -1, 64)
			if !strings.ContainsAny(lit, ".eEn") {
				lit += ".0"
			}
		default:
			return e
		}
		changed = true
		var out ast.Expr = &ast.BasicLit{ValuePos: b.Pos(), Kind: token.FLOAT, Value: lit}
		if strings.HasPrefix(lit, "-") {
			out = &ast.ParenExpr{X: out}
		}
		return out
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BinaryExpr:
			n.X, n.Y = fold(n.X), fold(n.Y)
		case *ast.ParenExpr:
			n.X = fold(n.X)
		case *ast.CallExpr:
			for i := range n.Args {
				n.Args[i] = fold(n.Args[i])
			}
		case *ast.AssignStmt:
			for i := range n.Rhs {
				n.Rhs[i] = fold(n.Rhs[i])
			}
		case *ast.ValueSpec:
			for i := range n.Values {
				n.Values[i] = fold(n.Values[i])
			}
		case *ast.ReturnStmt:
			for i := range n.Results {
				n.Results[i] = fold(n.Results[i])
			}
		}
		return true
	})
	return changed
}

// usesOtherPackage reports whether e names a constant of another package (pkg.Const).
func usesOtherPackage(e ast.Expr, info *types.Info) bool {
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if _, ok := info.Uses[sel.Sel].(*types.Const); ok {
				found = true
			}
		}
		return !found
	})
	return found
}

// basicResult are the result types whose named results fitModuleFile zeroes: the accumulators
// (sum, count, ok) the reused frame breaks. (Zeroing every type, as a cell's zeroNamedResults
// does, breaks modules such as go-cmp in the interpreter.)
var basicResult = map[string]bool{
	"bool": true, "string": true, "int": true, "int8": true, "int16": true, "int32": true, "int64": true,
	"uint": true, "uint8": true, "uint16": true, "uint32": true, "uint64": true, "uintptr": true,
	"float32": true, "float64": true, "complex64": true, "complex128": true, "byte": true, "rune": true,
}

// modulePackageNames are the names of the module packages checked so far, by import path:
// what an import without alias is used under (importName). A path's name is its package
// clause's, the same in every session.
var modulePackageNames sync.Map

// moduleState is the session's part of the modules: the resolver, made on first use, and the
// packages handed to the interpreter.
type moduleState struct {
	mu       sync.Mutex
	resolver *modules.Resolver
	dir      string // the notebook's directory: the working directory unless a test sets it
	env      *modules.Env
	fs       *moduleFS
	docs     map[string]map[string]string // import path → exported name → declaration and doc

	local   map[string]*localPackage // packages beside the notebook, as last checked (reload.go)
	bound   map[string]binding       // packages beside the notebook loaded again → the name cells use
	reloads int                      // how many times one was loaded again
}

// resolverFor returns the session's resolver, made on first use from the environment.
func (m *moduleState) resolverFor() (*modules.Resolver, error) {
	if m.resolver != nil {
		return m.resolver, nil
	}
	env := m.env
	if env == nil {
		e, err := modules.EnvFromOS()
		if err != nil {
			return nil, err
		}
		env = &e
	}
	dir := m.dir
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		dir = wd
	}
	r, err := modules.New(*env, dir, func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, format+"\n", args...) // the running cell's stderr (capture.go)
	})
	if err != nil {
		return nil, fmt.Errorf("modules: %w", err)
	}
	m.resolver = r
	return r, nil
}

// requireDirectives applies the cell's //gptnotes:require lines.
func (s *Session) requireDirectives(code string) error {
	if !strings.Contains(code, requireDirective) {
		return nil
	}
	s.mods.mu.Lock()
	defer s.mods.mu.Unlock()
	for i, line := range strings.Split(code, "\n") {
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), requireDirective)
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		where := fmt.Sprintf("cell:%d", i+1)
		if len(f) != 2 {
			return &CellError{Name: "ModuleError", Value: where + ": want " + requireDirective + " MODULE VERSION"}
		}
		r, err := s.mods.resolverFor()
		if err == nil {
			err = r.Require(f[0], f[1], where)
		}
		if err != nil {
			return &CellError{Name: "ModuleError", Value: err.Error()}
		}
	}
	return nil
}

// modulePackage is the importer's way to a module's package: its directory and the files this
// build compiles, registered with the interpreter's file system. A path the standard library
// could hold (no dot in its first element) is a module's only when a go.mod beside the notebook
// declares it.
func (s *Session) modulePackage(path string) (dir string, files []string, err error) {
	s.mods.mu.Lock()
	defer s.mods.mu.Unlock()
	if p, ok := s.mods.fs.lookup(path); ok && !p.local {
		return p.dir, p.files, nil
	}
	r, err := s.mods.resolverFor()
	if err != nil {
		return "", nil, err
	}
	pkg, err := r.Package(path)
	if err != nil {
		return "", nil, err
	}
	files, err = modules.Files(path, pkg.Dir)
	if err != nil {
		return "", nil, err
	}
	if pkg.Module.Version != "" {
		s.mods.fs.add(path, fsPackage{dir: pkg.Dir, files: files})
		return pkg.Dir, files, nil
	}
	// Beside the notebook: checked again only when it changed (reload.go).
	lp := &localPackage{dir: pkg.Dir, stamp: dirStamp(pkg.Dir), yaegiPath: s.mods.nextYaegiPath(path)}
	if s.mods.local == nil {
		s.mods.local = map[string]*localPackage{}
	}
	s.mods.local[path] = lp
	s.mods.fs.add(lp.yaegiPath, fsPackage{dir: pkg.Dir, files: files, local: true})
	return pkg.Dir, files, nil
}

// moduleDocs are the declarations and doc comments of a module package's exported names, for
// Inspect.
func moduleDocs(files []*ast.File) map[string]string {
	docs := map[string]string{}
	fset := token.NewFileSet()
	show := func(n any, doc *ast.CommentGroup) string {
		var b strings.Builder
		printer.Fprint(&b, fset, n)
		if doc != nil {
			b.WriteString("\n\n" + doc.Text())
		}
		return strings.TrimSpace(b.String())
	}
	for _, f := range files {
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil || !d.Name.IsExported() {
					continue
				}
				decl := *d
				decl.Body, decl.Doc = nil, nil
				docs[d.Name.Name] = show(&decl, d.Doc)
			case *ast.GenDecl:
				for _, sp := range d.Specs {
					doc := d.Doc
					switch sp := sp.(type) {
					case *ast.TypeSpec:
						if sp.Doc != nil {
							doc = sp.Doc
						}
						if sp.Name.IsExported() {
							docs[sp.Name.Name] = show(&ast.GenDecl{Tok: d.Tok, Specs: []ast.Spec{sp}}, doc)
						}
					case *ast.ValueSpec:
						if sp.Doc != nil {
							doc = sp.Doc
						}
						for _, n := range sp.Names {
							if n.IsExported() {
								docs[n.Name] = show(&ast.GenDecl{Tok: d.Tok, Specs: []ast.Spec{sp}}, doc)
							}
						}
					}
				}
			}
		}
	}
	return docs
}

// moduleChecked records a module package the importer has checked, unless it refuses it
// (refuseModule): its docs for Inspect, and its files as the interpreter gets them
// (fitModuleFile, moduleTypeSwitches, rebindImports, and the passes' module steps).
func (s *Session) moduleChecked(path string, fset *token.FileSet, files []*ast.File, info *types.Info) error {
	if err := refuseModule(path, fset, files, info); err != nil {
		return err
	}
	noteModuleReflection(path, files, info)
	docs := moduleDocs(files)
	if len(files) > 0 {
		modulePackageNames.Store(path, files[0].Name.Name)
	}
	s.mods.mu.Lock()
	defer s.mods.mu.Unlock()
	s.mods.docs[path] = docs
	yp := s.mods.yaegiPath(path)
	p, ok := s.mods.fs.lookup(yp)
	if !ok {
		return nil
	}
	if lp := s.mods.local[path]; lp != nil {
		lp.deps = map[string]string{}
		for _, f := range files {
			for _, sp := range f.Imports {
				dep, _ := strconv.Unquote(sp.Path.Value)
				if _, ok := s.mods.local[dep]; ok {
					lp.deps[dep] = s.mods.yaegiPath(dep)
				}
			}
		}
	}
	for _, f := range files {
		rebound := s.mods.rebindImports(f)
		switches := s.moduleTypeSwitches(f, info)
		changed := false
		for _, ps := range passes {
			if ps.module != nil && ps.module(path, fset, f, info) {
				changed = true
			}
		}
		if !fitModuleFile(f, info) && !rebound && !switches && !changed {
			continue
		}
		var b strings.Builder
		if err := printer.Fprint(&b, fset, f); err != nil {
			continue // the file as it is
		}
		if p.rewritten == nil {
			p.rewritten = map[string][]byte{}
		}
		p.rewritten[filepath.Base(fset.Position(f.Pos()).Filename)] = []byte(b.String())
	}
	s.mods.fs.add(yp, p)
	return nil
}

// moduleDoc is the declaration and doc comment of path.name, for a module package.
func (s *Session) moduleDoc(path, name string) (string, bool) {
	s.mods.mu.Lock()
	defer s.mods.mu.Unlock()
	d, ok := s.mods.docs[path][name]
	return d, ok
}

// moduleSymbols are the exported names of a module package the check has loaded, as invalid
// values (the interpreter holds the real ones): what completion lists.
func (s *Session) moduleSymbols(path string) map[string]reflect.Value {
	s.mods.mu.Lock()
	defer s.mods.mu.Unlock()
	docs := s.mods.docs[path]
	if docs == nil {
		return nil
	}
	m := make(map[string]reflect.Value, len(docs))
	for name := range docs {
		m[name] = reflect.Value{}
	}
	return m
}

// moduleFS is the file system yaegi reads source packages from, GOPATH-style: src/<import
// path>/<file>, each package directory mapped to where the resolver found it, with only the
// files this build compiles.
type moduleFS struct {
	mu   sync.RWMutex
	pkgs map[string]fsPackage // import path → package
}

type fsPackage struct {
	dir       string
	files     []string
	local     bool              // beside the notebook: looked up again on every import
	rewritten map[string][]byte // file name → source as rewritten for the interpreter
}

func newModuleFS() *moduleFS { return &moduleFS{pkgs: map[string]fsPackage{}} }

func (m *moduleFS) add(path string, p fsPackage) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.pkgs[path] = p
}

func (m *moduleFS) lookup(path string) (fsPackage, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	p, ok := m.pkgs[path]
	return p, ok
}

// resolve maps name (src/<import path>[/<file>]) to a real path: the package's directory, or
// one of its files.
func (m *moduleFS) resolve(name string) (string, bool) {
	rest, ok := strings.CutPrefix(filepath.ToSlash(name), "src/")
	if !ok {
		return "", false
	}
	if p, ok := m.lookup(rest); ok {
		return p.dir, true
	}
	i := strings.LastIndex(rest, "/")
	if i < 0 {
		return "", false
	}
	p, ok := m.lookup(rest[:i])
	if !ok {
		return "", false
	}
	for _, f := range p.files {
		if f == rest[i+1:] {
			return filepath.Join(p.dir, f), true
		}
	}
	return "", false
}

func (m *moduleFS) Open(name string) (fs.File, error) {
	real, ok := m.resolve(name)
	if !ok {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return os.Open(real)
}

func (m *moduleFS) Stat(name string) (fs.FileInfo, error) {
	real, ok := m.resolve(name)
	if !ok {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
	}
	return os.Stat(real)
}

func (m *moduleFS) ReadFile(name string) ([]byte, error) {
	slash := filepath.ToSlash(name)
	if i := strings.LastIndex(slash, "/"); i > 0 {
		if p, ok := m.lookup(strings.TrimPrefix(slash[:i], "src/")); ok && p.rewritten[slash[i+1:]] != nil {
			return p.rewritten[slash[i+1:]], nil
		}
	}
	real, ok := m.resolve(name)
	if !ok {
		return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
	}
	return os.ReadFile(real)
}

// ReadDir lists a package's files that this build compiles, nothing else.
func (m *moduleFS) ReadDir(name string) ([]fs.DirEntry, error) {
	rest, _ := strings.CutPrefix(filepath.ToSlash(name), "src/")
	p, ok := m.lookup(rest)
	if !ok {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	var out []fs.DirEntry
	for _, f := range p.files {
		fi, err := os.Stat(filepath.Join(p.dir, f))
		if err != nil {
			return nil, err
		}
		out = append(out, fs.FileInfoToDirEntry(fi))
	}
	return out, nil
}

// moduleError is a failed module import as the cell shows it (msg: "position: reason").
func moduleError(msg string) *CellError {
	name := "ModuleError"
	if strings.Contains(msg, "cannot be interpreted") {
		name = "UninterpretableError"
	}
	return &CellError{Name: name, Value: msg, Traceback: []string{name + ": " + msg}}
}
