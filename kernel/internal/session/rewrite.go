package session

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strconv"
)

// The rewrites close gaps between Go 1.26 and yaegi v0.16.1 on the cell's AST before yaegi sees
// it. Each one is small and local:
//
//   - go f(x): evaluate f and x now, run the call in a goroutine whose panic is recovered and
//     reported to the cell instead of killing the kernel;
//   - for i := range n (n an integer): a three-clause loop;
//   - per-iteration loop variables (Go 1.22): a loop body that captures its variable (closure, go,
//     defer, &v) works on a fresh copy each iteration;
//   - method expressions T.M: a function literal calling the method;
//   - min/max with mixed untyped constants: arguments reordered so the typed one fixes T;
//   - type switches binding a variable (switch x := v.(type)): the binding moves into each case;
//   - a top-level defer runs when the cell ends, once;
//   - new(expr) (Go 1.26): a function literal returning the address of a new variable set to expr;
//   - calls of a cell's generic functions (Go 1.21 inference): the inferred type arguments
//     written out;
//   - panic(v) with v nil (Go 1.21): a panic with a *runtime.PanicNilError.

// rewrite applies every rewrite to every piece.
func (c *cellCtx) rewrite() {
	c.newCalls = c.newValueCalls()
	c.typeArgs = c.inferredTypeArgs()
	c.stores = c.interfaceStores()
	c.mainFunc()
	for i := range c.pieces {
		c.rewritePiece(&c.pieces[i])
	}
}

// mainFunc renames a cell's func main and calls it once, right after its declaration. yaegi
// would run a function named main after compiling every later piece of every later cell. Its
// body starts with a fresh command line (flag.CommandLine), as a new process would have.
// References to main in any cell follow the rename.
func (c *cellCtx) mainFunc() {
	const renamed = "__gptnotes_main"
	var out []piece
	for _, p := range c.pieces {
		root := p.root()
		replaceExprs(root, func(e ast.Expr) ast.Expr {
			if id, ok := e.(*ast.Ident); ok && id.Name == "main" {
				id.Name = renamed
			}
			return e
		})
		out = append(out, p)
		if p.kind != declPiece {
			continue
		}
		for _, d := range p.file.Decls {
			if f, ok := d.(*ast.FuncDecl); ok && f.Recv == nil && f.Name.Name == "main" {
				f.Name.Name = renamed
				// Each run of main sees the command line of a program just started.
				fresh := &ast.ExprStmt{X: &ast.CallExpr{Fun: runtimeFuncAt("FreshCommandLine", f.Body.Lbrace), Lparen: f.Body.Lbrace, Rparen: f.Body.Lbrace}}
				f.Body.List = append([]ast.Stmt{fresh}, f.Body.List...)
				// Positions inside the cell: yaegi finds a piece's imports by its file name.
				call := &ast.ExprStmt{X: &ast.CallExpr{Fun: &ast.Ident{Name: renamed, NamePos: f.Name.Pos()}, Lparen: f.End(), Rparen: f.End()}}
				body := &ast.BlockStmt{Lbrace: f.Pos(), List: []ast.Stmt{call}, Rbrace: f.End()}
				out = append(out, piece{kind: stmtPiece, start: p.end, end: p.end, body: body})
			}
		}
	}
	c.pieces = out
}

func (c *cellCtx) rewritePiece(p *piece) {
	c.deferredLiterals(p.root())
	c.closuresInLoops(p.root())
	c.selectJumps(p.root())
	c.methodValues(p.root())
	switch p.kind {
	case declPiece:
		for _, d := range p.file.Decls {
			if f, ok := d.(*ast.FuncDecl); ok && f.Body != nil {
				c.inFunc++
				f.Body.List = c.stmts(f.Body.List)
				c.inFunc--
			}
		}
	case stmtPiece:
		list := c.typedDefines(p.body.List)
		if p == &c.pieces[len(c.pieces)-1] {
			c.wrapDefers = deferWrapped(list)
		}
		p.body.List = c.topStmts(list)
	}
	zeroNamedResults(p.root())
	replaceExprs(p.root(), c.expr)
}

