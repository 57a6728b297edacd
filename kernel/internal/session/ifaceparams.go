package session

import (
	"go/ast"
	"go/token"
	"go/types"
)

// Interface parameters given a call's result: yaegi v0.16.1 passes the interface value a call
// returns, as the argument of a parameter of a non-empty interface type (f(g()) with g returning
// an Option), still wrapped as the call left it, and an assertion on the parameter to a struct
// type of the package answers no (go-cmp's FilterValues(f, Comparer(g)) lost its comparer, and
// cmp.Equal said false where Go says true); a type switch on it falls to default, and a
// single-value assertion panics with "interface {} is interp.valueInterface". Assigning the
// parameter to itself unwraps it, so each function of a module package with such a parameter
// starts with that assignment (a variadic parameter of such a type, each of its elements:
// `for __i := range opts { opts[__i] = opts[__i] }`, which writes each element back to the
// slice it came in):
//
//	func IsValidator(o Option) bool { _, ok := o.(validator); return ok }
//
// becomes
//
//	func IsValidator(o Option) bool { o = o; _, ok := o.(validator); return ok }
//
// A cell's assertions to its own types go through a copy already (cellassert.go).

// unwrapInterfaceParams is the module step: it reports whether it changed the file.
func unwrapInterfaceParams(_ string, _ *token.FileSet, f *ast.File, info *types.Info) bool {
	changed := false
	eachFuncBody(f, func(ft *ast.FuncType, body *ast.BlockStmt) {
		if ft.Params == nil {
			return
		}
		var self []ast.Stmt
		for i, p := range ft.Params.List {
			ell, variadic := p.Type.(*ast.Ellipsis)
			variadic = variadic && i == len(ft.Params.List)-1
			var t types.Type
			if variadic {
				t = typeOfExpr(info, ell.Elt)
			} else {
				t = typeOfExpr(info, p.Type)
			}
			if t == nil || !types.IsInterface(t) || t.Underlying().(*types.Interface).Empty() {
				continue
			}
			if _, isParam := types.Unalias(t).(*types.TypeParam); isParam {
				continue
			}
			for _, name := range p.Names {
				if name.Name == "_" {
					continue
				}
				if variadic { // for __i := range opts { opts[__i] = opts[__i] }
					elem := func() ast.Expr { return &ast.IndexExpr{X: ast.NewIdent(name.Name), Index: ast.NewIdent("__i")} }
					self = append(self, &ast.RangeStmt{For: body.Lbrace, Key: ast.NewIdent("__i"), Tok: token.DEFINE, X: ast.NewIdent(name.Name),
						Body: &ast.BlockStmt{List: []ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{elem()}, Tok: token.ASSIGN, Rhs: []ast.Expr{elem()}}}}})
					continue
				}
				self = append(self, &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent(name.Name)}, TokPos: body.Lbrace, Tok: token.ASSIGN,
					Rhs: []ast.Expr{ast.NewIdent(name.Name)}})
			}
		}
		if len(self) > 0 {
			body.List = append(self, body.List...)
			changed = true
		}
	})
	return changed
}
