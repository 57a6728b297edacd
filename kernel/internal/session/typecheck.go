package session

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gptnotes/gptnotes/kernel/symbols/stdlib"
)

// The type check: a cell is checked with go/types, as part of one package main that holds
// everything the session declared before it, before the interpreter sees any of it. A cell that
// fails here changes nothing, and its error is the one Go gives ("cell:1:6: undefined: f"). The
// types it finds drive the rewrites that follow: the type of each `x := …` at the top of a cell,
// whether a name is a package-level function or a local that shadows it, what a trailing
// expression's type can render.
//
// The session's package is kept as source: each declaration (type, function, method,
// constant) is one small file, checked again with every cell, and each variable made by a
// statement is `var x T` with the type the check gave it. Checking again is cheap (a few
// milliseconds for a notebook's declarations) and it answers the hard question of a notebook:
// when a cell declares a type or function again, which earlier declarations use it (they are
// compiled again) and which no longer compile (they are removed, and the cell says so).

// A stateDecl is one package-level declaration of an earlier cell.
type stateDecl struct {
	key   string          // "point", "point.String" for a method, "const k" for constants
	names []string        // the package-level names it declares (none for a method)
	recv  string          // a method's receiver type name
	src   string          // the declaration as the cell wrote it
	file  *ast.File       // src parsed, positions in file key
	uses  map[string]bool // package-level names of the session it uses
	yaegi *ast.File       // the rewritten declaration the interpreter compiled

	identSet map[string]bool // every identifier of src (idents)
}

// A stateVar is a package-level variable made by a cell's statements.
type stateVar struct {
	typ     types.Type // from the check of the cell that made it
	typeSrc string     // typ written with the session's import names ("" when it cannot be)
	mainRef bool       // typ mentions a type declared by a cell
	mainSrc string     // typ written with a cell's types by name (for mentions)
}

// typeState is the session as go/types sees it.
type typeState struct {
	decls []*stateDecl
	vars  map[string]*stateVar
}

// checkResult is what the check of one cell found.
type checkResult struct {
	info          *types.Info
	pkg           *types.Package              // the package of the last check
	defined       map[*ast.Ident]types.Object // top-level variables of the cell's statements
	broken        map[*stateDecl]string       // earlier declarations this cell breaks → Go's error
	trailingValue bool                        // the cell ends with an expression that has a value
}

// typecheck checks the cell's pieces in order, each against the session and the pieces
// before it.
func (c *cellCtx) typecheck() error {
	res := &checkResult{
		info: &types.Info{
			Types:      map[ast.Expr]types.TypeAndValue{},
			Defs:       map[*ast.Ident]types.Object{},
			Uses:       map[*ast.Ident]types.Object{},
			Implicits:  map[ast.Node]types.Object{},
			Instances:  map[*ast.Ident]types.Instance{},
			Selections: map[*ast.SelectorExpr]*types.Selection{},
			Scopes:     map[ast.Node]*types.Scope{},
		},
		defined: map[*ast.Ident]types.Object{},
		broken:  map[*stateDecl]string{},
	}
	c.checked = res
	cellVars := map[string]*stateVar{} // made by earlier pieces of this cell
	for k := range c.pieces {
		if err := c.checkPiece(k, res, cellVars); err != nil {
			return err
		}
	}
	// Last, the earlier declarations against all the cell declares: one that used a variable
	// the cell gave another type no longer compiles.
	for attempt := 0; attempt <= len(c.s.typed.decls); attempt++ {
		_, stateErrs := c.checkOnce(len(c.pieces), res, cellVars)
		if len(stateErrs) == 0 {
			break
		}
		for d, e := range stateErrs {
			res.broken[d] = e
		}
	}
	return nil
}