// zeroNamedResults starts every function with named results by setting them to their zero
// values (`s = *new(int)`). yaegi v0.16.1 reuses a function's frame when the function is called
// again from the same call site in a loop, so named results start from the previous call's
// values: `func sum(n int) (s int) { for …; s += i }` in a loop returns running totals.
func zeroNamedResults(root ast.Node) {
	ast.Inspect(root, func(n ast.Node) bool {
		var ft *ast.FuncType
		var body *ast.BlockStmt
		switch n := n.(type) {
		case *ast.FuncDecl:
			ft, body = n.Type, n.Body
		case *ast.FuncLit:
			ft, body = n.Type, n.Body
		}
		if ft == nil || body == nil || ft.Results == nil {
			return true
		}
		var zero []ast.Stmt
		for _, f := range ft.Results.List {
			for _, name := range f.Names {
				if name.Name == "_" {
					continue
				}
				zero = append(zero, &ast.AssignStmt{
					Lhs: []ast.Expr{ast.NewIdent(name.Name)}, Tok: token.ASSIGN, TokPos: body.Lbrace,
					Rhs: []ast.Expr{&ast.StarExpr{X: &ast.CallExpr{Fun: ast.NewIdent("new"), Args: []ast.Expr{f.Type}}}},
				})
			}
		}
		body.List = append(zero, body.List...)
		return true
	})
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
		c.inFunc++
		s = c.stmt(s)
		c.inFunc--
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

// switchInitOutside writes `switch init; tag { … }` as `{ init; switch tag { … } }`, with
// labeled the switch or its labeled statement: yaegi v0.16.1 matches no case of a switch
// with an init statement whose cases are constants of a compiled type (`switch v :=
// reflect.ValueOf(x); v.Kind() { case reflect.String: … }` fell to default, with no error).
func switchInitOutside(sw *ast.SwitchStmt, labeled ast.Stmt) ast.Stmt {
	if sw.Init == nil {
		return labeled
	}
	init := sw.Init
	sw.Init = nil
	return &ast.BlockStmt{Lbrace: labeled.Pos(), List: []ast.Stmt{init, labeled}, Rbrace: labeled.End()}
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

// stmt rewrites one statement and the statements nested in it.
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
		c.loopVarFor(s)
	case *ast.RangeStmt:
		s.Body.List = c.stmts(s.Body.List)
		c.loopVarRange(s)
		if f := c.rangeInt(s); f != nil {
			return f
		}
	case *ast.SwitchStmt:
		for _, cc := range s.Body.List {
			cc.(*ast.CaseClause).Body = c.stmts(cc.(*ast.CaseClause).Body)
		}
		return switchInitOutside(s, s)
	case *ast.TypeSwitchStmt:
		for _, cc := range s.Body.List {
			cc.(*ast.CaseClause).Body = c.stmts(cc.(*ast.CaseClause).Body)
		}
		if st := c.typeSwitchChain(s); st != nil {
			return st
		}
		if st := c.typeSwitchBinding(s); st != nil {
			return st
		}
	case *ast.SelectStmt:
		for _, cc := range s.Body.List {
			cc.(*ast.CommClause).Body = c.stmts(cc.(*ast.CommClause).Body)
		}
	case *ast.LabeledStmt:
		if sw, ok := s.Stmt.(*ast.SwitchStmt); ok {
			for _, cc := range sw.Body.List {
				cc.(*ast.CaseClause).Body = c.stmts(cc.(*ast.CaseClause).Body)
			}
			return switchInitOutside(sw, s) // the label stays on the switch
		}
		s.Stmt = c.stmt(s.Stmt)
	case *ast.GoStmt:
		return c.goStmt(s)
	}
	return s
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
			c.inFunc++
			n.Body.List = c.stmts(n.Body.List)
			c.inFunc--
			return false
		}
		return true
	})
}

// --- go statements -------------------------------------------------------------------------

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

