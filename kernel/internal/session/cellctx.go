package session

import (
	"go/ast"
	"go/printer"
	"go/token"
	"go/types"
	"sort"
	"strconv"
	"strings"
)

// cellCtx carries one cell through checking, rewriting and evaluation.
type cellCtx struct {
	s       *Session
	name    string      // position file name: scopeFile
	src     string      // the cell as written
	sources sourceNames // the file and line Go would name for each of its lines
	id      int
	pieces  []piece

	trailing     ast.Expr          // the trailing expression, while wrapped in __gptnotes.Result
	renderedTail int               // statements renderedResult put in its place, 0 if none
	checked      *checkResult      // what the type check found
	checkErrs    []types.Error     // Go's errors, when the check failed (waiting.go)
	imports      map[string]string // checkImports, once worked out
	change       *change           // what the cell changes in the session's declarations
	definedHere  map[string]string // variables typedDefines declared, → type
	wrapDefers   bool              // the last piece runs in a function literal (deferWrapped)
	rebound      []rebinding       // imports of packages loaded again (reload.go)
	structs      []*types.Named    // the named struct types a value may have (lookalike.go), once worked out
	rewriteState
}

// prepareDecls drops imports already seen and re-declarations of unchanged types; it reports
// whether anything is left to evaluate.
func (c *cellCtx) prepareDecls(p *piece) bool {
	var decls []ast.Decl
	for _, d := range p.file.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok {
			decls = append(decls, d)
			continue
		}
		var specs []ast.Spec
		for _, sp := range g.Specs {
			switch sp := sp.(type) {
			case *ast.ImportSpec:
				if _, seen := c.s.imports[importKey(sp)]; seen {
					continue
				}
			case *ast.TypeSpec:
				if old, ok := c.s.types[sp.Name.Name]; ok && old == c.source(sp) {
					continue // the same declaration again (a cell run twice): keep the type
				}
			}
			specs = append(specs, sp)
		}
		if len(specs) == 0 {
			continue
		}
		g.Specs = specs
		decls = append(decls, g)
	}
	p.file.Decls = decls
	p.file.Imports = nil
	for _, d := range decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			for _, sp := range g.Specs {
				p.file.Imports = append(p.file.Imports, sp.(*ast.ImportSpec))
			}
		}
	}
	return len(decls) > 0
}

// record remembers what an evaluated piece declared.
func (c *cellCtx) record(p *piece) {
	if p.kind == stmtPiece {
		c.recordVarTypes()
		return
	}
	for _, d := range p.file.Decls {
		switch d := d.(type) {
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				switch sp := sp.(type) {
				case *ast.ImportSpec:
					if !c.rebinds(sp) {
						c.s.imports[importKey(sp)] = importName(sp)
					}
				case *ast.TypeSpec:
					c.s.types[sp.Name.Name] = c.source(sp)
				}
			}
		case *ast.FuncDecl:
			if d.Recv == nil {
				c.s.funcs[d.Name.Name] = d
				continue
			}
			if t := recvTypeName(d.Recv.List[0].Type); t != "" {
				if c.s.methods[t] == nil {
					c.s.methods[t] = map[string]*ast.FuncDecl{}
				}
				c.s.methods[t][d.Name.Name] = d
			}
		}
	}
}

func importKey(sp *ast.ImportSpec) string {
	path, _ := strconv.Unquote(sp.Path.Value)
	if sp.Name != nil {
		return sp.Name.Name + " " + path
	}
	return path
}

// importName is the name an import is used under: its alias, or the last path element that is
// not a major version (math/rand/v2 is rand).
func importName(sp *ast.ImportSpec) string {
	if sp.Name != nil {
		return sp.Name.Name
	}
	path, _ := strconv.Unquote(sp.Path.Value)
	if name, ok := modulePackageNames.Load(path); ok {
		return name.(string) // github.com/dustin/go-humanize is humanize
	}
	elems := strings.Split(path, "/")
	name := elems[len(elems)-1]
	if n := len(elems); n > 1 && len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" {
		name = elems[n-2]
	}
	return name
}

// recvTypeName is T for receivers T, *T, T[P], *T[P].
func recvTypeName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return recvTypeName(t.X)
	case *ast.IndexExpr:
		return recvTypeName(t.X)
	case *ast.IndexListExpr:
		return recvTypeName(t.X)
	case *ast.Ident:
		return t.Name
	}
	return ""
}

// source prints a node back to Go source (for comparing declarations).
func (c *cellCtx) source(n ast.Node) string {
	var b strings.Builder
	printer.Fprint(&b, token.NewFileSet(), n)
	return b.String()
}