// checkPiece checks piece k. Earlier declarations that no longer compile are set aside in
// res.broken and the check runs again without them.
func (c *cellCtx) checkPiece(k int, res *checkResult, cellVars map[string]*stateVar) error {
	p := &c.pieces[k]
	for attempt := 0; ; attempt++ {
		errs, stateErrs := c.checkOnce(k, res, cellVars)
		if len(errs) > 0 {
			c.checkErrs = errs
			return typeErrors(c.s.waitingHint(c.genericHints(errs)))
		}
		if len(stateErrs) == 0 || attempt > len(c.s.typed.decls) {
			break
		}
		for d, e := range stateErrs {
			res.broken[d] = e
		}
	}
	if p.kind == stmtPiece {
		for _, st := range p.body.List {
			for _, id := range topLevelDefs(st) {
				if obj := res.info.Defs[id]; obj != nil {
					res.defined[id] = obj
					cellVars[id.Name] = c.newStateVar(obj.Type())
				}
			}
		}
		if e := c.trailingExpr(p); e != nil && k == len(c.pieces)-1 {
			tv, ok := res.info.Types[e]
			res.trailingValue = ok && !tv.IsVoid() && !tv.IsType()
		}
	}
	return nil
}

// checkOnce runs go/types once over the files of piece k: the session's declarations and
// variables, the cell's declaration pieces up to k, and piece k (k = len(c.pieces): all the
// cell's declarations, no statements). It returns the errors in the cell, and the errors in
// earlier declarations by declaration.
func (c *cellCtx) checkOnce(k int, res *checkResult, cellVars map[string]*stateVar) (errs []types.Error, stateErrs map[*stateDecl]string) {
	fset := c.s.fset
	declared := c.cellDeclNames(k)
	imports := maps.Clone(c.checkImports()) // the vars file adds its hidden imports

	var files []*ast.File
	stateFiles := map[string]*stateDecl{}
	wanted := map[string]bool{} // the names the checked files use: only those variables are declared
	for _, d := range c.s.typed.decls {
		if res.broken[d] != "" || c.replaced(d, declared, cellVars) {
			continue
		}
		files = append(files, withImports(d.file, imports))
		stateFiles[d.key] = d
		for n := range d.idents() {
			wanted[n] = true
		}
	}
	for j := 0; j <= k && j < len(c.pieces); j++ {
		ast.Inspect(c.pieces[j].root(), func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				wanted[id.Name] = true
			}
			return true
		})
	}
	pkg := types.NewPackage("main", "main")
	vars, hidden := c.varsFile(pkg, wanted, declared, cellVars)
	for name, path := range hidden {
		imports[name] = path
	}
	if vars != nil {
		files = append(files, withImports(vars, imports))
	}
	for j := 0; j <= k && j < len(c.pieces); j++ {
		q := c.pieces[j]
		switch {
		case q.kind == declPiece:
			files = append(files, withImports(q.file, imports))
		case j == k:
			files = append(files, withImports(q.wrapper, imports))
		default: // an earlier statement piece: its constants are the package's now
			if consts := topConsts(q); len(consts) > 0 {
				files = append(files, withImports(&ast.File{Name: ast.NewIdent("main"), Decls: consts}, imports))
			}
		}
	}

	var all []types.Error
	conf := types.Config{
		Importer:  c.s.imp,
		GoVersion: "go1.26",
		Error:     func(err error) { all = append(all, err.(types.Error)) },
	}
	types.NewChecker(&conf, fset, pkg, res.info).Files(files)
	res.pkg = pkg

	ignore := c.ignorable(k)
	stateErrs = map[*stateDecl]string{}
	seen := map[string]bool{}
	for _, e := range all {
		pos := fset.Position(e.Pos)
		if d := stateFiles[pos.Filename]; d != nil {
			if stateErrs[d] == "" {
				stateErrs[d] = e.Msg
			}
			continue
		}
		if ignore(e) || seen[e.Error()] {
			continue
		}
		seen[e.Error()] = true
		errs = append(errs, e)
	}
	// An error at no position comes from the imports the check adds to every file; the same
	// error stands at its place in the cell.
	placed := errs[:0]
	for _, e := range errs {
		if path, ok := missingImport(e.Msg); ok && !e.Pos.IsValid() {
			e.Pos = c.importPos(path)
		}
		if e.Pos.IsValid() {
			placed = append(placed, e)
		}
	}
	if len(placed) > 0 {
		errs = placed
	}
	return errs, stateErrs
}