// --- range over int ------------------------------------------------------------------------

// rangeInt turns `for i := range n`, n an integer, into `for i, __n := n-n, n; i < __n; i++`.
// (n-n gives i the type of n, as Go does; a call is not evaluated twice: i is then an int.)
// When n's kind cannot be told from the cell, the loop is left alone and remembered: if yaegi
// then fails, retryRewrite converts it too.
func (c *cellCtx) rangeInt(s *ast.RangeStmt) ast.Stmt {
	if s.Value != nil || (s.Key != nil && s.Tok != token.DEFINE) {
		return nil
	}
	switch c.kindOf(s.X) {
	case kindInt:
	case kindUnknown:
		if !c.rangeUnknownAsInt {
			c.unknownRanges = append(c.unknownRanges, s)
			return nil
		}
	default:
		return nil
	}
	key := "__i"
	if id, ok := s.Key.(*ast.Ident); ok && id.Name != "_" {
		key = id.Name
	}
	c.tmp++
	n := fmt.Sprintf("__n%d", c.tmp)
	var zero ast.Expr = &ast.BasicLit{Kind: token.INT, Value: "0"}
	switch s.X.(type) {
	case *ast.Ident, *ast.SelectorExpr, *ast.BasicLit:
		zero = &ast.BinaryExpr{X: s.X, Op: token.SUB, Y: s.X}
	}
	return &ast.ForStmt{
		For: s.For,
		Init: &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent(key), ast.NewIdent(n)}, Tok: token.DEFINE,
			Rhs: []ast.Expr{zero, s.X}, TokPos: s.TokPos},
		Cond: &ast.BinaryExpr{X: ast.NewIdent(key), Op: token.LSS, Y: ast.NewIdent(n)},
		Post: &ast.IncDecStmt{X: ast.NewIdent(key), Tok: token.INC},
		Body: s.Body,
	}
}

// --- per-iteration loop variables ----------------------------------------------------------

// loopVarRange gives each iteration its own copies of the range variables when the body can
// keep a reference to them. It reports whether it did.
func (c *cellCtx) loopVarRange(s *ast.RangeStmt) bool {
	if s.Tok != token.DEFINE || !capturesVars(s.Body) {
		return false
	}
	return c.copyLoopVars(s.Body, s.Key, s.Value) != nil
}

