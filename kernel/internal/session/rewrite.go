package session

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strconv"
)

// rewrite runs the passes (passes.go) on the cell: their cell steps once, then each piece's
// tree through their piece, statement, after and expression steps. Around them, the driver
// gives a cell's top-level statements what yaegi's global frame lacks: typed declarations
// (typedDefines), a frame of their own for compound statements, a top-level defer that runs
// when the cell ends (defers.go), and a check after each statement that an interrupt stopped
// the cell (live).
func (c *cellCtx) rewrite() {
	for _, ps := range passes {
		if ps.cell != nil {
			ps.cell(c)
		}
	}
	for i := range c.pieces {
		c.rewritePiece(&c.pieces[i])
	}
	c.rebindReloaded() // packages beside the notebook loaded again (reload.go)
}

func (c *cellCtx) rewritePiece(p *piece) {
	for _, ps := range passes {
		if ps.piece != nil {
			ps.piece(c, p.root())
		}
	}
	switch p.kind {
	case declPiece:
		for _, d := range p.file.Decls {
			if f, ok := d.(*ast.FuncDecl); ok && f.Body != nil {
				f.Body.List = c.stmts(f.Body.List)
			}
		}
	case stmtPiece:
		list := c.typedDefines(p.body.List)
		if p == &c.pieces[len(c.pieces)-1] {
			c.wrapDefers = deferWrapped(list)
		}
		p.body.List = c.topStmts(list)
	}
	for _, ps := range passes {
		if ps.after != nil {
			ps.after(c, p.root())
		}
	}
	replaceExprs(p.root(), c.expr)
}

// stmts rewrites a list of statements. A defer takes its arguments into variables first: yaegi
// v0.16.1 reads a deferred call's variable arguments when the call runs, not at the defer
// statement (x := 1; defer f(x); x = 2 gave f(2)).
func (c *cellCtx) stmts(list []ast.Stmt) []ast.Stmt {
	out := make([]ast.Stmt, 0, len(list))
	for _, s := range list {
		if d, ok := s.(*ast.DeferStmt); ok {
			out = append(out, c.bindDeferArgs(d)...)
			continue
		}
		out = append(out, c.stmt(s))
	}
	return out
}

// topStmts rewrites a cell's top-level statements. Compound ones (for, if, switch, select, {…})
// run inside func() { … }(): yaegi v0.16.1 mishandles blocks in its global frame (`a, b := f()`
// in a nested block is "undefined", closures capturing a loop's variables share one slot, an
// interrupted loop resumes after the next cell), and a function literal gives them a frame of
// their own. They declare nothing the rest of the cell sees, so nothing changes for the cell.
func (c *cellCtx) topStmts(list []ast.Stmt) []ast.Stmt {
	var out []ast.Stmt
	for _, s := range list {
		if d, ok := s.(*ast.DeferStmt); ok {
			if c.wrapDefers {
				out = append(out, c.bindDeferArgs(d)...)
			} else {
				out = append(out, c.topDefer(d))
			}
			continue
		}
		out = append(out, s)
	}
	list = out
	for i, s := range list {
		if _, ok := s.(*ast.DeferStmt); ok {
			continue
		}
		if !isCompound(s) {
			list[i] = c.stmt(s)
			continue
		}
		s = c.stmt(s)
		if c.wrapDefers { // the whole piece gets a frame of its own (wrapForDefer)
			list[i] = s
			continue
		}
		list[i] = &ast.ExprStmt{X: &ast.CallExpr{Fun: &ast.FuncLit{
			Type: &ast.FuncType{Func: s.Pos(), Params: &ast.FieldList{}},
			Body: &ast.BlockStmt{Lbrace: s.Pos(), List: []ast.Stmt{s}, Rbrace: s.End()},
		}, Lparen: s.End(), Rparen: s.End()}}
	}
	return c.liveChecks(list)
}

func isCompound(s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.ForStmt, *ast.RangeStmt, *ast.IfStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt, *ast.BlockStmt:
		return true
	case *ast.LabeledStmt:
		return isCompound(s.Stmt)
	}
	return false
}

