package session

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
)

// newValue reports whether call is new(expr), the universe's new with an expression for operand
// (Go 1.26: a pointer to a new variable holding expr), and gives the type of that variable.
// yaegi v0.16.1 takes the operand for a type and returns a pointer to a zero value, silently.
func (c *cellCtx) newValue(call *ast.CallExpr) (types.Type, bool) {
	if c.checked == nil || len(call.Args) != 1 {
		return nil, false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || c.checked.info.Uses[id] != types.Universe.Lookup("new") {
		return nil, false // not a call of new, or a cell's own new
	}
	if tv, ok := c.checked.info.Types[call.Args[0]]; !ok || tv.IsType() {
		return nil, false
	}
	ptr, ok := c.typeOf(call).(*types.Pointer)
	if !ok {
		return nil, false
	}
	return ptr.Elem(), true
}

// typeExpr is t written as the cell sees it, parsed; nil when it cannot be written: a package
// the cell does not import, or an unexported type of another package (http.NoBody's).
func (c *cellCtx) typeExpr(t types.Type) ast.Expr {
	src := c.newStateVar(t).typeSrc
	if src == "" {
		return nil
	}
	e, err := parser.ParseExprFrom(c.s.fset, scopeFile, src, 0)
	if err != nil {
		return nil
	}
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		if sel, isSel := n.(*ast.SelectorExpr); isSel && !sel.Sel.IsExported() {
			ok = false
		}
		return ok
	})
	if !ok {
		return nil
	}
	return e
}

// newValueCalls finds the cell's new(expr) calls, with the type of expr written out, before the
// rewrites replace expressions (the check's types are by node). One whose type the cell cannot
// write was refused (refuse.go).
func (c *cellCtx) newValueCalls() map[*ast.CallExpr]ast.Expr {
	calls := map[*ast.CallExpr]ast.Expr{}
	for _, p := range c.pieces {
		ast.Inspect(p.root(), func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if t, ok := c.newValue(call); ok {
				if te := c.typeExpr(t); te != nil {
					calls[call] = te
				}
			}
			return true
		})
	}
	return calls
}

// newValueLit writes new(expr) as func() *T { var __newN T = expr; return &__newN }().
func (c *cellCtx) newValueLit(call *ast.CallExpr, t ast.Expr) ast.Expr {
	c.tmp++
	v := fmt.Sprintf("__new%d", c.tmp)
	pos := call.Pos()
	decl := &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, TokPos: pos, Specs: []ast.Spec{
		&ast.ValueSpec{Names: []*ast.Ident{{Name: v, NamePos: pos}}, Type: t, Values: []ast.Expr{call.Args[0]}}}}}
	ret := &ast.ReturnStmt{Return: pos, Results: []ast.Expr{&ast.UnaryExpr{OpPos: pos, Op: token.AND, X: &ast.Ident{Name: v, NamePos: pos}}}}
	return &ast.CallExpr{Fun: &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{},
			Results: &ast.FieldList{List: []*ast.Field{{Type: &ast.StarExpr{Star: pos, X: t}}}}},
		Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{decl, ret}, Rbrace: call.End()},
	}, Lparen: call.End(), Rparen: call.End()}
}

// findNewCalls finds the cell's new(expr) calls and the types to write for them (newValueCalls).
func findNewCalls(c *cellCtx) { c.newCalls = c.newValueCalls() }

// newValueExpr writes each of them as a function literal (newValueLit).
func newValueExpr(c *cellCtx, e ast.Expr) ast.Expr {
	if call, ok := e.(*ast.CallExpr); ok {
		if t, ok := c.newCalls[call]; ok {
			return c.newValueLit(call, t)
		}
	}
	return e
}