// captureTrailing wraps a final expression statement as __gptnotes.Result(expr), so the runtime
// receives its values (all of them, for a call with several results). Calls whose values nobody
// wants to see (fmt.Println's byte count) stay statements.
func (c *cellCtx) captureTrailing(p *piece) bool {
	n := len(p.body.List)
	if n == 0 {
		return false
	}
	es, ok := p.body.List[n-1].(*ast.ExprStmt)
	if !ok || isPrintCall(es.X) {
		return false
	}
	c.trailing = es.X
	if rs := c.renderCalls(es.X, "ResultWith"); rs != nil {
		p.body.List = append(p.body.List[:n-1], rs...)
		c.renderedTail = len(rs)
		return true
	}
	es.X = &ast.CallExpr{Fun: runtimeFunc("Result"), Args: []ast.Expr{es.X}, Lparen: es.X.Pos(), Rparen: es.X.End()}
	return true
}

// rendererMethods are the methods that make a value render as a MIME type (see package
// display), plus String for text/plain.
var rendererMethods = map[string]string{
	"HTML": "text/html", "Markdown": "text/markdown", "Latex": "text/latex", "SVG": "image/svg+xml",
	"PNG": "image/png", "JPEG": "image/jpeg", "JSON": "application/json", "String": "text/plain",
}

// renderCalls handles a value whose type a cell declared with renderer methods (a trailing
// expression, an argument of display.Display). Compiled code cannot see an interpreted type's
// methods, so the cell calls them and hands the results to the runtime function fn:
//
//	__gptnotes_v := expr
//	__gptnotes.<fn>(__gptnotes_v, "text/html", __gptnotes_v.HTML(), …)
//
// It returns nil when e's type is not known to have renderer methods.
func (c *cellCtx) renderCalls(e ast.Expr, fn string) []ast.Stmt {
	names, known := c.rendererMethodsOf(e)
	if !known {
		t := c.staticTypeName(e)
		if t == "" {
			return nil
		}
		for m := range rendererMethods {
			if d := c.method(t, m); d != nil && (d.Type.Params == nil || d.Type.Params.NumFields() == 0) {
				names = append(names, m)
			}
		}
	}
	v := ast.NewIdent("__gptnotes_v")
	args := []ast.Expr{ast.NewIdent(v.Name)}
	if len(names) == 0 {
		return nil
	}
	sort.Strings(names)
	for _, m := range names {
		args = append(args, &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(rendererMethods[m])},
			&ast.CallExpr{Fun: &ast.SelectorExpr{X: ast.NewIdent(v.Name), Sel: ast.NewIdent(m)}})
	}
	return []ast.Stmt{
		&ast.AssignStmt{Lhs: []ast.Expr{v}, Tok: token.DEFINE, Rhs: []ast.Expr{e}, TokPos: e.Pos()},
		&ast.ExprStmt{X: &ast.CallExpr{Fun: runtimeFuncAt(fn, e.Pos()), Args: args, Lparen: e.Pos()}},
	}
}

