package session

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
)

// A rewrite for a fault of yaegi v0.16.1 that gives a wrong answer without an error: a type
// switch on a value of a non-empty interface type (an error, a fmt.Stringer, a cell's
// interface) never matches a case of a cell's pointer type, and misses its nil case, though
// the same test written as a type assertion works. So
//
//	switch v := err.(type) {
//	case *NotFound: A
//	case nil:       B
//	default:        C
//	}
//
// becomes
//
//	{
//		__ts1 := err
//		if v, ok := __ts1.(*NotFound); ok { _ = v; A } else if __ts1 == nil { v := __ts1; _ = v; B } else { v := __ts1; _ = v; C }
//	}
//
// A switch on an empty interface with a case of a cell's named number or string type is
// written the same way, asking for the type's tag type (tagged.go), and so is one with a case of
// a cell's struct type or a pointer to one: on an any, yaegi takes no such case (`var x any =
// B{1}; switch x.(type) { case B: … }` ran no clause), though x.(B) holds. A switch whose cases
// break out of it is left alone (break would leave the enclosing loop), and refused when such a
// case would go unmatched (refuse.go).

// typeSwitchChain rewrites s when the check types its subject as a non-empty interface, or
// returns nil.
func (c *cellCtx) typeSwitchChain(s *ast.TypeSwitchStmt) ast.Stmt {
	x := typeSwitchSubject(s)
	if x == nil || c.checked == nil {
		return nil
	}
	xt := c.typeOf(x)
	if xt == nil {
		return nil // the check did not type it (a module file's check can stop short)
	}
	it, ok := types.Unalias(xt).Underlying().(*types.Interface)
	if !ok || it.Empty() && !c.switchesOnTagged(s) && c.structCase(s) == "" {
		return nil
	}
	if switchBreaks(s) {
		return nil
	}
	var bind *ast.Ident
	if a, ok := s.Assign.(*ast.AssignStmt); ok {
		bind = a.Lhs[0].(*ast.Ident)
	}
	c.tmp++
	subject := ast.NewIdent(fmt.Sprintf("__ts%d", c.tmp))
	pos := s.Pos()

	// bound declares the switch's variable in a clause that does not narrow it.
	bound := func(body []ast.Stmt) []ast.Stmt {
		if bind == nil {
			return body
		}
		return append([]ast.Stmt{
			&ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent(bind.Name)}, Tok: token.DEFINE, TokPos: pos, Rhs: []ast.Expr{ast.NewIdent(subject.Name)}},
			blankUse(bind.Name),
		}, body...)
	}
	var chain ast.Stmt   // the first if of the chain
	var last *ast.IfStmt // where the next case goes
	var deflt []ast.Stmt // the default clause's body, if any
	add := func(ifs *ast.IfStmt) {
		if last == nil {
			chain = ifs
		} else {
			last.Else = ifs
		}
		last = ifs
	}
	for _, cc := range s.Body.List {
		clause := cc.(*ast.CaseClause)
		if clause.List == nil {
			deflt = clause.Body
			continue
		}
		if len(clause.List) == 1 && !isNilIdent(clause.List[0]) {
			// One type: the variable has it, from a comma-ok assertion.
			name := "_"
			if bind != nil {
				name = bind.Name
			}
			ok := ast.NewIdent(fmt.Sprintf("__ok%d", c.tmp))
			body := clause.Body
			if bind != nil {
				body = append([]ast.Stmt{blankUse(bind.Name)}, body...)
			}
			asked := clause.List[0]
			if slot := c.s.tagOf(c.typeOf(asked)); slot != nil {
				// Asked as its tag type, bound as itself: v := Celsius(__tb1) (tagged.go).
				asked = runtimeFuncAt(slot.symbol, clause.Pos())
				if bind != nil {
					tagged := ast.NewIdent(fmt.Sprintf("__tb%d_%d", c.tmp, clause.Pos()))
					body = append([]ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent(name)}, Tok: token.DEFINE, TokPos: clause.Pos(),
						Rhs: []ast.Expr{&ast.CallExpr{Fun: clause.List[0], Args: []ast.Expr{ast.NewIdent(tagged.Name)}}}}}, body...)
					name = tagged.Name
				}
			}
			add(&ast.IfStmt{If: clause.Pos(),
				Init: &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent(name), ok}, Tok: token.DEFINE, TokPos: clause.Pos(),
					Rhs: []ast.Expr{&ast.TypeAssertExpr{X: ast.NewIdent(subject.Name), Type: asked}}},
				Cond: ast.NewIdent(ok.Name),
				Body: &ast.BlockStmt{Lbrace: clause.Colon, List: body, Rbrace: clause.End()}})
			continue
		}
		// Several types, or nil: the variable keeps the subject's type.
		var cond ast.Expr
		for _, t := range clause.List {
			var test ast.Expr
			if isNilIdent(t) {
				test = &ast.BinaryExpr{X: ast.NewIdent(subject.Name), Op: token.EQL, Y: ast.NewIdent("nil")}
			} else {
				test = &ast.CallExpr{Fun: &ast.FuncLit{
					Type: &ast.FuncType{Params: &ast.FieldList{}, Results: &ast.FieldList{List: []*ast.Field{{Type: ast.NewIdent("bool")}}}},
					Body: &ast.BlockStmt{List: []ast.Stmt{
						&ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent("_"), ast.NewIdent("ok")}, Tok: token.DEFINE,
							Rhs: []ast.Expr{&ast.TypeAssertExpr{X: ast.NewIdent(subject.Name), Type: c.taggedOr(t)}}},
						&ast.ReturnStmt{Results: []ast.Expr{ast.NewIdent("ok")}},
					}}}}
			}
			if cond == nil {
				cond = test
			} else {
				cond = &ast.BinaryExpr{X: cond, Op: token.LOR, Y: test}
			}
		}
		add(&ast.IfStmt{If: clause.Pos(), Cond: cond,
			Body: &ast.BlockStmt{Lbrace: clause.Colon, List: bound(clause.Body), Rbrace: clause.End()}})
	}
	if deflt != nil {
		d := &ast.BlockStmt{Lbrace: pos, List: bound(deflt), Rbrace: s.End()}
		if last == nil {
			chain = d
		} else {
			last.Else = d
		}
	}
	list := []ast.Stmt{}
	if s.Init != nil {
		list = append(list, s.Init)
	}
	list = append(list, &ast.AssignStmt{Lhs: []ast.Expr{subject}, Tok: token.DEFINE, TokPos: pos, Rhs: []ast.Expr{x}})
	if chain != nil {
		list = append(list, chain)
	}
	return &ast.BlockStmt{Lbrace: pos, List: list, Rbrace: s.End()}
}