// deferredLiterals rewrites `defer func() { … }()` in a loop body, when the literal reads the
// loop's variables, into `{ __deferN := func() { … }; defer __deferN() }`. yaegi v0.16.1 makes a
// deferred literal only when the deferred calls run, with the last iteration's variables (2 2 2
// where Go prints 2 1 0); a function value made in its iteration keeps them (closuresInLoops).
// Its arguments are bound at the defer statement (stmts).
func (c *cellCtx) deferredLiterals(root ast.Node) {
	if c.checked == nil {
		return
	}
	forEachLoop(root, func(loop ast.Node, body *ast.BlockStmt) {
		ast.Inspect(body, func(m ast.Node) bool {
			var list []ast.Stmt
			switch b := m.(type) {
			case *ast.FuncLit:
				return false // its defers run when it returns, in the iteration
			case *ast.BlockStmt:
				list = b.List
			case *ast.CaseClause:
				list = b.Body
			case *ast.CommClause:
				list = b.Body
			}
			for i, st := range list {
				d, ok := st.(*ast.DeferStmt)
				if !ok {
					continue
				}
				lit, ok := d.Call.Fun.(*ast.FuncLit)
				if !ok || len(c.loopVarsRead(loop, lit)) == 0 {
					continue
				}
				c.tmp++
				name := fmt.Sprintf("__defer%d", c.tmp)
				list[i] = &ast.BlockStmt{Lbrace: d.Pos(), Rbrace: d.End(), List: []ast.Stmt{
					&ast.AssignStmt{Lhs: []ast.Expr{&ast.Ident{Name: name, NamePos: d.Pos()}}, Tok: token.DEFINE,
						TokPos: d.Pos(), Rhs: []ast.Expr{lit}},
					&ast.DeferStmt{Defer: d.Defer, Call: &ast.CallExpr{Fun: &ast.Ident{Name: name, NamePos: d.Pos()},
						Lparen: d.Call.Lparen, Args: d.Call.Args, Ellipsis: d.Call.Ellipsis, Rparen: d.Call.Rparen}},
				}}
			}
			return true
		})
	})
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

// --- expressions: method expressions, min and max ------------------------------------------

func (c *cellCtx) expr(e ast.Expr) ast.Expr {
	if store, ok := c.stores[e]; ok {
		return store(c.exprOnly(e))
	}
	return c.exprOnly(e)
}

func (c *cellCtx) exprOnly(e ast.Expr) ast.Expr {
	switch e := e.(type) {
	case *ast.Ident:
		if args := c.typeArgs[e]; len(args) == 1 {
			return &ast.IndexExpr{X: e, Lbrack: e.End(), Index: args[0], Rbrack: e.End()}
		} else if args != nil {
			return &ast.IndexListExpr{X: e, Lbrack: e.End(), Indices: args, Rbrack: e.End()}
		}
	case *ast.SelectorExpr:
		if f := c.genericOfPrelude(e); f != nil {
			return f
		}
		if args := c.typeArgs[e.Sel]; len(args) > 0 { // maps.Clone → maps.Clone[M, K, V]
			return &ast.IndexListExpr{X: e, Lbrack: e.End(), Indices: args, Rbrack: e.End()}
		}
		if f := c.methodExpr(e); f != nil {
			return f
		}
	case *ast.IndexExpr:
		if sel, ok := e.X.(*ast.IndexListExpr); ok && c.typeArgs[genericName(sel.X)] != nil {
			return sel // maps.Clone[M] became maps.Clone[M, K, V][M]: the whole list replaces M
		}
	case *ast.IndexListExpr:
		if sel, ok := e.X.(*ast.IndexListExpr); ok && c.typeArgs[genericName(sel.X)] != nil {
			return sel
		}
	case *ast.CallExpr:
		if t, ok := c.newCalls[e]; ok {
			return c.newValueLit(e, t)
		}
		if c.recoverCall(e) {
			return recoveredCall(e)
		}
		if j := c.jsonCall(e); j != ast.Expr(e) {
			return j
		}
		if mm := c.minMaxArgs(e); mm != ast.Expr(e) {
			return mm
		}
		c.wrappedErrors(e)
		c.displayArgs(e)
		c.panicArg(e)
	}
	return e
}

// panicArg makes panic(v), v nil, panic with a *runtime.PanicNilError as Go 1.21 does: an
// argument that may be nil (untyped nil, or of interface type) goes through the prelude's
// __gptnotes_panicValue. yaegi v0.16.1 panics with nil, and recover() then returns a
// reflect.Value.
func (c *cellCtx) panicArg(call *ast.CallExpr) {
	id, ok := call.Fun.(*ast.Ident)
	if !ok || len(call.Args) != 1 || c.checked == nil || c.checked.info.Uses[id] != types.Universe.Lookup("panic") {
		return
	}
	tv, ok := c.checked.info.Types[call.Args[0]]
	if !ok {
		return
	}
	if _, isIface := tv.Type.Underlying().(*types.Interface); isIface || tv.IsNil() {
		arg := call.Args[0]
		call.Args[0] = &ast.CallExpr{Fun: &ast.Ident{Name: "__gptnotes_panicValue", NamePos: arg.Pos()},
			Lparen: arg.Pos(), Args: []ast.Expr{arg}, Rparen: arg.End()}
	}
}

// --- inferred type arguments, Go 1.21 -----------------------------------------------------------

// inferredTypeArgs finds the uses of the cell's generic functions whose type arguments the check
// inferred, with those arguments written out: add(1, 2.5) becomes add[float64](1, 2.5). yaegi
// v0.16.1 infers from the first argument alone (add(1, 2.5) is 3, silently), cannot pass a
// generic function as a value (apply(xs, double)) nor infer from an interface's methods; with
// the type arguments written it runs all three as Go does. A use whose type arguments cannot be
// written is left to yaegi.
func (c *cellCtx) inferredTypeArgs() map[*ast.Ident][]ast.Expr {
	out := map[*ast.Ident][]ast.Expr{}
	if c.checked == nil {
		return out
	}
	for _, p := range c.pieces {
		explicit := map[*ast.Ident]bool{} // f in f[int](…): written already
		ast.Inspect(p.root(), func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.IndexExpr:
				explicit[genericName(n.X)] = true
			case *ast.IndexListExpr:
				explicit[genericName(n.X)] = true
			case *ast.Ident:
				inst, ok := c.checked.info.Instances[n]
				fn, isFunc := c.checked.info.Uses[n].(*types.Func)
				if !ok || !isFunc || fn.Pkg() == nil || !writesTypeArgs[fn.Pkg().Path()] {
					break
				}
				if explicit[n] && fn.Pkg().Path() == "main" {
					break // maps.Clone[M](m): written in part, every one is written (prelude/maps)
				}
				var args []ast.Expr
				for i := 0; i < inst.TypeArgs.Len(); i++ {
					t := c.typeExpr(inst.TypeArgs.At(i))
					if t == nil {
						return true
					}
					args = append(args, t)
				}
				out[n] = args
			}
			return true
		})
	}
	return out
}

