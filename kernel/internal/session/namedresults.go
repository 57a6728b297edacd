package session

import (
	"go/ast"
	"go/token"
)

// zeroNamedResults starts every function with named results by setting them to their zero
// values (`s = *new(int)`). yaegi v0.16.1 reuses a function's frame when the function is called
// again from the same call site in a loop, so named results start from the previous call's
// values: `func sum(n int) (s int) { for …; s += i }` in a loop returns running totals. It
// also puts the composite literals assigned to named results in parentheses
// (parenResultLiterals).
func zeroNamedResults(_ *cellCtx, root ast.Node) {
	eachFuncBody(root, func(ft *ast.FuncType, body *ast.BlockStmt) {
		if ft.Results == nil {
			return
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
		parenResultLiterals(ft, body)
	})
}

// parenResultLiterals puts parentheses around each composite literal assigned to a named
// result: `p = point{1, 2}` becomes `p = (point{1, 2})`. yaegi v0.16.1 builds a struct literal
// assigned straight to a named result somewhere else, and the function returns the zero value
// (go-cmp's example MakeGatewayInfo returned two empty structs); in parentheses the literal is a
// value that is then assigned. It reports whether it changed anything.
func parenResultLiterals(ft *ast.FuncType, body *ast.BlockStmt) bool {
	names := map[string]bool{}
	for _, f := range ft.Results.List {
		for _, name := range f.Names {
			names[name.Name] = true
		}
	}
	changed := false
	ast.Inspect(body, func(n ast.Node) bool {
		as, ok := n.(*ast.AssignStmt)
		if !ok || as.Tok != token.ASSIGN || len(as.Lhs) != len(as.Rhs) {
			return true
		}
		for i, lhs := range as.Lhs {
			id, ok := lhs.(*ast.Ident)
			if _, lit := as.Rhs[i].(*ast.CompositeLit); ok && lit && names[id.Name] {
				as.Rhs[i] = &ast.ParenExpr{Lparen: as.Rhs[i].Pos(), X: as.Rhs[i], Rparen: as.Rhs[i].End()}
				changed = true
			}
		}
		return true
	})
	return changed
}
