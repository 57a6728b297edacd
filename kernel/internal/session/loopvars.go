package session

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// loopVarRange gives each iteration its own copies of the range variables when the body can
// keep a reference to them. It reports whether it did.
func (c *cellCtx) loopVarRange(s *ast.RangeStmt) bool {
	if s.Tok != token.DEFINE || !capturesVars(s.Body) {
		return false
	}
	return c.copyLoopVars(s.Body, s.Key, s.Value) != nil
}

// loopVarFor does the same for a three-clause loop. A body that assigns the variable itself (or
// takes its address) hands its copy back to the loop's variable at its end and before each
// continue, for the post statement and the condition, and the next iteration's copy, to see:
// Go 1.22 starts each iteration with a fresh variable holding the previous one's last value.
func (c *cellCtx) loopVarFor(s *ast.ForStmt) bool {
	init, ok := s.Init.(*ast.AssignStmt)
	if !ok || init.Tok != token.DEFINE || !capturesVars(s.Body) {
		return false
	}
	copied := c.copyLoopVars(s.Body, init.Lhs...)
	if copied == nil {
		return false
	}
	for _, v := range copied.Lhs {
		if assigns(s.Body, v.(*ast.Ident).Name) {
			back := func() ast.Stmt {
				return &ast.AssignStmt{Lhs: cloneIdents(copied.Rhs), Tok: token.ASSIGN, Rhs: cloneIdents(copied.Lhs)}
			}
			s.Body.List = append(beforeContinue(s.Body.List, back, false), back())
			break
		}
	}
	return true
}

// loopVarsRead are the variables of one iteration of loop (declared in it, outside lit) that
// the identifiers under n read.
func (c *cellCtx) loopVarsRead(loop ast.Node, lit *ast.FuncLit, ns ...ast.Node) []*types.Var {
	if len(ns) == 0 {
		ns = []ast.Node{lit.Body}
	}
	var vars []*types.Var
	for _, n := range ns {
		ast.Inspect(n, func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok {
				return true
			}
			v, ok := c.checked.info.Uses[id].(*types.Var)
			if ok && !v.IsField() && v.Pos() >= loop.Pos() && v.Pos() < loop.End() && (v.Pos() < lit.Pos() || v.Pos() >= lit.End()) {
				vars = append(vars, v)
			}
			return true
		})
	}
	return vars
}

func cloneIdents(ids []ast.Expr) []ast.Expr {
	out := make([]ast.Expr, len(ids))
	for i, id := range ids {
		out[i] = ast.NewIdent(id.(*ast.Ident).Name)
	}
	return out
}

// beforeContinue puts stmt() before every continue in list, the body of a loop, that may go to
// that loop: an unlabeled one outside inner loops (inner is true inside them), and every labeled
// one (when the label is another loop's, the copy back is harmless: the body reads only its copy).
func beforeContinue(list []ast.Stmt, stmt func() ast.Stmt, inner bool) []ast.Stmt {
	for i, st := range list {
		list[i] = beforeContinueIn(st, stmt, inner)
	}
	return list
}

func beforeContinueIn(st ast.Stmt, stmt func() ast.Stmt, inner bool) ast.Stmt {
	switch s := st.(type) {
	case *ast.BranchStmt:
		if s.Tok == token.CONTINUE && (s.Label != nil || !inner) {
			return &ast.BlockStmt{List: []ast.Stmt{stmt(), s}}
		}
	case *ast.BlockStmt:
		beforeContinue(s.List, stmt, inner)
	case *ast.LabeledStmt:
		s.Stmt = beforeContinueIn(s.Stmt, stmt, inner)
	case *ast.IfStmt:
		beforeContinue(s.Body.List, stmt, inner)
		if s.Else != nil {
			s.Else = beforeContinueIn(s.Else, stmt, inner)
		}
	case *ast.SwitchStmt:
		for _, cc := range s.Body.List {
			cc.(*ast.CaseClause).Body = beforeContinue(cc.(*ast.CaseClause).Body, stmt, inner)
		}
	case *ast.TypeSwitchStmt:
		for _, cc := range s.Body.List {
			cc.(*ast.CaseClause).Body = beforeContinue(cc.(*ast.CaseClause).Body, stmt, inner)
		}
	case *ast.SelectStmt:
		for _, cc := range s.Body.List {
			cc.(*ast.CommClause).Body = beforeContinue(cc.(*ast.CommClause).Body, stmt, inner)
		}
	case *ast.ForStmt:
		beforeContinue(s.Body.List, stmt, true)
	case *ast.RangeStmt:
		beforeContinue(s.Body.List, stmt, true)
	}
	return st
}