// writesTypeArgs are the packages whose generic functions' calls get every type argument
// written out: the cells' own, and the kernel's source packages maps and cmp (yaegi infers wrong
// or no type arguments for several type parameters and for variadic ones). slices' functions
// take one type parameter, which yaegi infers.
var writesTypeArgs = map[string]bool{"main": true, "maps": true, "cmp": true}

// genericName is the name a generic function is called by in f[…] or pkg.f[…], nil for another
// expression.
func genericName(x ast.Expr) *ast.Ident {
	switch x := x.(type) {
	case *ast.Ident:
		return x
	case *ast.SelectorExpr:
		return x.Sel
	}
	return nil
}

// --- new(expr), Go 1.26 ------------------------------------------------------------------------

// newValue reports whether call is new(expr), the universe's new with an expression for operand
// (Go 1.26: a pointer to a new variable holding expr), and gives the type of that variable.
// yaegi v0.16.1 takes the operand for a type and returns a pointer to a zero value, silently.
func (c *cellCtx) newValue(call *ast.CallExpr) (types.Type, bool) {
	if c.checked == nil || len(call.Args) != 1 {
		return nil, false
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || c.checked.info.Uses[id] != types.Universe.Lookup("new") {
		return nil, false // not a call of new, or a cell's own new
	}
	if tv, ok := c.checked.info.Types[call.Args[0]]; !ok || tv.IsType() {
		return nil, false
	}
	ptr, ok := c.typeOf(call).(*types.Pointer)
	if !ok {
		return nil, false
	}
	return ptr.Elem(), true
}

// typeExpr is t written as the cell sees it, parsed; nil when it cannot be written: a package
// the cell does not import, or an unexported type of another package (http.NoBody's).
func (c *cellCtx) typeExpr(t types.Type) ast.Expr {
	src := c.newStateVar(t).typeSrc
	if src == "" {
		return nil
	}
	e, err := parser.ParseExprFrom(c.s.fset, scopeFile, src, 0)
	if err != nil {
		return nil
	}
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		if sel, isSel := n.(*ast.SelectorExpr); isSel && !sel.Sel.IsExported() {
			ok = false
		}
		return ok
	})
	if !ok {
		return nil
	}
	return e
}

// newValueCalls finds the cell's new(expr) calls, with the type of expr written out, before the
// rewrites replace expressions (the check's types are by node). One whose type the cell cannot
// write was refused by check (gaps.go).
func (c *cellCtx) newValueCalls() map[*ast.CallExpr]ast.Expr {
	calls := map[*ast.CallExpr]ast.Expr{}
	for _, p := range c.pieces {
		ast.Inspect(p.root(), func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if t, ok := c.newValue(call); ok {
				if te := c.typeExpr(t); te != nil {
					calls[call] = te
				}
			}
			return true
		})
	}
	return calls
}

