package session

import "go/ast"

// displayArgs makes display.Display(v), v of a cell-declared type with renderer methods, show
// those renderings: compiled code cannot see an interpreted type's methods, so the argument
// becomes func() any { v := expr; return __gptnotes.Rendered(v, "text/html", v.HTML(), …) }().
func (c *cellCtx) displayArgs(call *ast.CallExpr) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Display" || len(call.Args) != 1 {
		return
	}
	if x, ok := sel.X.(*ast.Ident); !ok || c.importPath(x.Name) != "github.com/gptnotes/gptnotes/kernel/display" {
		return
	}
	stmts := c.renderCalls(call.Args[0], "Rendered")
	if stmts == nil {
		return
	}
	ret := &ast.ReturnStmt{Results: []ast.Expr{stmts[1].(*ast.ExprStmt).X}}
	pos := call.Args[0].Pos()
	call.Args[0] = &ast.CallExpr{Fun: &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{},
			Results: &ast.FieldList{List: []*ast.Field{{Type: ast.NewIdent("any")}}}},
		Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{stmts[0], ret}},
	}, Lparen: pos, Rparen: pos}
}

// displayArgsExpr is the pass's expression step (displayArgs): it changes the call in place.
func displayArgsExpr(c *cellCtx, e ast.Expr) ast.Expr {
	if call, ok := e.(*ast.CallExpr); ok {
		c.displayArgs(call)
	}
	return e
}
