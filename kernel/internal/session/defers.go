package session

import (
	"fmt"
	"go/ast"
	"go/token"
)

// topDefer turns a top-level `defer f(a)` into
//
//	func() { __go1 := a; __gptnotes.Defer(func() { f(__go1) }) }()
//
// so it runs when the cell ends (Execute runs the cell's defers, last first). yaegi would keep
// it in its global frame and run it again after every later cell.
func (c *cellCtx) topDefer(d *ast.DeferStmt) ast.Stmt {
	c.funcLits(d)
	call := d.Call
	var lhs, rhs []ast.Expr
	for i, a := range call.Args {
		if needsBinding(a) {
			c.tmp++
			id := fmt.Sprintf("__go%d", c.tmp)
			lhs, rhs = append(lhs, ast.NewIdent(id)), append(rhs, a)
			call.Args[i] = ast.NewIdent(id)
		}
	}
	pos := d.Pos()
	register := &ast.ExprStmt{X: &ast.CallExpr{Fun: runtimeFuncAt("Defer", pos), Lparen: pos, Rparen: d.End(),
		Args: []ast.Expr{&ast.FuncLit{Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{}},
			Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{&ast.ExprStmt{X: call}}, Rbrace: d.End()}}}}}
	body := []ast.Stmt{register}
	if len(lhs) > 0 {
		body = append([]ast.Stmt{&ast.AssignStmt{Lhs: lhs, Tok: token.DEFINE, Rhs: rhs, TokPos: pos}}, body...)
	}
	return &ast.ExprStmt{X: &ast.CallExpr{Fun: &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{}},
		Body: &ast.BlockStmt{Lbrace: pos, List: body, Rbrace: d.End()},
	}, Lparen: d.End(), Rparen: d.End()}}
}

// bindDeferArgs evaluates a deferred call's arguments where Go does, at the defer statement
// (yaegi v0.16.1 reads a global argument when the call runs):
//
//	__go1 := a
//	defer f(__go1)
func (c *cellCtx) bindDeferArgs(d *ast.DeferStmt) []ast.Stmt {
	c.funcLits(d)
	var lhs, rhs []ast.Expr
	for i, a := range d.Call.Args {
		if needsBinding(a) {
			c.tmp++
			id := fmt.Sprintf("__go%d", c.tmp)
			lhs, rhs = append(lhs, ast.NewIdent(id)), append(rhs, a)
			d.Call.Args[i] = ast.NewIdent(id)
		}
	}
	if len(lhs) == 0 {
		return []ast.Stmt{d}
	}
	return []ast.Stmt{&ast.AssignStmt{Lhs: lhs, Tok: token.DEFINE, Rhs: rhs, TokPos: d.Pos()}, d}
}

// deferWrapped decides whether the statements of the cell's last piece run inside one function
// literal, as a program's main body does: when they defer a call at the top level, so that a
// deferred recover() sees the cell's panic, and when they return, or jump to a label, from
// the top level (main's body pasted as a cell), so that return ends the cell and goto finds its
// label. Their variables are declared outside first (see typedDefines), so they stay the
// session's; a piece with a declaration that cannot be moved out keeps the deferred calls for
// the end of the cell instead (topDefer).
func deferWrapped(list []ast.Stmt) bool {
	wrap := false
	for _, st := range list {
		switch st := st.(type) {
		case *ast.DeferStmt, *ast.LabeledStmt:
			wrap = true
		case *ast.AssignStmt:
			if st.Tok == token.DEFINE {
				return false
			}
		case *ast.DeclStmt:
			if g := st.Decl.(*ast.GenDecl); g.Tok == token.VAR {
				for _, sp := range g.Specs {
					if len(sp.(*ast.ValueSpec).Values) > 0 {
						return false
					}
				}
			}
		}
		wrap = wrap || returns(st)
	}
	return wrap
}

// returns reports whether st returns from the top level of the cell (not from a function
// literal in it).
func returns(st ast.Stmt) bool {
	found := false
	ast.Inspect(st, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ReturnStmt:
			found = true
		}
		return !found
	})
	return found
}

// wrapForDefer puts the statements of a deferWrapped piece, after its declarations, in
// func() { … }().
func (c *cellCtx) wrapForDefer(p *piece) {
	if !c.wrapDefers || p.kind != stmtPiece || p != &c.pieces[len(c.pieces)-1] {
		return
	}
	var decls, body []ast.Stmt
	for _, st := range p.body.List {
		if ds, ok := st.(*ast.DeclStmt); ok {
			decls = append(decls, ds)
			continue
		}
		body = append(body, st)
	}
	if len(body) == 0 {
		return
	}
	pos, end := body[0].Pos(), body[len(body)-1].End()
	call := &ast.ExprStmt{X: &ast.CallExpr{Fun: &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{}},
		Body: &ast.BlockStmt{Lbrace: pos, List: body, Rbrace: end},
	}, Lparen: end, Rparen: end}}
	p.body.List = append(decls, call)
}

// deferCall registers a top-level deferred call of the running cell (see topDefer).
func (s *Session) deferCall(f func()) {
	s.runMu.Lock()
	defer s.runMu.Unlock()
	if r := s.running; r != nil {
		r.defers = append(r.defers, f)
	}
}

// runDefers runs a cell's top-level deferred calls, last first, as Go runs a function's; a
// panic in one becomes the cell's error if it has none yet. Once os.Exit was called (by the cell,
// by one of its goroutines, or by a deferred call) no further deferred call runs and the cell's
// error is Exit. Each call runs in a goroutine of its own, so that os.Exit in it parks that
// goroutine, not Execute's.
func (s *Session) runDefers(r *cellRun, err error) error {
	st := exitOf(r)
	defer exits.Delete(r)
	for i := len(r.defers) - 1; i >= 0; i-- {
		if _, ok := st.exited(); ok {
			break
		}
		res := make(chan error, 1)
		go func(f func()) {
			var perr error
			defer func() {
				if p := recover(); p != nil {
					v := panicText(p)
					perr = &CellError{Name: "Panic", Value: v, Traceback: append([]string{"panic: " + v}, frames(s.trace.take())...)}
				}
				res <- perr
			}()
			f()
		}(r.defers[i])
		select {
		case perr := <-res:
			if perr != nil && err == nil {
				err = perr
			}
		case <-st.done:
		}
	}
	if code, ok := st.exited(); ok {
		s.trace.take()
		return exitCellError(code)
	}
	return err
}