// switchesOnTagged reports whether a case of s is a tagged type (tagged.go): a switch on an
// empty interface is written as the chain too, asking for the tag type.
func (c *cellCtx) switchesOnTagged(s *ast.TypeSwitchStmt) bool { return c.taggedCase(s) != "" }

// taggedCase is the name of the first case of s that is a tagged type, "" when none is.
func (c *cellCtx) taggedCase(s *ast.TypeSwitchStmt) string {
	for _, cc := range s.Body.List {
		for _, t := range cc.(*ast.CaseClause).List {
			if tt := c.typeOf(t); c.s.tagOf(tt) != nil {
				return types.TypeString(tt, cellQualifier)
			}
		}
	}
	return ""
}

// structCase is the first case of s that is a cell's struct type or a pointer to one, as the
// cell writes it; "" when none is.
func (c *cellCtx) structCase(s *ast.TypeSwitchStmt) string {
	for _, cc := range s.Body.List {
		for _, t := range cc.(*ast.CaseClause).List {
			tt := c.typeOf(t)
			if tt == nil || isNilIdent(t) {
				continue
			}
			if p, ok := types.Unalias(tt).(*types.Pointer); ok {
				tt = p.Elem()
			}
			if n, ok := types.Unalias(tt).(*types.Named); ok && interpretedType(n) {
				if _, ok := n.Underlying().(*types.Struct); ok {
					return types.ExprString(t)
				}
			}
		}
	}
	return ""
}

// taggedOr is the type expression t, or its tag type's when it has one.
func (c *cellCtx) taggedOr(t ast.Expr) ast.Expr {
	if slot := c.s.tagOf(c.typeOf(t)); slot != nil {
		return runtimeFuncAt(slot.symbol, t.Pos())
	}
	return t
}

// switchBreaks reports whether a clause of s breaks out of it: the chain would leave the
// enclosing loop instead.
func switchBreaks(s *ast.TypeSwitchStmt) bool {
	breaks := false
	for _, cc := range s.Body.List {
		findJumps(cc.(*ast.CaseClause).Body, true, false, func([]ast.Stmt, int, *ast.BranchStmt) { breaks = true })
	}
	return breaks
}

// blankUse is `_ = name`: a switch's variable need not be used in every clause.
func blankUse(name string) ast.Stmt {
	return &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent("_")}, Tok: token.ASSIGN, Rhs: []ast.Expr{ast.NewIdent(name)}}
}

func isNilIdent(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == "nil"
}

// typeSwitchChainStmt is the pass's statement step (typeSwitchChain).
func typeSwitchChainStmt(c *cellCtx, s ast.Stmt) ast.Stmt {
	if ts, ok := s.(*ast.TypeSwitchStmt); ok {
		if st := c.typeSwitchChain(ts); st != nil {
			return st
		}
	}
	return s
}

// moduleTypeSwitches writes the type switches of a module file (info: its package's check) as
// chains, as the pass does in a cell: go-cmp's options are interpreted structs in an Option
// interface, and its switch on them fell through to "unknown option". It reports whether it
// changed the file.
func (s *Session) moduleTypeSwitches(f *ast.File, info *types.Info) bool {
	c := &cellCtx{s: s, checked: &checkResult{info: info}}
	changed := false
	chain := func(list []ast.Stmt) {
		for i, st := range list {
			if ts, ok := st.(*ast.TypeSwitchStmt); ok {
				if st := c.typeSwitchChain(ts); st != nil {
					list[i] = st
					changed = true
				}
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			chain(n.List)
		case *ast.CaseClause:
			chain(n.Body)
		case *ast.CommClause:
			chain(n.Body)
		}
		return true
	})
	return changed
}
