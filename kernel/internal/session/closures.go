package session

import (
	"go/ast"
	"go/parser"
	"go/types"
)

// A rewrite for a fault of yaegi v0.16.1 that prints a wrong answer without an error: a
// function literal made in a loop and handed to compiled code (wg.Go, time.AfterFunc,
// http.HandlerFunc, sort.Slice) sees the variables of the loop's last iteration, even with
// Go 1.22's per-iteration loop variables and even with `j := i` in the body. The interpreter
// keeps them in one frame, which every iteration reuses. A literal made by a call gets a frame
// of its own, so
//
//	for i := 1; i <= 3; i++ { wg.Go(func() { use(i) }) }
//
// becomes
//
//	for i := 1; i <= 3; i++ { wg.Go(func(i int) func() { return func() { use(i) } }(i)) }
//
// for the variables a literal reads that belong to one iteration (declared in the loop, outside
// the literal). A literal that assigns such a variable is left alone: a copy would not carry the
// assignment back.

// closuresInLoops applies the rewrite to every loop under root, outermost first.
func (c *cellCtx) closuresInLoops(root ast.Node) {
	if c.checked == nil {
		return
	}
	// A literal called where it stands (func() {…}(), go and defer too) runs, or has its
	// goroutine started, in its iteration: nothing to do (goStmt binds what go needs).
	done := map[*ast.FuncLit]bool{}
	ast.Inspect(root, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			if lit, ok := call.Fun.(*ast.FuncLit); ok {
				done[lit] = true
			}
		}
		return true
	})
	forEachLoop(root, func(loop ast.Node, body *ast.BlockStmt) {
		replaceExprs(body, func(e ast.Expr) ast.Expr {
			lit, ok := e.(*ast.FuncLit)
			if !ok || done[lit] || insideLiteral(body, lit) {
				return e
			}
			done[lit] = true
			if call := c.ownFrame(loop, lit); call != nil {
				return call
			}
			return e
		})
	})
}

// forEachLoop calls f with every for and range statement under root and its body, outermost
// first.
func forEachLoop(root ast.Node, f func(loop ast.Node, body *ast.BlockStmt)) {
	ast.Inspect(root, func(n ast.Node) bool {
		switch l := n.(type) {
		case *ast.ForStmt:
			f(l, l.Body)
		case *ast.RangeStmt:
			f(l, l.Body)
		}
		return true
	})
}

// insideLiteral reports whether lit is nested in another function literal under body.
func insideLiteral(body ast.Node, lit *ast.FuncLit) bool {
	nested := false
	ast.Inspect(body, func(n ast.Node) bool {
		if nested {
			return false
		}
		if outer, ok := n.(*ast.FuncLit); ok && outer != lit {
			ast.Inspect(outer.Body, func(m ast.Node) bool {
				if m == lit {
					nested = true
				}
				return !nested
			})
			return false
		}
		return true
	})
	return nested
}

// ownFrame is lit made by a call that takes the iteration's variables it reads, or nil when it
// reads none, assigns one, or one's type cannot be written.
func (c *cellCtx) ownFrame(loop ast.Node, lit *ast.FuncLit) ast.Expr {
	var vars []*types.Var
	seen := map[*types.Var]bool{}
	ast.Inspect(lit.Body, func(n ast.Node) bool {
		id, ok := n.(*ast.Ident)
		if !ok {
			return true
		}
		v, ok := c.checked.info.Uses[id].(*types.Var)
		if !ok || v.IsField() || seen[v] {
			return true
		}
		if v.Pos() >= loop.Pos() && v.Pos() < loop.End() && (v.Pos() < lit.Pos() || v.Pos() >= lit.End()) {
			seen[v] = true
			vars = append(vars, v)
		}
		return true
	})
	if len(vars) == 0 {
		return nil
	}
	params := &ast.FieldList{}
	var args []ast.Expr
	for _, v := range vars {
		if assigns(lit.Body, v.Name()) {
			return nil
		}
		t := c.newStateVar(v.Type()).typeSrc
		if t == "" {
			return nil
		}
		te, err := parseTypeExpr(c, t)
		if err != nil {
			return nil
		}
		params.List = append(params.List, &ast.Field{Names: []*ast.Ident{ast.NewIdent(v.Name())}, Type: te})
		args = append(args, &ast.Ident{Name: v.Name(), NamePos: lit.Pos()})
	}
	pos := lit.Pos()
	maker := &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: params,
			Results: &ast.FieldList{List: []*ast.Field{{Type: lit.Type}}}},
		Body: &ast.BlockStmt{Lbrace: pos, Rbrace: lit.End(),
			List: []ast.Stmt{&ast.ReturnStmt{Return: pos, Results: []ast.Expr{lit}}}},
	}
	return &ast.CallExpr{Fun: maker, Lparen: lit.End(), Args: args, Rparen: lit.End()}
}

// parseTypeExpr parses a type written by newStateVar, positioned in the cell's file (where
// the interpreter finds the imports it names).
func parseTypeExpr(c *cellCtx, src string) (ast.Expr, error) {
	return parser.ParseExprFrom(c.s.fset, scopeFile, src, 0)
}
