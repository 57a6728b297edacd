package session

import (
	"go/ast"
	"go/token"
	"go/types"
	"strings"
)

// wrappedErrors makes each argument of fmt.Errorf that a %w wraps, when it is of a cell's type
// (not an interface), an error variable first: func() error { var e error = x; return e }().
// yaegi passes such a value to %w in a wrapper that errors.As and errors.Unwrap cannot see into
// (errors.As then says false where Go says true); through an error variable the chain holds.
func (c *cellCtx) wrappedErrors(call *ast.CallExpr) {
	fn := c.callee(call)
	if fn == nil || fn.FullName() != "fmt.Errorf" {
		return
	}
	wrapped := map[ast.Expr]bool{}
	c.verbsWithArgs(call, func(v string, a ast.Expr) {
		if strings.HasSuffix(v, "w") {
			wrapped[a] = true
		}
	})
	for i, a := range call.Args {
		if !wrapped[a] {
			continue
		}
		t := c.typeOf(a)
		if t == nil || types.IsInterface(t) || cellFmtMethod(t) != "Error" {
			continue
		}
		call.Args[i] = errorVar(a)
	}
}

// errorVar writes func() error { var e error = x; return e }().
func errorVar(x ast.Expr) ast.Expr {
	pos := x.Pos()
	e := &ast.Ident{Name: "__gptnotes_err", NamePos: pos}
	decl := &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, TokPos: pos, Specs: []ast.Spec{
		&ast.ValueSpec{Names: []*ast.Ident{e}, Type: &ast.Ident{Name: "error", NamePos: pos}, Values: []ast.Expr{x}}}}}
	return &ast.CallExpr{Fun: &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{},
			Results: &ast.FieldList{List: []*ast.Field{{Type: &ast.Ident{Name: "error", NamePos: pos}}}}},
		Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{decl,
			&ast.ReturnStmt{Return: pos, Results: []ast.Expr{&ast.Ident{Name: e.Name, NamePos: pos}}}}, Rbrace: x.End()},
	}, Lparen: x.End(), Rparen: x.End()}
}

// wrappedErrorsExpr is the pass's expression step (wrappedErrors): it changes the call in place.
func wrappedErrorsExpr(c *cellCtx, e ast.Expr) ast.Expr {
	if call, ok := e.(*ast.CallExpr); ok {
		c.wrappedErrors(call)
	}
	return e
}
