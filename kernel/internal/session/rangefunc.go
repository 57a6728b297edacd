package session

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// Range over a function (Go 1.23 iterators), which yaegi v0.16.1 does not know, written as the
// compiler writes it: the loop's body becomes the yield callback. So, in a function returning
// an int,
//
//	for k, v := range pairs {
//		if v < 0 { continue }
//		if v > 9 { break }
//		if k == "x" { return v }
//		use(k, v)
//	}
//
// becomes
//
//	{
//		var __rf1 bool // the body returned
//		var __rf1_0 int
//		pairs(func(k string, v int) bool {
//			if v < 0 { return true }
//			if v > 9 { return false }
//			if k == "x" { { __rf1_0 = v; __rf1 = true; return false } }
//			use(k, v)
//			return true
//		})
//		if __rf1 { return __rf1_0 }
//	}
//
// Each call of yield gets its own k and v, as Go 1.22's loops do. A loop whose body jumps
// elsewhere (goto, a labeled break or continue), defers, or returns outside a function (a
// cell's top level) stays refused (rangeOverFunc), as does package iter, whose generic types
// yaegi cannot take from compiled code.

// A rangeFunc is what the rewrite needs of one range-over-func loop.
type rangeFunc struct {
	params  []ast.Expr    // the yield callback's parameter types, written as the cell sees them
	results []types.Type  // the enclosing function's result types, when the body returns
	named   []*ast.Ident  // its named results, if it names them
	returns bool          // the body returns from the enclosing function
	fn      *ast.FuncType // the enclosing function, nil at a cell's top level
}

// rangeFuncLoops finds the cell's range-over-func loops the rewrite can write (rangeFuncLoop),
// before the rewrites replace the statements (the check's types are by node).
func (c *cellCtx) rangeFuncLoops() map[*ast.RangeStmt]*rangeFunc {
	loops := map[*ast.RangeStmt]*rangeFunc{}
	if c.checked == nil {
		return loops
	}
	var fns []*ast.FuncType // the enclosing functions, innermost last
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			fns = append(fns, n.Type)
			if n.Body != nil {
				ast.Inspect(n.Body, visit)
			}
			fns = fns[:len(fns)-1]
			return false
		case *ast.FuncLit:
			fns = append(fns, n.Type)
			ast.Inspect(n.Body, visit)
			fns = fns[:len(fns)-1]
			return false
		case *ast.RangeStmt:
			var fn *ast.FuncType
			if len(fns) > 0 {
				fn = fns[len(fns)-1]
			}
			if rf := c.rangeFuncOf(n, fn); rf != nil {
				loops[n] = rf
			}
		}
		return true
	}
	for _, p := range c.pieces {
		ast.Inspect(p.root(), visit)
	}
	return loops
}

// rangeFuncOf is what the rewrite needs of n, nil when n does not range over a function or the
// rewrite cannot write it.
func (c *cellCtx) rangeFuncOf(n *ast.RangeStmt, fn *ast.FuncType) *rangeFunc {
	t := c.typeOf(n.X)
	if t == nil {
		return nil
	}
	sig, ok := t.Underlying().(*types.Signature)
	if !ok || sig.Params().Len() != 1 || sig.Results().Len() != 0 {
		return nil
	}
	yield, ok := sig.Params().At(0).Type().Underlying().(*types.Signature)
	if !ok || n.Tok == token.ASSIGN {
		return nil
	}
	rf := &rangeFunc{fn: fn}
	for i := range yield.Params().Len() {
		te := c.typeExprAt(yield.Params().At(i).Type(), n.For)
		if te == nil {
			return nil
		}
		rf.params = append(rf.params, te)
	}
	if !bodyStaysInLoop(n.Body, &rf.returns) {
		return nil
	}
	if rf.returns {
		if fn == nil {
			return nil
		}
		if fn.Results != nil {
			for _, f := range fn.Results.List {
				ft := c.typeOf(f.Type)
				if ft == nil {
					return nil
				}
				if len(f.Names) == 0 {
					rf.results = append(rf.results, ft)
				}
				for _, name := range f.Names {
					rf.results = append(rf.results, ft)
					rf.named = append(rf.named, name)
				}
			}
		}
		for _, r := range rf.results {
			if c.typeExprAt(r, n.For) == nil {
				return nil
			}
		}
	}
	return rf
}

// bodyStaysInLoop reports whether body leaves the loop only by break, continue and return
// (set in returns): no goto, labeled jump, fallthrough out of it, or defer, outside function
// literals.
func bodyStaysInLoop(body *ast.BlockStmt, returns *bool) bool {
	ok := true
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BranchStmt:
			if n.Tok == token.GOTO || n.Label != nil {
				ok = false
			}
		case *ast.DeferStmt:
			ok = false
		case *ast.ReturnStmt:
			*returns = true
		}
		return ok
	})
	return ok
}