// newValueLit writes new(expr) as func() *T { var __newN T = expr; return &__newN }().
func (c *cellCtx) newValueLit(call *ast.CallExpr, t ast.Expr) ast.Expr {
	c.tmp++
	v := fmt.Sprintf("__new%d", c.tmp)
	pos := call.Pos()
	decl := &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, TokPos: pos, Specs: []ast.Spec{
		&ast.ValueSpec{Names: []*ast.Ident{{Name: v, NamePos: pos}}, Type: t, Values: []ast.Expr{call.Args[0]}}}}}
	ret := &ast.ReturnStmt{Return: pos, Results: []ast.Expr{&ast.UnaryExpr{OpPos: pos, Op: token.AND, X: &ast.Ident{Name: v, NamePos: pos}}}}
	return &ast.CallExpr{Fun: &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{},
			Results: &ast.FieldList{List: []*ast.Field{{Type: &ast.StarExpr{Star: pos, X: t}}}}},
		Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{decl, ret}, Rbrace: call.End()},
	}, Lparen: call.End(), Rparen: call.End()}
}

// displayArgs makes display.Display(v), v of a cell-declared type with renderer methods, show
// those renderings: compiled code cannot see an interpreted type's methods, so the argument
// becomes func() any { v := expr; return __gptnotes.Rendered(v, "text/html", v.HTML(), …) }().
func (c *cellCtx) displayArgs(call *ast.CallExpr) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok || sel.Sel.Name != "Display" || len(call.Args) != 1 {
		return
	}
	if x, ok := sel.X.(*ast.Ident); !ok || c.importPath(x.Name) != "github.com/gptnotes/gptnotes/kernel/display" {
		return
	}
	stmts := c.renderCalls(call.Args[0], "Rendered")
	if stmts == nil {
		return
	}
	ret := &ast.ReturnStmt{Results: []ast.Expr{stmts[1].(*ast.ExprStmt).X}}
	pos := call.Args[0].Pos()
	call.Args[0] = &ast.CallExpr{Fun: &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{},
			Results: &ast.FieldList{List: []*ast.Field{{Type: ast.NewIdent("any")}}}},
		Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{stmts[0], ret}},
	}, Lparen: pos, Rparen: pos}
}

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
	for _, p := range c.pieces {
		if p.file == nil {
			continue
		}
		for _, d := range p.file.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.TYPE {
				for _, sp := range g.Specs {
					if sp.(*ast.TypeSpec).Name.Name == name {
						return true
					}
				}
			}
		}
	}
	return false
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

// minMaxArgs reorders the arguments of min and max (commutative) so that a non-constant one
// comes first: the prelude's generic min/max infer T from the first argument, and min(3, x)
// with x float64 must not make T int. All-constant calls with a float among them become float64.
// A call on a named type of a compiled package (time.Duration) is computed on its underlying
// type and converted back, time.Duration(min(int64(a), int64(b))): yaegi cannot instantiate the
// prelude's generic function with a compiled named type. min(x) is x. It returns the call, or
// what replaces it.
func (c *cellCtx) minMaxArgs(call *ast.CallExpr) ast.Expr {
	id, ok := call.Fun.(*ast.Ident)
	if !ok || (id.Name != "min" && id.Name != "max") || c.s.funcs[id.Name] != nil || len(call.Args) < 1 {
		return call
	}
	if len(call.Args) == 1 { // min(x) is x; the prelude's min(x, ys...) with no ys does not compile in yaegi
		return &ast.ParenExpr{Lparen: call.Lparen, X: call.Args[0], Rparen: call.Rparen}
	}
	if named, ok := c.typeOf(call).(*types.Named); ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() != "main" {
		basic, isBasic := named.Underlying().(*types.Basic)
		te := c.typeExpr(named)
		if isBasic && te != nil {
			for i, a := range call.Args {
				call.Args[i] = &ast.CallExpr{Fun: ast.NewIdent(basic.Name()), Args: []ast.Expr{a}}
			}
			return &ast.CallExpr{Fun: te, Args: []ast.Expr{call}}
		}
	}
	if len(call.Args) < 2 {
		return call
	}
	if isConst(call.Args[0]) {
		for i, a := range call.Args {
			if !isConst(a) {
				call.Args[0], call.Args[i] = call.Args[i], call.Args[0]
				return call
			}
		}
		for _, a := range call.Args {
			if isFloatLit(a) {
				call.Args[0] = &ast.CallExpr{Fun: ast.NewIdent("float64"), Args: []ast.Expr{call.Args[0]}}
				return call
			}
		}
	}
	return call
}