// ignorable returns the test for errors that are Go's but not a cell's: an import a cell does
// not use (it is there for later cells), a variable made at the top of the cell and not used
// (it is the session's), the trailing expression that is not used (it is the cell's value).
func (c *cellCtx) ignorable(k int) func(types.Error) bool {
	top := map[token.Pos]bool{}
	var trailing token.Pos = token.NoPos
	if k == len(c.pieces) {
		return func(types.Error) bool { return true }
	}
	if p := c.pieces[k]; p.kind == stmtPiece {
		for _, st := range p.body.List {
			for _, id := range topLevelDefs(st) {
				top[id.Pos()] = true
			}
		}
		if e := c.trailingExpr(&c.pieces[k]); e != nil && k == len(c.pieces)-1 {
			trailing = e.Pos()
		}
	}
	return func(e types.Error) bool {
		switch {
		case strings.HasSuffix(e.Msg, " and not used") && strings.Contains(e.Msg, " imported"):
			return true
		case strings.HasPrefix(e.Msg, "declared and not used: ") && top[e.Pos]:
			return true
		case strings.HasSuffix(e.Msg, " is not used") && e.Pos == trailing:
			return true
		case strings.HasPrefix(e.Msg, "label ") && strings.HasSuffix(e.Msg, " declared and not used"):
			return false
		}
		return false
	}
}

// trailingExpr is the expression of the piece's last statement, when it is one.
func (c *cellCtx) trailingExpr(p *piece) ast.Expr {
	if p.kind != stmtPiece || len(p.body.List) == 0 {
		return nil
	}
	if es, ok := p.body.List[len(p.body.List)-1].(*ast.ExprStmt); ok {
		return es.X
	}
	return nil
}

// typeErrors is a failed check as the cell's error: Go's messages, one a line, at most ten.
func typeErrors(errs []types.Error) *CellError {
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Pos < errs[j].Pos })
	if len(errs) > 10 {
		errs = append(errs[:10], types.Error{Msg: "too many errors"})
	}
	lines := make([]string, len(errs))
	for i, e := range errs {
		if e.Fset == nil {
			lines[i] = e.Msg
			continue
		}
		lines[i] = e.Error()
		if path, ok := missingImport(e.Msg); ok {
			if reason := importReason(e.Msg); reason != "" && !strings.Contains(reason, noSuchPackage) {
				return moduleError(e.Fset.Position(e.Pos).String() + ": " + reason)
			}
			return importError(e.Fset.Position(e.Pos).String(), path)
		}
	}
	return compileErrorText(strings.Join(lines, "\n"))
}

// genericHints adds to Go's `undefined: cmp.Compare`, when cmp is an import of the standard
// library and Compare one of its generic functions or types (which the interpreter lacks, so the
// check's package does too), that the name is generic. Go's message stays first, as it was.
func (c *cellCtx) genericHints(errs []types.Error) []types.Error {
	var imports map[string]string
	for i, e := range errs {
		rest, ok := strings.CutPrefix(e.Msg, "undefined: ")
		pkgName, name, ok2 := strings.Cut(rest, ".")
		if !ok || !ok2 || !token.IsIdentifier(pkgName) || !token.IsIdentifier(name) {
			continue
		}
		if imports == nil {
			imports = c.checkImports()
		}
		if slices.Contains(stdlib.Generic[imports[pkgName]], name) {
			errs[i].Msg += " (" + name + " is generic: the interpreter cannot run the standard library's generic functions; write it for your types)"
		}
	}
	return errs
}

// importPos is the position of the cell's import of path.
func (c *cellCtx) importPos(path string) token.Pos {
	for _, p := range c.pieces {
		if p.kind == declPiece {
			for _, sp := range p.file.Imports {
				if q, _ := strconv.Unquote(sp.Path.Value); q == path {
					return sp.Path.Pos()
				}
			}
		}
	}
	return token.NoPos
}

// missingImport recognizes the check's error for an import the kernel does not have.
func missingImport(msg string) (string, bool) {
	rest, ok := strings.CutPrefix(msg, "could not import ")
	if !ok {
		return "", false
	}
	path, _, _ := strings.Cut(rest, " ")
	return path, true
}

// importReason is the reason in the check's "could not import P (reason)".
func importReason(msg string) string {
	_, rest, _ := strings.Cut(msg, " (")
	return strings.TrimSuffix(rest, ")")
}