// rangeFuncLoop writes n as the yield callback's call (see the file's comment).
func (c *cellCtx) rangeFuncLoop(n *ast.RangeStmt, rf *rangeFunc) ast.Stmt {
	pos := n.For
	c.tmp++
	done := fmt.Sprintf("__rf%d", c.tmp)
	result := func(i int) string { return fmt.Sprintf("%s_%d", done, i) }
	ident := func(name string) *ast.Ident { return &ast.Ident{Name: name, NamePos: pos} }
	boolLit := func(b bool) ast.Expr { return ident(fmt.Sprint(b)) }

	// The body: return ends the callback and the function, continue and break the callback
	// (in this order: the callback's own returns are not the function's).
	body := n.Body
	ours := map[*ast.ReturnStmt]bool{}
	if rf.returns {
		replaceReturns(body, ours, func(r *ast.ReturnStmt) ast.Stmt {
			var list []ast.Stmt
			if len(r.Results) > 0 {
				var lhs []ast.Expr
				for i := range rf.results {
					if rf.named != nil {
						lhs = append(lhs, ident(rf.named[i].Name))
					} else {
						lhs = append(lhs, ident(result(i)))
					}
				}
				list = append(list, &ast.AssignStmt{Lhs: lhs, TokPos: r.Pos(), Tok: token.ASSIGN, Rhs: r.Results})
			}
			stop := &ast.ReturnStmt{Return: r.Pos(), Results: []ast.Expr{boolLit(false)}}
			ours[stop] = true
			list = append(list,
				&ast.AssignStmt{Lhs: []ast.Expr{ident(done)}, TokPos: r.Pos(), Tok: token.ASSIGN, Rhs: []ast.Expr{boolLit(true)}},
				stop)
			return &ast.BlockStmt{Lbrace: r.Pos(), List: list, Rbrace: r.End()}
		})
	}
	findJumps(body.List, true, true, func(list []ast.Stmt, i int, b *ast.BranchStmt) {
		list[i] = &ast.ReturnStmt{Return: b.Pos(), Results: []ast.Expr{boolLit(b.Tok == token.CONTINUE)}}
	})
	cb := append(append([]ast.Stmt{}, body.List...), &ast.ReturnStmt{Return: body.Rbrace, Results: []ast.Expr{boolLit(true)}})

	// The callback's parameters: the loop's variables, _ for those it leaves out.
	vars := []ast.Expr{n.Key, n.Value}
	var params []*ast.Field
	for i, t := range rf.params {
		name := "_"
		if i < len(vars) && vars[i] != nil {
			if id, ok := vars[i].(*ast.Ident); ok {
				name = id.Name
			}
		}
		params = append(params, &ast.Field{Names: []*ast.Ident{ident(name)}, Type: t})
	}
	call := &ast.ExprStmt{X: &ast.CallExpr{Fun: n.X, Lparen: pos, Rparen: n.End(), Args: []ast.Expr{&ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{List: params},
			Results: &ast.FieldList{List: []*ast.Field{{Type: ident("bool")}}}},
		Body: &ast.BlockStmt{Lbrace: body.Lbrace, List: cb, Rbrace: body.Rbrace},
	}}}}
	if !rf.returns {
		return &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{call}, Rbrace: n.End()}
	}

	// The flag and the results the body returns, and the return after the call.
	list := []ast.Stmt{&ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, TokPos: pos, Specs: []ast.Spec{
		&ast.ValueSpec{Names: []*ast.Ident{ident(done)}, Type: ident("bool")}}}}}
	var results []ast.Expr
	if rf.named == nil {
		for i, t := range rf.results {
			list = append(list, &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, TokPos: pos, Specs: []ast.Spec{
				&ast.ValueSpec{Names: []*ast.Ident{ident(result(i))}, Type: c.typeExprAt(t, pos)}}}})
			results = append(results, ident(result(i)))
		}
	}
	list = append(list, call, &ast.IfStmt{If: pos, Cond: ident(done), Body: &ast.BlockStmt{Lbrace: pos,
		List: []ast.Stmt{&ast.ReturnStmt{Return: pos, Results: results}}, Rbrace: pos}})
	return &ast.BlockStmt{Lbrace: pos, List: list, Rbrace: n.End()}
}

// replaceReturns puts f(r) in place of each return statement r under n, but those of function
// literals and those in skip (f's own).
func replaceReturns(n ast.Node, skip map[*ast.ReturnStmt]bool, f func(*ast.ReturnStmt) ast.Stmt) {
	replaceIn := func(list []ast.Stmt) {
		for i, st := range list {
			if r, ok := st.(*ast.ReturnStmt); ok && !skip[r] {
				list[i] = f(r)
			}
		}
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BlockStmt:
			replaceIn(n.List)
		case *ast.CaseClause:
			replaceIn(n.Body)
		case *ast.CommClause:
			replaceIn(n.Body)
		case *ast.LabeledStmt:
			if r, ok := n.Stmt.(*ast.ReturnStmt); ok && !skip[r] {
				n.Stmt = f(r)
			}
		}
		return true
	})
}

// findRangeFuncs is the pass's cell step (rangeFuncLoops).
func findRangeFuncs(c *cellCtx) { c.rangeFuncs = c.rangeFuncLoops() }

// rangeFuncStmt is the pass's statement step: each loop found becomes its callback's call.
func rangeFuncStmt(c *cellCtx, s ast.Stmt) ast.Stmt {
	if n, ok := s.(*ast.RangeStmt); ok {
		if rf := c.rangeFuncs[n]; rf != nil {
			return c.rangeFuncLoop(n, rf)
		}
	}
	return s
}