func isConst(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.UnaryExpr:
		return isConst(e.X)
	case *ast.ParenExpr:
		return isConst(e.X)
	case *ast.BinaryExpr:
		return isConst(e.X) && isConst(e.Y)
	}
	return false
}

func isFloatLit(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return e.Kind == token.FLOAT
	case *ast.UnaryExpr:
		return isFloatLit(e.X)
	case *ast.ParenExpr:
		return isFloatLit(e.X)
	case *ast.BinaryExpr:
		return isFloatLit(e.X) || isFloatLit(e.Y)
	}
	return false
}

// --- type switches binding a variable --------------------------------------------------------

// typeSwitchBinding rewrites `switch x := v.(type) { case T: … case A, B: … }`, which yaegi
// v0.16.1 gets wrong (no case matches a type with methods; in the global scope it does not
// compile), into
//
//	switch __ts := v; __ts.(type) { case T: x := __ts.(T); … case A, B: x := __ts; … }
//
// which it runs correctly. It returns nil for a switch without a binding.
func (c *cellCtx) typeSwitchBinding(s *ast.TypeSwitchStmt) ast.Stmt {
	a, ok := s.Assign.(*ast.AssignStmt)
	if !ok || len(a.Lhs) != 1 || len(a.Rhs) != 1 {
		return nil
	}
	x, ok1 := a.Lhs[0].(*ast.Ident)
	ta, ok2 := a.Rhs[0].(*ast.TypeAssertExpr)
	if !ok1 || !ok2 {
		return nil
	}
	c.tmp++
	ts := fmt.Sprintf("__ts%d", c.tmp)
	for _, cc := range s.Body.List {
		cc := cc.(*ast.CaseClause)
		var val ast.Expr = ast.NewIdent(ts)
		if len(cc.List) == 1 {
			if id, isNil := cc.List[0].(*ast.Ident); !isNil || id.Name != "nil" {
				val = &ast.TypeAssertExpr{X: ast.NewIdent(ts), Type: cc.List[0]}
			}
		}
		bind := []ast.Stmt{
			&ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent(x.Name)}, Tok: token.DEFINE, Rhs: []ast.Expr{val}, TokPos: a.TokPos},
			&ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent("_")}, Tok: token.ASSIGN, Rhs: []ast.Expr{ast.NewIdent(x.Name)}},
		}
		cc.Body = append(bind, cc.Body...)
	}
	init := &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent(ts)}, Tok: token.DEFINE, Rhs: []ast.Expr{ta.X}, TokPos: a.TokPos}
	out := &ast.TypeSwitchStmt{Switch: s.Switch, Init: init,
		Assign: &ast.ExprStmt{X: &ast.TypeAssertExpr{X: ast.NewIdent(ts), Lparen: ta.Lparen, Rparen: ta.Rparen}},
		Body:   s.Body}
	if s.Init == nil {
		return out
	}
	return &ast.BlockStmt{List: []ast.Stmt{s.Init, out}}
}

// --- typed declarations at the top of a cell -----------------------------------------------

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

// --- a top-level defer that recovers ----------------------------------------------------------

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
