package session

import (
	"fmt"
	"go/ast"
	"go/token"
)

// A rewrite for a fault of yaegi v0.16.1 that gives a wrong answer without an error: in a case
// of a select, an unlabeled break ends the enclosing loop instead of the select, and a continue
// ends the loop instead of starting its next iteration. A break with the select's own label
// works, so
//
//	for … { select { case v := <-ch: if v == 0 { break }; …; continue } }
//
// becomes
//
//	for … {
//		__gptnotes_cont1 := false
//	__gptnotes_sel1:
//		select { case v := <-ch: if v == 0 { break __gptnotes_sel1 }; …; __gptnotes_cont1 = true; break __gptnotes_sel1 }
//		if __gptnotes_cont1 { continue }
//	}

// selectJumps applies the rewrite to every select under root, innermost first.
func (c *cellCtx) selectJumps(root ast.Node) {
	var selects []*ast.SelectStmt
	ast.Inspect(root, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectStmt); ok {
			selects = append(selects, s)
		}
		return true
	})
	for i := len(selects) - 1; i >= 0; i-- {
		c.selectJump(root, selects[i])
	}
}

// selectJump rewrites the breaks and continues of one select.
func (c *cellCtx) selectJump(root ast.Node, sel *ast.SelectStmt) {
	type jump struct {
		parent []ast.Stmt // the list holding the branch statement
		index  int
		br     *ast.BranchStmt
	}
	var jumps []jump
	for _, cc := range sel.Body.List {
		clause := cc.(*ast.CommClause)
		findJumps(clause.Body, true, true, func(list []ast.Stmt, i int, br *ast.BranchStmt) {
			jumps = append(jumps, jump{list, i, br})
		})
	}
	if len(jumps) == 0 {
		return
	}
	var label *ast.Ident
	var target ast.Stmt = sel // what the flags go around: the select, or its labeled statement
	ast.Inspect(root, func(n ast.Node) bool {
		if l, ok := n.(*ast.LabeledStmt); ok && l.Stmt == sel {
			label, target = l.Label, l
		}
		return label == nil
	})
	if label == nil {
		c.tmp++
		label = ast.NewIdent(fmt.Sprintf("__gptnotes_sel%d", c.tmp))
	}
	flags := map[string]string{} // continue's label ("" for none) → its flag
	var order []string
	for _, j := range jumps {
		breakSel := &ast.BranchStmt{TokPos: j.br.TokPos, Tok: token.BREAK, Label: ast.NewIdent(label.Name)}
		if j.br.Tok == token.BREAK {
			j.parent[j.index] = breakSel
			continue
		}
		target := ""
		if j.br.Label != nil {
			target = j.br.Label.Name
		}
		if flags[target] == "" {
			c.tmp++
			flags[target] = fmt.Sprintf("__gptnotes_cont%d", c.tmp)
			order = append(order, target)
		}
		set := &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent(flags[target])}, Tok: token.ASSIGN, TokPos: j.br.TokPos,
			Rhs: []ast.Expr{ast.NewIdent("true")}}
		j.parent[j.index] = &ast.BlockStmt{Lbrace: j.br.Pos(), List: []ast.Stmt{set, breakSel}, Rbrace: j.br.End()}
	}
	var before, after []ast.Stmt
	for _, target := range order {
		flag := flags[target]
		before = append(before, &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent(flag)}, Tok: token.DEFINE, TokPos: sel.Pos(),
			Rhs: []ast.Expr{ast.NewIdent("false")}})
		cont := &ast.BranchStmt{TokPos: sel.End(), Tok: token.CONTINUE}
		if target != "" {
			cont.Label = ast.NewIdent(target)
		}
		after = append(after, &ast.IfStmt{If: sel.End(), Cond: ast.NewIdent(flag),
			Body: &ast.BlockStmt{Lbrace: sel.End(), List: []ast.Stmt{cont}, Rbrace: sel.End()}})
	}
	labeled := target
	if target == ast.Stmt(sel) {
		labeled = &ast.LabeledStmt{Label: label, Colon: sel.Pos(), Stmt: sel}
	}
	replaceStmt(root, target, append(append(before, labeled), after...))
}

// findJumps calls f for each unlabeled break (while breaks is true) and each continue (while
// continues is true) in list that leaves the statement list's select: not those of a nested
// loop, switch or select, nor of a function literal.
func findJumps(list []ast.Stmt, breaks, continues bool, f func([]ast.Stmt, int, *ast.BranchStmt)) {
	for i, st := range list {
		switch st := st.(type) {
		case *ast.BranchStmt:
			if (st.Tok == token.BREAK && st.Label == nil && breaks) || (st.Tok == token.CONTINUE && continues) {
				f(list, i, st)
			}
		case *ast.BlockStmt:
			findJumps(st.List, breaks, continues, f)
		case *ast.IfStmt:
			findJumps(st.Body.List, breaks, continues, f)
			if st.Else != nil { // a block or an if: neither is itself a jump
				findJumps([]ast.Stmt{st.Else}, breaks, continues, f)
			}
		case *ast.LabeledStmt:
			findJumps([]ast.Stmt{st.Stmt}, breaks, continues, f)
		case *ast.SwitchStmt:
			for _, cc := range st.Body.List {
				findJumps(cc.(*ast.CaseClause).Body, false, continues, f)
			}
		case *ast.TypeSwitchStmt:
			for _, cc := range st.Body.List {
				findJumps(cc.(*ast.CaseClause).Body, false, continues, f)
			}
		}
		// for, range and select bodies have jumps of their own; function literals too.
	}
}

// replaceStmt puts stmts in place of old in the statement list under root that holds it.
func replaceStmt(root ast.Node, old ast.Stmt, stmts []ast.Stmt) {
	splice := func(list []ast.Stmt) ([]ast.Stmt, bool) {
		for i, st := range list {
			if st == old {
				out := append(append(append([]ast.Stmt{}, list[:i]...), stmts...), list[i+1:]...)
				return out, true
			}
		}
		return list, false
	}
	done := false
	ast.Inspect(root, func(n ast.Node) bool {
		if done {
			return false
		}
		switch n := n.(type) {
		case *ast.BlockStmt:
			n.List, done = splice(n.List)
		case *ast.CaseClause:
			n.Body, done = splice(n.Body)
		case *ast.CommClause:
			n.Body, done = splice(n.Body)
		}
		return !done
	})
}
