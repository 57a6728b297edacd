package session

import (
	"fmt"
	"go/ast"
	"go/token"
	"strconv"
)

// goStmt turns `go f(a, b)` into
//
//	{ __go1, __go2 := a, b; go func() { defer <report panic>; f(__go1, __go2) }() }
//
// so the arguments are evaluated where Go evaluates them and a panic in the goroutine is
// reported to the cell (see Session.goPanic) instead of ending the process.
func (c *cellCtx) goStmt(s *ast.GoStmt) ast.Stmt {
	call := s.Call
	var lhs, rhs []ast.Expr
	bind := func(e ast.Expr) ast.Expr {
		c.tmp++
		id := ast.NewIdent(fmt.Sprintf("__go%d", c.tmp))
		lhs, rhs = append(lhs, id), append(rhs, e)
		return ast.NewIdent(id.Name)
	}
	if sel, ok := call.Fun.(*ast.SelectorExpr); ok && !c.isPackage(sel.X) {
		call.Fun = bind(call.Fun) // a method value: the receiver is evaluated now
	}
	for i, a := range call.Args {
		if needsBinding(a) {
			call.Args[i] = bind(a)
		}
	}
	recoverer := &ast.DeferStmt{Call: &ast.CallExpr{Fun: &ast.FuncLit{
		Type: &ast.FuncType{Params: &ast.FieldList{}},
		Body: &ast.BlockStmt{List: []ast.Stmt{&ast.IfStmt{
			Init: &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent("__r")}, Tok: token.DEFINE,
				Rhs: []ast.Expr{&ast.CallExpr{Fun: ast.NewIdent("recover")}}},
			Cond: &ast.BinaryExpr{X: ast.NewIdent("__r"), Op: token.NEQ, Y: ast.NewIdent("nil")},
			Body: &ast.BlockStmt{List: []ast.Stmt{&ast.ExprStmt{X: &ast.CallExpr{
				Fun:  runtimeFunc("GoPanic"),
				Args: []ast.Expr{&ast.BasicLit{Kind: token.INT, Value: strconv.Itoa(c.id)}, ast.NewIdent("__r")},
			}}}},
		}}},
	}}}
	g := &ast.GoStmt{Go: s.Go, Call: &ast.CallExpr{Fun: &ast.FuncLit{
		Type: &ast.FuncType{Func: s.Go, Params: &ast.FieldList{}},
		Body: &ast.BlockStmt{List: []ast.Stmt{recoverer, &ast.ExprStmt{X: call}}},
	}}}
	if len(lhs) == 0 {
		return g
	}
	return &ast.BlockStmt{List: []ast.Stmt{
		&ast.AssignStmt{Lhs: lhs, Tok: token.DEFINE, Rhs: rhs, TokPos: s.Go},
		g,
	}}
}

// needsBinding reports whether a go statement's argument must be evaluated before the goroutine
// starts: anything but constants and function literals (untyped constants keep their flexibility).
func needsBinding(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit, *ast.FuncLit:
		return false
	case *ast.Ident:
		return e.Name != "nil" && e.Name != "true" && e.Name != "false"
	case *ast.UnaryExpr:
		if _, lit := e.X.(*ast.BasicLit); lit && e.Op != token.AND {
			return false
		}
	}
	return true
}

// goStmtStmt is the pass's statement step (goStmt).
func goStmtStmt(c *cellCtx, s ast.Stmt) ast.Stmt {
	if g, ok := s.(*ast.GoStmt); ok {
		return c.goStmt(g)
	}
	return s
}

// goPanic is called by the recover the kernel wraps around every go statement: the cell that
// started the goroutine fails with the panic if it still runs; otherwise the panic is reported on
// the stderr of the cell now running, or in the kernel log.
func (s *Session) goPanic(cell int, v any) {
	trace := s.trace.take()
	s.runMu.Lock()
	r := s.running
	s.runMu.Unlock()
	by := "this cell"
	if r == nil || r.id != cell {
		by = fmt.Sprintf("an earlier cell (execution #%d)", cell)
	}
	err := &CellError{Name: "GoroutinePanic", Value: fmt.Sprintf("panic in a goroutine started by %s: %s", by, panicText(v))}
	err.Traceback = append([]string{err.Name + ": " + err.Value}, frames(trace)...)
	switch {
	case r != nil && r.id == cell:
		r.cancel(err)
	case r != nil:
		cellStderr.Write([]byte(joinLines(err.Traceback))) // in order with the cell's output
	default:
		fmt.Fprintln(LogWriter(), "session:", joinLines(err.Traceback))
	}
}