// copyLoopVars renames the loop variables inside body to fresh names declared, at the top of the
// body, as copies of them. (yaegi mishandles `i := i` in a loop body, hence the renaming.) It
// returns that declaration (fresh names := loop variables), nil when it changed nothing.
func (c *cellCtx) copyLoopVars(body *ast.BlockStmt, vars ...ast.Expr) *ast.AssignStmt {
	for _, v := range vars {
		if id, ok := v.(*ast.Ident); ok && redeclares(body, id.Name) {
			return nil
		}
	}
	var lhs, rhs []ast.Expr
	for _, v := range vars {
		id, ok := v.(*ast.Ident)
		if !ok || id.Name == "_" {
			continue
		}
		c.tmp++
		fresh := fmt.Sprintf("%s__%d", id.Name, c.tmp)
		renameIdent(body, id.Name, fresh)
		lhs, rhs = append(lhs, ast.NewIdent(fresh)), append(rhs, ast.NewIdent(id.Name))
	}
	if len(lhs) == 0 {
		return nil
	}
	// `_ = x` keeps a copy that the body never reads legal.
	copied := &ast.AssignStmt{Lhs: lhs, Tok: token.DEFINE, Rhs: rhs}
	decl := []ast.Stmt{copied}
	for _, l := range lhs {
		decl = append(decl, &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent("_")}, Tok: token.ASSIGN, Rhs: []ast.Expr{ast.NewIdent(l.(*ast.Ident).Name)}})
	}
	body.List = append(decl, body.List...)
	return copied
}

// capturesVars reports whether a loop body can keep a reference to its variables past the
// iteration: a function literal, a go or defer statement, or an address taken.
func capturesVars(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
			found = true
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				found = true
			}
		}
		return !found
	})
	return found
}

// assigns reports whether body assigns to (or increments, or takes the address of) name.
func assigns(body ast.Node, name string) bool {
	found := false
	is := func(e ast.Expr) bool { id, ok := e.(*ast.Ident); return ok && id.Name == name }
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				for _, l := range n.Lhs {
					found = found || is(l)
				}
			}
		case *ast.IncDecStmt:
			found = found || is(n.X)
		case *ast.UnaryExpr:
			found = found || (n.Op == token.AND && is(n.X))
		}
		return !found
	})
	return found
}

// redeclares reports whether name is declared anew anywhere inside body.
func redeclares(body ast.Node, name string) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.DEFINE {
				for _, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok && id.Name == name {
						found = true
					}
				}
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				found = found || id.Name == name
			}
		case *ast.TypeSpec:
			found = found || n.Name.Name == name
		case *ast.Field:
			for _, id := range n.Names {
				found = found || id.Name == name
			}
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{n.Key, n.Value} {
				if id, ok := e.(*ast.Ident); ok && n.Tok == token.DEFINE && id.Name == name {
					found = true
				}
			}
		}
		return !found
	})
	return found
}

// renameIdent renames the uses of variable old under n: not field names after a dot, not keys of
// struct literals.
func renameIdent(n ast.Node, old, new string) {
	var visit func(n ast.Node) bool
	visit = func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if n.Name == old {
				n.Name = new
				n.Obj = nil
			}
		case *ast.SelectorExpr:
			ast.Inspect(n.X, visit)
			return false
		case *ast.CompositeLit:
			_, isMap := n.Type.(*ast.MapType)
			for _, e := range n.Elts {
				if kv, ok := e.(*ast.KeyValueExpr); ok && !isMap {
					ast.Inspect(kv.Value, visit)
					continue
				}
				ast.Inspect(e, visit)
			}
			return false
		case *ast.StructType:
			return false
		}
		return true
	}
	ast.Inspect(n, visit)
}

// loopVarsStmt is the pass's statement step: loopVarFor and loopVarRange.
func loopVarsStmt(c *cellCtx, s ast.Stmt) ast.Stmt {
	switch s := s.(type) {
	case *ast.ForStmt:
		c.loopVarFor(s)
	case *ast.RangeStmt:
		c.loopVarRange(s)
	}
	return s
}