// stmt rewrites one statement: the statements nested in it first, then the passes' statement
// steps in order, each on what the one before returned.
func (c *cellCtx) stmt(s ast.Stmt) ast.Stmt {
	c.funcLits(s)
	switch s := s.(type) {
	case *ast.BlockStmt:
		s.List = c.stmts(s.List)
	case *ast.IfStmt:
		s.Body.List = c.stmts(s.Body.List)
		if s.Else != nil {
			s.Else = c.stmt(s.Else)
		}
	case *ast.ForStmt:
		s.Body.List = c.stmts(s.Body.List)
	case *ast.RangeStmt:
		s.Body.List = c.stmts(s.Body.List)
	case *ast.SwitchStmt:
		c.caseBodies(s)
	case *ast.TypeSwitchStmt:
		for _, cc := range s.Body.List {
			cc.(*ast.CaseClause).Body = c.stmts(cc.(*ast.CaseClause).Body)
		}
	case *ast.SelectStmt:
		for _, cc := range s.Body.List {
			cc.(*ast.CommClause).Body = c.stmts(cc.(*ast.CommClause).Body)
		}
	case *ast.LabeledStmt:
		if sw, ok := s.Stmt.(*ast.SwitchStmt); ok {
			c.caseBodies(sw) // the passes see the labeled switch (switchinit keeps the label on it)
			break
		}
		s.Stmt = c.stmt(s.Stmt)
		return s
	}
	for _, ps := range passes {
		if ps.stmt != nil {
			s = ps.stmt(c, s)
		}
	}
	return s
}

func (c *cellCtx) caseBodies(sw *ast.SwitchStmt) {
	for _, cc := range sw.Body.List {
		cc.(*ast.CaseClause).Body = c.stmts(cc.(*ast.CaseClause).Body)
	}
}

// --- interrupted cells stay stopped -----------------------------------------------------------

// A cell's top-level statements run in yaegi's global frame. An interrupt stops them, but the
// next cell resets that frame's run id, so an interrupted cell still blocked in a compiled call
// (time.Sleep) would run its next statements afterwards. __gptnotes.Live(cell), between
// top-level statements, ends the goroutine of a cell that is no longer the running one.
// Compound statements run in function frames (topStmts), which the interrupt stops for good.

func (c *cellCtx) live(pos token.Pos) ast.Stmt {
	sel := &ast.SelectorExpr{X: &ast.Ident{Name: "__gptnotes", NamePos: pos}, Sel: &ast.Ident{Name: "Live", NamePos: pos}}
	return &ast.ExprStmt{X: &ast.CallExpr{Fun: sel, Lparen: pos, Rparen: pos,
		Args: []ast.Expr{&ast.BasicLit{Kind: token.INT, Value: strconv.Itoa(c.id), ValuePos: pos}}}}
}

// liveChecks puts a Live check after every top-level statement but the last.
func (c *cellCtx) liveChecks(list []ast.Stmt) []ast.Stmt {
	if len(list) < 2 {
		return list
	}
	out := make([]ast.Stmt, 0, 2*len(list))
	for i, s := range list {
		out = append(out, s)
		if i < len(list)-1 {
			out = append(out, c.live(s.End()))
		}
	}
	return out
}

// funcLits rewrites the bodies of function literals in s's own expressions (nested statements
// are reached through stmt).
func (c *cellCtx) funcLits(s ast.Stmt) {
	ast.Inspect(s, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			return false
		case *ast.CaseClause, *ast.CommClause:
			return false
		case *ast.FuncLit:
			n.Body.List = c.stmts(n.Body.List)
			return false
		}
		return true
	})
}

// isPackage reports whether e names an imported package.
func (c *cellCtx) isPackage(e ast.Expr) bool {
	id, ok := e.(*ast.Ident)
	if !ok {
		return false
	}
	if c.kinds[id.Name] != kindUnknown {
		return false // a variable of the cell shadows it
	}
	for _, name := range c.s.imports {
		if name == id.Name {
			return true
		}
	}
	for _, p := range c.pieces {
		if p.file != nil {
			for _, sp := range p.file.Imports {
				if importName(sp) == id.Name {
					return true
				}
			}
		}
	}
	return false
}

// expr rewrites one expression: the first of the passes' expression steps that gives another
// expression replaces it, then the wrap steps see the result.
func (c *cellCtx) expr(e ast.Expr) ast.Expr {
	orig := e
	for _, ps := range passes {
		if ps.expr == nil {
			continue
		}
		if r := ps.expr(c, e); r != e {
			e = r
			break
		}
	}
	for _, ps := range passes {
		if ps.wrap != nil {
			e = ps.wrap(c, orig, e)
		}
	}
	return e
}

// typedDefines writes the top-level `a, b := f()`, `var a, b = f()` and `var a, b T = f()` of a
// cell as
//
//	var a T1
//	var b T2
//	a, b = f()
//
// with the types the check found. yaegi v0.16.1 cannot type many short declarations in its
// global scope (`_, ok := m[k]`, `v, ok := <-ch`, `x := os.Args[0]`), and runs every one of them
// with the types written out; a global declared with its type and a generic value
// (`var f func(int) int = double[int]`) it leaves broken, silently, and assigned it works. A variable the session already has with the same type is
// assigned, not declared again, so the functions that use it keep seeing it.
func (c *cellCtx) typedDefines(list []ast.Stmt) []ast.Stmt {
	if c.checked == nil {
		return list
	}
	var out []ast.Stmt
	for _, st := range list {
		out = append(out, c.typedDefine(st)...)
	}
	return out
}

