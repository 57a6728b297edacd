package session

import (
	"go/ast"
	"go/types"
)

// A rewrite for a fault of yaegi v0.16.1 that gives a wrong answer without an error: a method
// value with a value receiver (f := r.perim) does not copy its receiver when it is evaluated,
// as Go does, so f() sees later changes of r. A method value made by a call that takes the
// receiver as a parameter has its own copy:
//
//	f := r.perim   →   f := func(__recv rect) func() int { return __recv.perim }(r)
//
// Only a cell's types with value receivers need it; a method value that is called where it
// stands (r.perim()) is left alone, and so is one among the values of a parallel
// assignment, where the interpreter fails on the call (see methodValues).

// methodValues applies the rewrite under root.
func (c *cellCtx) methodValues(root ast.Node) {
	if c.checked == nil {
		return
	}
	// Left alone: a method value called where it stands, and one among the values of a
	// parallel assignment (yaegi calls a nil function for `f, g = func(…){…}(r), r.area`).
	called := map[*ast.SelectorExpr]bool{}
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
				called[sel] = true
			}
		case *ast.AssignStmt:
			if len(n.Rhs) > 1 {
				for _, r := range n.Rhs {
					if sel, ok := r.(*ast.SelectorExpr); ok {
						called[sel] = true
					}
				}
			}
		}
		return true
	})
	replaceExprs(root, func(e ast.Expr) ast.Expr {
		sel, ok := e.(*ast.SelectorExpr)
		if !ok || called[sel] {
			return e
		}
		if bound := c.boundMethodValue(sel); bound != nil {
			return bound
		}
		return e
	})
}

// boundMethodValue is sel made by a call that copies its receiver, or nil when sel is not a
// method value of a cell's type with a value receiver, or a type cannot be written.
func (c *cellCtx) boundMethodValue(sel *ast.SelectorExpr) ast.Expr {
	s := c.checked.info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal {
		return nil
	}
	fn, ok := s.Obj().(*types.Func)
	if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "main" {
		return nil
	}
	recv := fn.Signature().Recv().Type()
	if _, isPtr := recv.(*types.Pointer); isPtr || types.IsInterface(recv) || len(s.Index()) != 1 {
		return nil // a pointer receiver shares its variable in Go too; embedded methods: left alone
	}
	recvType, sigType := c.typeExpr(recv), c.typeExpr(s.Type())
	if recvType == nil || sigType == nil {
		return nil
	}
	var arg ast.Expr = sel.X
	if _, isPtr := s.Recv().(*types.Pointer); isPtr {
		arg = &ast.StarExpr{Star: sel.X.Pos(), X: sel.X} // Go copies *p for a value receiver
	}
	pos := sel.Pos()
	recvName := &ast.Ident{Name: "__recv", NamePos: pos}
	maker := &ast.FuncLit{
		Type: &ast.FuncType{Func: pos,
			Params:  &ast.FieldList{List: []*ast.Field{{Names: []*ast.Ident{recvName}, Type: recvType}}},
			Results: &ast.FieldList{List: []*ast.Field{{Type: sigType}}}},
		Body: &ast.BlockStmt{Lbrace: pos, Rbrace: sel.End(), List: []ast.Stmt{&ast.ReturnStmt{Return: pos,
			Results: []ast.Expr{&ast.SelectorExpr{X: &ast.Ident{Name: "__recv", NamePos: pos}, Sel: ast.NewIdent(sel.Sel.Name)}}}}},
	}
	return &ast.CallExpr{Fun: maker, Lparen: sel.End(), Args: []ast.Expr{arg}, Rparen: sel.End()}
}
