package session

import (
	"fmt"
	"go/ast"
	"go/token"
)

// typeSwitchBinding rewrites `switch x := v.(type) { case T: … case A, B: … }`, which yaegi
// v0.16.1 gets wrong (no case matches a type with methods; in the global scope it does not
// compile), into
//
//	switch __ts := v; __ts.(type) { case T: x := __ts.(T); … case A, B: x := __ts; … }
//
// which it runs correctly. It returns nil for a switch without a binding.
func (c *cellCtx) typeSwitchBinding(s *ast.TypeSwitchStmt) ast.Stmt {
	a, ok := s.Assign.(*ast.AssignStmt)
	if !ok || len(a.Lhs) != 1 || len(a.Rhs) != 1 {
		return nil
	}
	x, ok1 := a.Lhs[0].(*ast.Ident)
	ta, ok2 := a.Rhs[0].(*ast.TypeAssertExpr)
	if !ok1 || !ok2 {
		return nil
	}
	c.tmp++
	ts := fmt.Sprintf("__ts%d", c.tmp)
	for _, cc := range s.Body.List {
		cc := cc.(*ast.CaseClause)
		var val ast.Expr = ast.NewIdent(ts)
		if len(cc.List) == 1 {
			if id, isNil := cc.List[0].(*ast.Ident); !isNil || id.Name != "nil" {
				val = &ast.TypeAssertExpr{X: ast.NewIdent(ts), Type: cc.List[0]}
			}
		}
		bind := []ast.Stmt{
			&ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent(x.Name)}, Tok: token.DEFINE, Rhs: []ast.Expr{val}, TokPos: a.TokPos},
			&ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent("_")}, Tok: token.ASSIGN, Rhs: []ast.Expr{ast.NewIdent(x.Name)}},
		}
		cc.Body = append(bind, cc.Body...)
	}
	init := &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent(ts)}, Tok: token.DEFINE, Rhs: []ast.Expr{ta.X}, TokPos: a.TokPos}
	out := &ast.TypeSwitchStmt{Switch: s.Switch, Init: init,
		Assign: &ast.ExprStmt{X: &ast.TypeAssertExpr{X: ast.NewIdent(ts), Lparen: ta.Lparen, Rparen: ta.Rparen}},
		Body:   s.Body}
	if s.Init == nil {
		return out
	}
	return &ast.BlockStmt{List: []ast.Stmt{s.Init, out}}
}

// typeSwitchBindingStmt is the pass's statement step (typeSwitchBinding).
func typeSwitchBindingStmt(c *cellCtx, s ast.Stmt) ast.Stmt {
	if ts, ok := s.(*ast.TypeSwitchStmt); ok {
		if st := c.typeSwitchBinding(ts); st != nil {
			return st
		}
	}
	return s
}