// topLevelDefs are the variables a top-level statement of a cell declares: x in `x := …` and
// `var x …`.
func topLevelDefs(st ast.Stmt) []*ast.Ident {
	var ids []*ast.Ident
	switch st := st.(type) {
	case *ast.AssignStmt:
		if st.Tok == token.DEFINE {
			for _, l := range st.Lhs {
				if id, ok := l.(*ast.Ident); ok && id.Name != "_" {
					ids = append(ids, id)
				}
			}
		}
	case *ast.DeclStmt:
		if g, ok := st.Decl.(*ast.GenDecl); ok && g.Tok == token.VAR {
			for _, sp := range g.Specs {
				for _, id := range sp.(*ast.ValueSpec).Names {
					if id.Name != "_" {
						ids = append(ids, id)
					}
				}
			}
		}
	}
	return ids
}

// cellDeclNames are the package-level names and method keys declared by the cell's
// declaration pieces up to k, and its top-level constants.
func (c *cellCtx) cellDeclNames(k int) map[string]bool {
	names := map[string]bool{}
	for j := 0; j <= k && j < len(c.pieces); j++ {
		p := c.pieces[j]
		if p.kind == declPiece {
			for _, d := range p.file.Decls {
				for _, key := range declKeys(d) {
					names[key] = true
				}
			}
			continue
		}
		for _, g := range topConsts(p) {
			for _, key := range declKeys(g) {
				names[key] = true
			}
		}
	}
	return names
}

// topConsts are the constant declarations among a statement piece's top-level statements.
func topConsts(p piece) []ast.Decl {
	var consts []ast.Decl
	for _, st := range p.body.List {
		if ds, ok := st.(*ast.DeclStmt); ok && ds.Decl.(*ast.GenDecl).Tok == token.CONST {
			consts = append(consts, ds.Decl)
		}
	}
	return consts
}

// declKeys are the names a declaration declares, and "T.M" for a method.
func declKeys(d ast.Decl) []string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv != nil {
			return []string{recvTypeName(d.Recv.List[0].Type) + "." + d.Name.Name}
		}
		return []string{d.Name.Name}
	case *ast.GenDecl:
		var keys []string
		for _, sp := range d.Specs {
			switch sp := sp.(type) {
			case *ast.TypeSpec:
				keys = append(keys, sp.Name.Name)
			case *ast.ValueSpec:
				for _, id := range sp.Names {
					keys = append(keys, id.Name)
				}
			}
		}
		return keys
	}
	return nil
}

// replaced reports whether the cell declares again what d declares.
func (c *cellCtx) replaced(d *stateDecl, declared map[string]bool, cellVars map[string]*stateVar) bool {
	if d.recv != "" {
		return declared[d.key]
	}
	for _, n := range d.names {
		if declared[n] || cellVars[n] != nil {
			return true
		}
	}
	return false
}

// checkImports is every import a check sees, name → path: the session's and the cell's. It is
// worked out once a cell; callers must not change it.
func (c *cellCtx) checkImports() map[string]string {
	if c.imports != nil {
		return c.imports
	}
	imports := map[string]string{}
	for key, name := range c.s.imports {
		imports[name] = key[strings.LastIndex(key, " ")+1:]
	}
	for _, p := range c.pieces {
		if p.kind == declPiece {
			for _, sp := range p.file.Imports {
				path, _ := strconv.Unquote(sp.Path.Value)
				imports[c.s.checkImportName(sp, path)] = path
			}
		}
	}
	delete(imports, "_")
	delete(imports, ".")
	c.imports = imports
	return imports
}

// checkImportName is the name a cell's import is used under. A module package imported for the
// first time is imported now, so that its package clause names it (github.com/dustin/go-humanize
// is humanize) in the cell's other pieces too, which the check sees as other files.
func (s *Session) checkImportName(sp *ast.ImportSpec, path string) string {
	if sp.Name != nil {
		return sp.Name.Name
	}
	if _, known := modulePackageNames.Load(path); !known && s.pkgNames[path] == "" && sourcePackages[path] == "" {
		if pkg, err := s.imp.Import(path); err == nil && pkg != nil {
			return pkg.Name()
		}
	}
	return importName(sp)
}

// withImports is f with an import declaration of every package in imports that f does not
// import itself, put first. f's own nodes are shared, so the check's types describe them.
func withImports(f *ast.File, imports map[string]string) *ast.File {
	own := map[string]bool{}
	for _, sp := range f.Imports {
		own[importName(sp)] = true
	}
	g := &ast.GenDecl{Tok: token.IMPORT}
	names := make([]string, 0, len(imports))
	for name := range imports {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if own[name] {
			continue
		}
		g.Specs = append(g.Specs, &ast.ImportSpec{Name: ast.NewIdent(name),
			Path: &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(imports[name])}})
	}
	out := *f
	out.Decls = append([]ast.Decl{g}, f.Decls...)
	return &out
}

