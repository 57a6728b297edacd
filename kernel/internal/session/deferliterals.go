package session

import (
	"fmt"
	"go/ast"
	"go/token"
)

// deferredLiterals rewrites `defer func() { … }()` in a loop body, when the literal reads the
// loop's variables, into `{ __deferN := func() { … }; defer __deferN() }`. yaegi v0.16.1 makes a
// deferred literal only when the deferred calls run, with the last iteration's variables (2 2 2
// where Go prints 2 1 0); a function value made in its iteration keeps them (closuresInLoops).
// Its arguments are bound at the defer statement (stmts).
func (c *cellCtx) deferredLiterals(root ast.Node) {
	if c.checked == nil {
		return
	}
	forEachLoop(root, func(loop ast.Node, body *ast.BlockStmt) {
		ast.Inspect(body, func(m ast.Node) bool {
			var list []ast.Stmt
			switch b := m.(type) {
			case *ast.FuncLit:
				return false // its defers run when it returns, in the iteration
			case *ast.BlockStmt:
				list = b.List
			case *ast.CaseClause:
				list = b.Body
			case *ast.CommClause:
				list = b.Body
			}
			for i, st := range list {
				d, ok := st.(*ast.DeferStmt)
				if !ok {
					continue
				}
				lit, ok := d.Call.Fun.(*ast.FuncLit)
				if !ok || len(c.loopVarsRead(loop, lit)) == 0 {
					continue
				}
				c.tmp++
				name := fmt.Sprintf("__defer%d", c.tmp)
				list[i] = &ast.BlockStmt{Lbrace: d.Pos(), Rbrace: d.End(), List: []ast.Stmt{
					&ast.AssignStmt{Lhs: []ast.Expr{&ast.Ident{Name: name, NamePos: d.Pos()}}, Tok: token.DEFINE,
						TokPos: d.Pos(), Rhs: []ast.Expr{lit}},
					&ast.DeferStmt{Defer: d.Defer, Call: &ast.CallExpr{Fun: &ast.Ident{Name: name, NamePos: d.Pos()},
						Lparen: d.Call.Lparen, Args: d.Call.Args, Ellipsis: d.Call.Ellipsis, Rparen: d.Call.Rparen}},
				}}
			}
			return true
		})
	})
}
