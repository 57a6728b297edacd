package session

import (
	"go/ast"
	"go/token"
)

// zeroNamedResults starts every function with named results by setting them to their zero
// values (`s = *new(int)`). yaegi v0.16.1 reuses a function's frame when the function is called
// again from the same call site in a loop, so named results start from the previous call's
// values: `func sum(n int) (s int) { for …; s += i }` in a loop returns running totals.
func zeroNamedResults(_ *cellCtx, root ast.Node) {
	ast.Inspect(root, func(n ast.Node) bool {
		var ft *ast.FuncType
		var body *ast.BlockStmt
		switch n := n.(type) {
		case *ast.FuncDecl:
			ft, body = n.Type, n.Body
		case *ast.FuncLit:
			ft, body = n.Type, n.Body
		}
		if ft == nil || body == nil || ft.Results == nil {
			return true
		}
		var zero []ast.Stmt
		for _, f := range ft.Results.List {
			for _, name := range f.Names {
				if name.Name == "_" {
					continue
				}
				zero = append(zero, &ast.AssignStmt{
					Lhs: []ast.Expr{ast.NewIdent(name.Name)}, Tok: token.ASSIGN, TokPos: body.Lbrace,
					Rhs: []ast.Expr{&ast.StarExpr{X: &ast.CallExpr{Fun: ast.NewIdent("new"), Args: []ast.Expr{f.Type}}}},
				})
			}
		}
		body.List = append(zero, body.List...)
		return true
	})
}