func (c *cellCtx) typedDefine(st ast.Stmt) []ast.Stmt {
	keep := []ast.Stmt{st}
	switch st := st.(type) {
	case *ast.AssignStmt:
		if st.Tok == token.ASSIGN {
			return append(c.blankCommaOk(st), st)
		}
		if st.Tok != token.DEFINE {
			return keep
		}
		decls, ok := c.varDecls(st.Lhs, st.TokPos)
		if !ok {
			return keep
		}
		st.Tok = token.ASSIGN
		return append(append(decls, c.blankCommaOk(st)...), st)
	case *ast.DeclStmt:
		g, ok := st.Decl.(*ast.GenDecl)
		if !ok || g.Tok != token.VAR || len(g.Specs) != 1 {
			return keep
		}
		vs := g.Specs[0].(*ast.ValueSpec)
		if len(vs.Values) == 0 {
			return keep
		}
		lhs := make([]ast.Expr, len(vs.Names))
		for i, id := range vs.Names {
			lhs[i] = id
		}
		decls, ok := c.varDecls(lhs, st.Pos())
		if !ok {
			return keep
		}
		return append(decls, &ast.AssignStmt{Lhs: lhs, Tok: token.ASSIGN, TokPos: st.Pos(), Rhs: vs.Values})
	}
	return keep
}

// blankCommaOk gives the blank of a top-level `_, ok = <-ch` (or m[k], x.(T)) a variable of its
// own, declared before it: yaegi v0.16.1 assigns such a receive to the blank's neighbour in its
// global frame and panics. It returns the declaration, nil when there is nothing to do.
func (c *cellCtx) blankCommaOk(st *ast.AssignStmt) []ast.Stmt {
	if len(st.Lhs) != 2 || len(st.Rhs) != 1 {
		return nil
	}
	id, ok := st.Lhs[0].(*ast.Ident)
	if !ok || id.Name != "_" {
		return nil
	}
	tuple, ok := c.checked.info.Types[st.Rhs[0]].Type.(*types.Tuple)
	if !ok || tuple.Len() != 2 {
		return nil
	}
	t := c.newStateVar(tuple.At(0).Type()).typeSrc
	if t == "" {
		return nil
	}
	te, err := parser.ParseExprFrom(c.s.fset, scopeFile, t, 0)
	if err != nil {
		return nil
	}
	c.tmp++
	name := fmt.Sprintf("__gptnotes_blank%d_%d", c.id, c.tmp)
	st.Lhs[0] = &ast.Ident{Name: name, NamePos: id.Pos()}
	return []ast.Stmt{&ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, TokPos: st.Pos(),
		Specs: []ast.Spec{&ast.ValueSpec{Names: []*ast.Ident{{Name: name, NamePos: id.Pos()}}, Type: te}}}}}
}

// varDecls declares the new variables among lhs with their checked types; ok is false when a
// type cannot be written with the names the cell sees.
func (c *cellCtx) varDecls(lhs []ast.Expr, pos token.Pos) (decls []ast.Stmt, ok bool) {
	if c.definedHere == nil {
		c.definedHere = map[string]string{}
	}
	type decl struct {
		id *ast.Ident
		t  ast.Expr
	}
	var ds []decl
	for _, l := range lhs {
		id, isIdent := l.(*ast.Ident)
		if !isIdent {
			return nil, false
		}
		if id.Name == "_" {
			continue
		}
		obj := c.checked.info.Defs[id]
		if obj == nil {
			continue // assigned, not declared
		}
		v := c.newStateVar(obj.Type())
		if v.typeSrc == "" {
			return nil, false
		}
		if t, seen := c.definedHere[id.Name]; seen && t == v.typeSrc {
			continue
		}
		if old := c.s.typed.vars[id.Name]; old != nil && old.typeSrc == v.typeSrc && !c.forgotten(id.Name) && c.definedHere[id.Name] == "" {
			continue
		}
		t, err := parser.ParseExprFrom(c.s.fset, scopeFile, v.typeSrc, 0)
		if err != nil {
			return nil, false
		}
		ds = append(ds, decl{id, t})
	}
	for _, d := range ds {
		c.definedHere[d.id.Name] = c.newStateVar(c.checked.info.Defs[d.id].Type()).typeSrc
		decls = append(decls, &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, TokPos: pos,
			Specs: []ast.Spec{&ast.ValueSpec{Names: []*ast.Ident{{Name: d.id.Name, NamePos: d.id.Pos()}}, Type: d.t}}}})
	}
	return decls, true
}

// forgotten reports whether the cell takes name back from the interpreter before it runs.
func (c *cellCtx) forgotten(name string) bool {
	if c.change == nil {
		return false
	}
	for _, n := range c.change.forget {
		if n == name {
			return true
		}
	}
	return false
}
