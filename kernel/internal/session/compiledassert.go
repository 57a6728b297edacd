package session

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sync"
)

// Assertions from a compiled interface to a module's interface: yaegi v0.16.1 holds a module's
// value in an error (or another interface of a compiled package) inside a wrapper of its own,
// and asserting that to an interface the module declares answers no where Go answers yes:
// pkg/errors' Cause asserts an error to its `causer` and returned the error unchanged. An
// assertion to one of the module's concrete types is answered right, so the kernel asks for
// each of the package's types that implements the interface first:
//
//	cause, ok := err.(causer)
//
// becomes
//
//	cause, ok := func() (causer, bool) {
//		__ma1 := err
//		if __v, __ok := __ma1.(*withStack); __ok { return __v, true }
//		if __v, __ok := __ma1.(*withMessage); __ok { return __v, true }
//		__v, __ok := __ma1.(causer)
//		return __v, __ok
//	}()
//
// (a single-value assertion returns __ma1.(causer) last, which panics as before). A value of a
// type of another package (a cell's, another module's) that implements the interface is still
// answered no: a cell handing one to such a package is refused (compiledAssertionCellType).
// A type switch case to such an interface is refused (modulerefuse.go).

// assertedInterfaces maps a module package's import path to the interfaces its rewritten
// assertions ask for.
var assertedInterfaces struct {
	sync.Mutex
	of map[string][]*types.Interface
}

// compiledAssertions is the module step: it writes each assertion of f from a compiled
// interface to an interface of the module (sourceToInterface) as the literal above.
func compiledAssertions(path string, _ *token.FileSet, f *ast.File, info *types.Info) bool {
	var cands []*types.Named
	scope := moduleScope(f, info)
	if scope == nil {
		return false
	}
	for _, name := range scope.Names() {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		if n, ok := tn.Type().(*types.Named); ok && n.TypeParams().Len() == 0 && !types.IsInterface(n) {
			cands = append(cands, n)
		}
	}
	commaOK := map[ast.Expr]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if len(n.Lhs) == 2 && len(n.Rhs) == 1 {
				commaOK[ast.Unparen(n.Rhs[0])] = true
			}
		case *ast.ValueSpec:
			if len(n.Names) == 2 && len(n.Values) == 1 {
				commaOK[ast.Unparen(n.Values[0])] = true
			}
		}
		return true
	})
	count := 0
	replace := func(e ast.Expr) ast.Expr {
		a, ok := e.(*ast.TypeAssertExpr)
		if !ok || a.Type == nil {
			return e
		}
		iface, ok := sourceToInterface(path, info, a)
		if !ok {
			return e
		}
		assertedInterfaces.Lock()
		if assertedInterfaces.of == nil {
			assertedInterfaces.of = map[string][]*types.Interface{}
		}
		if !slices.ContainsFunc(assertedInterfaces.of[path], func(it *types.Interface) bool { return types.Identical(it, iface) }) {
			assertedInterfaces.of[path] = append(assertedInterfaces.of[path], iface) // once, for every session
		}
		assertedInterfaces.Unlock()
		count++
		return compiledAssertionLit(a, iface, cands, commaOK[a], count)
	}
	replaceExprs(f, replace)
	return count > 0
}

// moduleScope is the package scope of f's package, from the check's objects.
func moduleScope(f *ast.File, info *types.Info) *types.Scope {
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if obj := info.Defs[d.Name]; obj != nil && obj.Pkg() != nil {
				return obj.Pkg().Scope()
			}
		case *ast.GenDecl:
			for _, sp := range d.Specs {
				var id *ast.Ident
				switch sp := sp.(type) {
				case *ast.TypeSpec:
					id = sp.Name
				case *ast.ValueSpec:
					id = sp.Names[0]
				}
				if id != nil {
					if obj := info.Defs[id]; obj != nil && obj.Pkg() != nil {
						return obj.Pkg().Scope()
					}
				}
			}
		}
	}
	return nil
}

