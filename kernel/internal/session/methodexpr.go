package session

import (
	"fmt"
	"go/ast"
	"go/token"
)

// methodExpr turns T.M or (*T).M, for a method declared in a cell, into
// func(recv T, p0 A, …) R { return recv.M(p0, …) }.
func (c *cellCtx) methodExpr(sel *ast.SelectorExpr) ast.Expr {
	x := sel.X
	ptr := false
	if p, ok := x.(*ast.ParenExpr); ok {
		if st, ok := p.X.(*ast.StarExpr); ok {
			x, ptr = st.X, true
		}
	}
	id, ok := x.(*ast.Ident)
	if !ok || c.kinds[id.Name] != kindUnknown || !c.isType(id.Name) {
		return nil
	}
	m := c.method(id.Name, sel.Sel.Name)
	if m == nil || m.Type.TypeParams != nil {
		return nil
	}
	var recvType ast.Expr = ast.NewIdent(id.Name)
	if ptr {
		recvType = &ast.StarExpr{X: recvType}
	}
	params := []*ast.Field{{Names: []*ast.Ident{ast.NewIdent("__recv")}, Type: recvType}}
	var args []ast.Expr
	ellipsis := token.NoPos
	k := 0
	for _, f := range m.Type.Params.List {
		n := max(1, len(f.Names))
		for j := 0; j < n; j++ {
			name := fmt.Sprintf("__p%d", k)
			k++
			params = append(params, &ast.Field{Names: []*ast.Ident{ast.NewIdent(name)}, Type: f.Type})
			args = append(args, ast.NewIdent(name))
			if _, ok := f.Type.(*ast.Ellipsis); ok {
				ellipsis = sel.Pos()
			}
		}
	}
	var results *ast.FieldList
	if m.Type.Results != nil {
		results = &ast.FieldList{}
		for _, f := range m.Type.Results.List {
			for j := 0; j < max(1, len(f.Names)); j++ {
				results.List = append(results.List, &ast.Field{Type: f.Type})
			}
		}
	}
	call := &ast.CallExpr{Fun: &ast.SelectorExpr{X: ast.NewIdent("__recv"), Sel: ast.NewIdent(sel.Sel.Name)}, Args: args, Ellipsis: ellipsis}
	var body ast.Stmt = &ast.ExprStmt{X: call}
	if results != nil && len(results.List) > 0 {
		body = &ast.ReturnStmt{Results: []ast.Expr{call}}
	}
	return &ast.FuncLit{
		Type: &ast.FuncType{Func: sel.Pos(), Params: &ast.FieldList{List: params}, Results: results},
		Body: &ast.BlockStmt{List: []ast.Stmt{body}},
	}
}

// isType reports whether name is a type declared by a cell (this one or an earlier one).
func (c *cellCtx) isType(name string) bool {
	if _, ok := c.s.types[name]; ok {
		return true
	}
	return c.typeSpec(name) != nil
}

// typeSpec is this cell's declaration of type name, nil if it declares none.
func (c *cellCtx) typeSpec(name string) *ast.TypeSpec {
	for _, p := range c.pieces {
		if p.file == nil {
			continue
		}
		for _, d := range p.file.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				for _, sp := range g.Specs {
					if ts := sp.(*ast.TypeSpec); ts.Name.Name == name {
						return ts
					}
				}
			}
		}
	}
	return nil
}

// method finds the declaration of method name of type t, in this cell or an earlier one.
func (c *cellCtx) method(t, name string) *ast.FuncDecl {
	for _, p := range c.pieces {
		if p.file == nil {
			continue
		}
		for _, d := range p.file.Decls {
			if f, ok := d.(*ast.FuncDecl); ok && f.Recv != nil && f.Name.Name == name && recvTypeName(f.Recv.List[0].Type) == t {
				return f
			}
		}
	}
	return c.s.methods[t][name]
}

// methodExprExpr is the pass's expression step (methodExpr).
func methodExprExpr(c *cellCtx, e ast.Expr) ast.Expr {
	if sel, ok := e.(*ast.SelectorExpr); ok {
		if f := c.methodExpr(sel); f != nil {
			return f
		}
	}
	return e
}