// varsFile declares the session's variables and those of the cell's earlier pieces that the
// checked files name (wanted), for the check. A variable whose type mentions no type of a cell goes straight into pkg's scope, its
// type as it was; the others are declared in a file, `var x T`, so that T is the cell's type
// of that name in this check. hidden is the imports those types need under names no cell uses.
func (c *cellCtx) varsFile(pkg *types.Package, wanted, declared map[string]bool, cellVars map[string]*stateVar) (*ast.File, map[string]string) {
	hidden := map[string]string{}
	names := map[string]*stateVar{}
	for n := range wanted {
		if v := cellVars[n]; v != nil {
			names[n] = v
		} else if v := c.s.typed.vars[n]; v != nil {
			names[n] = v
		}
	}
	var sorted []string
	for n, v := range names {
		switch {
		case declared[n]:
		case !v.mainRef:
			pkg.Scope().Insert(types.NewVar(token.NoPos, pkg, n, v.typ))
		default:
			sorted = append(sorted, n)
		}
	}
	if len(sorted) == 0 {
		return nil, hidden
	}
	sort.Strings(sorted)
	var b strings.Builder
	b.WriteString("package main\n")
	for _, n := range sorted {
		fmt.Fprintf(&b, "var %s %s\n", n, c.checkTypeString(names[n].typ, hidden))
	}
	f, err := parser.ParseFile(c.s.fset, "session variables", b.String(), 0)
	if err != nil {
		return nil, hidden // cannot happen: TypeString writes Go
	}
	return f, hidden
}

// checkTypeString writes t for the check's vars file: a cell's types by name, each package
// under a hidden import name of its own (so that no cell's name can shadow it).
func (c *cellCtx) checkTypeString(t types.Type, hidden map[string]string) string {
	return types.TypeString(t, func(p *types.Package) string {
		if p.Path() == "main" {
			return ""
		}
		name := "__gptnotes_pkg_" + strings.NewReplacer("/", "_", ".", "_", "-", "_").Replace(p.Path())
		hidden[name] = p.Path()
		return name
	})
}

// newStateVar describes a variable of type t made by a cell.
func (c *cellCtx) newStateVar(t types.Type) *stateVar {
	v := &stateVar{typ: t}
	ok := true
	v.typeSrc = types.TypeString(t, func(p *types.Package) string {
		if p.Path() == "main" {
			v.mainRef = true
			return ""
		}
		name := c.visibleImport(p.Path())
		if name == "" {
			ok = false
		}
		return name
	})
	if !ok || strings.Contains(v.typeSrc, "invalid type") {
		v.typeSrc = ""
	}
	v.mainSrc = types.TypeString(t, func(p *types.Package) string {
		if p.Path() == "main" {
			return ""
		}
		return p.Name()
	})
	return v
}

// visibleImport is the name under which the session or the cell imports path, "" if none.
func (c *cellCtx) visibleImport(path string) string {
	for name, p := range c.checkImports() {
		if p == path {
			return name
		}
	}
	return ""
}

// usesOf lists the package-level names of package main that the identifiers under n use.
func usesOf(n ast.Node, info *types.Info) map[string]bool {
	uses := map[string]bool{}
	ast.Inspect(n, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok {
			if obj := info.Uses[id]; obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == "main" && isPackageLevel(obj) {
				uses[obj.Name()] = true
			}
		}
		return true
	})
	return uses
}

// isPackageLevel reports whether obj is declared in its package's scope.
func isPackageLevel(obj types.Object) bool {
	return obj.Parent() != nil && obj.Parent().Parent() == types.Universe
}

// mentions reports whether the type expression src names one of the names.
func mentions(src string, names map[string]bool) bool {
	e, err := parser.ParseExpr(src)
	if err != nil {
		return true
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		if _, ok := n.(*ast.SelectorExpr); ok {
			return false // pkg.T: not a cell's type
		}
		if id, ok := n.(*ast.Ident); ok && names[id.Name] {
			found = true
		}
		return !found
	})
	return found
}
