package session

import (
	"fmt"
	"go/ast"
	"go/token"
)

// rangeInt turns `for i := range n`, n an integer, into `for i, __n := n-n, n; i < __n; i++`.
// (n-n gives i the type of n, as Go does; a call is not evaluated twice: i is then an int.)
// The type check gives n's kind; a range over anything but an integer is left alone.
func (c *cellCtx) rangeInt(s *ast.RangeStmt) ast.Stmt {
	if s.Value != nil || (s.Key != nil && s.Tok != token.DEFINE) {
		return nil
	}
	if c.kindOf(s.X) != kindInt {
		return nil
	}
	key := "__i"
	if id, ok := s.Key.(*ast.Ident); ok && id.Name != "_" {
		key = id.Name
	}
	c.tmp++
	n := fmt.Sprintf("__n%d", c.tmp)
	var zero ast.Expr = &ast.BasicLit{Kind: token.INT, Value: "0"}
	switch s.X.(type) {
	case *ast.Ident, *ast.SelectorExpr, *ast.BasicLit:
		zero = &ast.BinaryExpr{X: s.X, Op: token.SUB, Y: s.X}
	}
	return &ast.ForStmt{
		For: s.For,
		Init: &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent(key), ast.NewIdent(n)}, Tok: token.DEFINE,
			Rhs: []ast.Expr{zero, s.X}, TokPos: s.TokPos},
		Cond: &ast.BinaryExpr{X: ast.NewIdent(key), Op: token.LSS, Y: ast.NewIdent(n)},
		Post: &ast.IncDecStmt{X: ast.NewIdent(key), Tok: token.INC},
		Body: s.Body,
	}
}

// rangeIntStmt is the pass's statement step (rangeInt).
func rangeIntStmt(c *cellCtx, s ast.Stmt) ast.Stmt {
	if r, ok := s.(*ast.RangeStmt); ok {
		if f := c.rangeInt(r); f != nil {
			return f
		}
	}
	return s
}