// rendererMethodsOf lists the renderer methods of e's type, when the check typed e: those of
// a type a cell declared (through one pointer), none for any other. known is false when the
// check did not type e.
func (c *cellCtx) rendererMethodsOf(e ast.Expr) (names []string, known bool) {
	t := c.typeOf(e)
	if t == nil {
		return nil, false
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := t.(*types.Named)
	if !ok || named.Obj().Pkg() == nil || named.Obj().Pkg().Path() != "main" {
		return nil, true
	}
	mset := types.NewMethodSet(types.NewPointer(named))
	for m := range rendererMethods {
		sel := mset.Lookup(nil, m)
		if sel == nil {
			continue
		}
		if sig, ok := sel.Type().(*types.Signature); ok && sig.Params().Len() == 0 && sig.Results().Len() == 1 {
			names = append(names, m)
		}
	}
	return names, true
}

// staticTypeName is the name of the cell-declared type of e (through one pointer), when the
// syntax tells: a variable of that type, a composite literal, a conversion, a call of a cell
// function returning it.
func (c *cellCtx) staticTypeName(e ast.Expr) string {
	switch x := e.(type) {
	case *ast.ParenExpr:
		return c.staticTypeName(x.X)
	case *ast.UnaryExpr:
		if x.Op == token.AND {
			return c.staticTypeName(x.X)
		}
	case *ast.StarExpr:
		return c.staticTypeName(x.X)
	case *ast.CompositeLit:
		if id, ok := x.Type.(*ast.Ident); ok && c.isType(id.Name) {
			return id.Name
		}
	case *ast.Ident:
		if c.isType(x.Name) {
			return x.Name
		}
		if t := c.s.varTypes[x.Name]; t != "" {
			return t
		}
	case *ast.CallExpr:
		if id, ok := x.Fun.(*ast.Ident); ok {
			if c.isType(id.Name) {
				return id.Name
			}
			if f := c.funcDecl(id.Name); f != nil && f.Type.Results != nil && len(f.Type.Results.List) == 1 && len(f.Type.Results.List[0].Names) <= 1 {
				return c.staticTypeName(f.Type.Results.List[0].Type)
			}
		}
	}
	return ""
}

// uncaptureTrailing undoes captureTrailing, for an expression without a value.
func (c *cellCtx) uncaptureTrailing(p *piece) {
	if c.renderedTail > 0 {
		p.body.List = append(p.body.List[:len(p.body.List)-c.renderedTail], &ast.ExprStmt{X: c.trailing})
		c.renderedTail = 0
	} else {
		p.body.List[len(p.body.List)-1].(*ast.ExprStmt).X = c.trailing
	}
	c.trailing = nil
}

func runtimeFunc(name string) ast.Expr {
	return &ast.SelectorExpr{X: ast.NewIdent("__gptnotes"), Sel: ast.NewIdent(name)}
}

// runtimeFuncAt is runtimeFunc positioned in the cell (yaegi finds imports by position).
func runtimeFuncAt(name string, pos token.Pos) ast.Expr {
	return &ast.SelectorExpr{X: &ast.Ident{Name: "__gptnotes", NamePos: pos}, Sel: &ast.Ident{Name: name, NamePos: pos}}
}

// isPrintCall reports calls of fmt.Print*, fmt.Fprint*, log.Print* and the print builtins.
func isPrintCall(e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	switch f := call.Fun.(type) {
	case *ast.Ident:
		return f.Name == "print" || f.Name == "println"
	case *ast.SelectorExpr:
		x, ok := f.X.(*ast.Ident)
		if !ok {
			return false
		}
		switch x.Name {
		case "fmt":
			return strings.HasPrefix(f.Sel.Name, "Print") || strings.HasPrefix(f.Sel.Name, "Fprint")
		case "log":
			return strings.HasPrefix(f.Sel.Name, "Print")
		}
	}
	return false
}

// compileError explains a compile failure: the kernel's diagnosis of a missing Go feature when
// it has one, else yaegi's message (already in cell coordinates).
func (c *cellCtx) compileError(err error) *CellError {
	if e := c.diagnose(err); e != nil {
		return e
	}
	msg := err.Error()
	if _, ok := err.(*compilePanic); ok {
		// yaegi's compile panics ("nil type", index out of range) say nothing to a student.
		msg = c.name + ": the interpreter (yaegi v0.16.1) failed to compile this cell: it could not " +
			"work out a type here, which happens with Go features newer than it (generic code, " +
			"iterators of compiled packages, type assertions to interfaces). Split the cell to find the " +
			"statement, and give it explicit types."
	}
	return compileErrorText(msg)
}

// (fields used by the rewrites)
type rewriteState struct {
	kinds     map[string]valueKind                 // variables the cell declares → kind
	declTypes map[string]ast.Expr                  // variables the cell declares with a type → the type
	tmp       int                                  // counter for fresh names
	newCalls  map[*ast.CallExpr]ast.Expr           // new(expr) calls → expr's type (newValueCalls)
	typeArgs  map[*ast.Ident][]ast.Expr            // generic functions → inferred type arguments
	stores    map[ast.Expr]func(ast.Expr) ast.Expr // values stored in interfaces (interfaceStores)

	assertions map[*ast.TypeAssertExpr]bool  // assertions to a cell's value type → comma-ok (cellAssertions)
	formats    map[*ast.CallExpr]*fmtRewrite // printing calls of %T, %+v, %#v of cell types (findCellFormats)
	rangeFuncs map[*ast.RangeStmt]*rangeFunc // range-over-func loops to write (rangeFuncLoops)

	logCalls    map[*ast.CallExpr]*logCall // calls of log's printing functions (findLogCalls)
	multiValues map[ast.Expr]bool          // values of assignments of several variables (findMultiValues)
}

// mainTypeName is the name of t, or of what t points to, when a cell declared that type.
func mainTypeName(t types.Type) string {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "main" {
		return n.Obj().Name()
	}
	return ""
}

// recordVarTypes remembers the cell-declared type of the globals the cell made (the check's
// types), for completing x's methods and rendering x.
func (c *cellCtx) recordVarTypes() {
	for id, obj := range c.checked.defined {
		c.s.varTypes[id.Name] = mainTypeName(obj.Type())
	}
}