// sourceToInterface reports whether a asserts from a value of a compiled package's interface
// type (error, any, io.Reader) to an interface the module declares, or an interface literal
// with methods, and gives that interface.
func sourceToInterface(path string, info *types.Info, a *ast.TypeAssertExpr) (*types.Interface, bool) {
	from := typeOfExpr(info, a.X)
	to := typeOfExpr(info, a.Type)
	if from == nil || to == nil || !types.IsInterface(from) || !types.IsInterface(to) {
		return nil, false
	}
	if n, ok := types.Unalias(from).(*types.Named); ok && n.Obj().Pkg() != nil && isSourcePackage(n.Obj().Pkg().Path(), path) {
		return nil, false // a module's own interface: yaegi keeps the value's type
	}
	it := to.Underlying().(*types.Interface)
	if n, ok := types.Unalias(to).(*types.Named); ok {
		return it, n.Obj().Pkg() != nil && isSourcePackage(n.Obj().Pkg().Path(), path)
	}
	return it, !it.Empty()
}

// compiledAssertionLit is the literal for assertion a (n numbers its names).
func compiledAssertionLit(a *ast.TypeAssertExpr, iface *types.Interface, cands []*types.Named, commaOK bool, n int) ast.Expr {
	pos := a.Pos()
	subject := fmt.Sprintf("__ma%d", n)
	id := ast.NewIdent
	body := []ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{id(subject)}, TokPos: pos, Tok: token.DEFINE, Rhs: []ast.Expr{a.X}}}
	hit := func() []ast.Expr {
		if commaOK {
			return []ast.Expr{id("__v"), id("true")}
		}
		return []ast.Expr{id("__v")}
	}
	for _, c := range cands {
		for _, t := range []types.Type{c, types.NewPointer(c)} {
			if !types.Implements(t, iface) {
				continue
			}
			var te ast.Expr = id(c.Obj().Name())
			if _, ptr := t.(*types.Pointer); ptr {
				te = &ast.StarExpr{X: te}
			}
			body = append(body, &ast.IfStmt{If: pos,
				Init: &ast.AssignStmt{Lhs: []ast.Expr{id("__v"), id("__ok")}, Tok: token.DEFINE,
					Rhs: []ast.Expr{&ast.TypeAssertExpr{X: id(subject), Type: te}}},
				Cond: id("__ok"),
				Body: &ast.BlockStmt{List: []ast.Stmt{&ast.ReturnStmt{Return: pos, Results: hit()}}},
			})
		}
	}
	last := &ast.TypeAssertExpr{X: id(subject), Type: a.Type}
	results := []*ast.Field{{Type: a.Type}}
	if commaOK {
		body = append(body,
			&ast.AssignStmt{Lhs: []ast.Expr{id("__v"), id("__ok")}, Tok: token.DEFINE, Rhs: []ast.Expr{last}},
			&ast.ReturnStmt{Return: pos, Results: []ast.Expr{id("__v"), id("__ok")}})
		results = append(results, &ast.Field{Type: id("bool")})
	} else {
		body = append(body, &ast.ReturnStmt{Return: pos, Results: []ast.Expr{last}})
	}
	return &ast.CallExpr{Fun: &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{}, Results: &ast.FieldList{List: results}},
		Body: &ast.BlockStmt{Lbrace: pos, List: body, Rbrace: a.End()},
	}, Lparen: a.End(), Rparen: a.End()}
}

// compiledAssertionCellType finds a call of a function or method of a module package whose
// assertions this pass wrote, while a cell's type implements one of the interfaces they ask for,
// with an argument that may hold it (its type mentions a cell's type, or is an interface): the
// module would answer no for it. It returns the function's name and the cell's type, "" when
// there is none.
func (c *cellCtx) compiledAssertionCellType(call *ast.CallExpr) (fn, typ string) {
	f := c.callee(call)
	if f == nil || f.Pkg() == nil || f.Pkg().Path() == "main" || c.checked == nil || c.checked.pkg == nil {
		return "", ""
	}
	assertedInterfaces.Lock()
	ifaces := assertedInterfaces.of[f.Pkg().Path()]
	assertedInterfaces.Unlock()
	if len(ifaces) == 0 {
		return "", ""
	}
	mayHold := false
	for _, a := range call.Args {
		if t := c.typeOf(a); t != nil && (types.IsInterface(t) || mentionsCellTypeDeep(t)) {
			mayHold = true
		}
	}
	if !mayHold {
		return "", ""
	}
	for _, n := range c.cellStructs() {
		if !interpretedType(n) || n.Obj().Pkg().Path() != "main" {
			continue
		}
		for _, it := range ifaces {
			if types.Implements(n, it) || types.Implements(types.NewPointer(n), it) {
				return funcName(f), types.TypeString(n, cellQualifier)
			}
		}
	}
	return "", ""
}
