package session

import (
	"go/ast"
	"go/token"
	"go/types"
	"strconv"
)

// Storing a cell's value in an interface. yaegi v0.16.1 stores a value of a cell's type with
// methods in an interface variable, element, field or result by reference when the interface has
// methods (var s Shape = sq; sq.side = 10 changes s), as an internal record that prints as
// {0xc000… {…}} when it is any, and a nil pointer of a cell's type as a nil interface (so
// err == nil holds for the classic typed nil, where Go says false). The kernel rewrites each place
// where Go converts such a value to an interface implicitly — an assignment, a variable's
// initial value, a composite literal's element, a channel send, a return, an argument of a
// cell's function — to what Go does:
//   - to any, a value of a type without String, Error, Format or GoString: any(v), which yaegi
//     stores as the value itself (a type with those methods stays a record, so that fmt still
//     finds them on the variable; fmt refuses a record inside a value, records.go);
//   - to an interface with methods, a struct or array held in a variable: a copy,
//     func(v T) T { return v }(x);
//   - to an interface with methods, a pointer of a cell's type that is not &x: a check that
//     refuses a nil one at run time, where Go would keep its type.

// interfaceStores finds the implicit conversions to interfaces the kernel rewrites, each with
// the function that writes its replacement.
func (c *cellCtx) interfaceStores() map[ast.Expr]func(ast.Expr) ast.Expr {
	stores := map[ast.Expr]func(ast.Expr) ast.Expr{}
	if c.checked == nil {
		return stores
	}
	store := func(e ast.Expr, target types.Type) {
		if e == nil || target == nil {
			return
		}
		if w := c.storeRewrite(e, target); w != nil {
			stores[e] = w
		}
	}
	for _, p := range c.pieces {
		var stack []ast.Node
		ast.Inspect(p.root(), func(n ast.Node) bool {
			if n == nil {
				stack = stack[:len(stack)-1]
				return true
			}
			stack = append(stack, n)
			switch n := n.(type) {
			case *ast.AssignStmt:
				if n.Tok == token.ASSIGN && len(n.Lhs) == len(n.Rhs) {
					for i, l := range n.Lhs {
						store(n.Rhs[i], c.typeOf(l))
					}
				}
			case *ast.ValueSpec:
				if n.Type != nil && len(n.Values) == len(n.Names) {
					for _, v := range n.Values {
						store(v, c.typeOf(n.Type))
					}
				}
			case *ast.SendStmt:
				if ch, ok := under(c.typeOf(n.Chan)).(*types.Chan); ok {
					store(n.Value, ch.Elem())
				}
			case *ast.CompositeLit:
				c.elementStores(n, store)
			case *ast.CallExpr:
				c.argumentStores(n, store)
			case *ast.BinaryExpr: // x == Celsius(3), x an interface: Go converts the other side
				if n.Op == token.EQL || n.Op == token.NEQ {
					c.tagStore(n.Y, c.typeOf(n.X), store)
					c.tagStore(n.X, c.typeOf(n.Y), store)
				}
			case *ast.SwitchStmt: // switch x { case Celsius(3): }, x an interface
				if n.Tag != nil {
					for _, cc := range n.Body.List {
						for _, e := range cc.(*ast.CaseClause).List {
							c.tagStore(e, c.typeOf(n.Tag), store)
						}
					}
				}
			case *ast.IndexExpr: // m[Celsius(3)], m a map keyed by an interface
				if m, ok := under(c.typeOf(n.X)).(*types.Map); ok {
					c.tagStore(n.Index, m.Key(), store)
				}
			case *ast.ReturnStmt:
				if sig := c.enclosingSignature(stack); sig != nil && sig.Results().Len() == len(n.Results) {
					for i, r := range n.Results {
						store(r, sig.Results().At(i).Type())
					}
				}
			}
			return true
		})
	}
	return stores
}

func under(t types.Type) types.Type {
	if t == nil {
		return nil
	}
	return t.Underlying()
}

// elementStores calls store with each element of a composite literal and the type it is stored as.
func (c *cellCtx) elementStores(lit *ast.CompositeLit, store func(ast.Expr, types.Type)) {
	switch t := under(c.typeOf(lit)).(type) {
	case *types.Slice:
		for _, e := range lit.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				e = kv.Value
			}
			store(e, t.Elem())
		}
	case *types.Array:
		for _, e := range lit.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				e = kv.Value
			}
			store(e, t.Elem())
		}
	case *types.Map:
		for _, e := range lit.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				store(kv.Key, t.Key())
				store(kv.Value, t.Elem())
			}
		}
	case *types.Struct:
		for i, e := range lit.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				if id, ok := kv.Key.(*ast.Ident); ok {
					for f := 0; f < t.NumFields(); f++ {
						if t.Field(f).Name() == id.Name {
							store(kv.Value, t.Field(f).Type())
						}
					}
				}
			} else if i < t.NumFields() {
				store(e, t.Field(i).Type())
			}
		}
	}
}

// argumentStores calls store with each argument of a call of a cell's function (compiled
// functions get yaegi's own interface wrappers) and its parameter's type, and with the operand of
// a conversion and the type converted to.
func (c *cellCtx) argumentStores(call *ast.CallExpr, store func(ast.Expr, types.Type)) {
	tv, ok := c.checked.info.Types[call.Fun]
	if ok && tv.IsType() && len(call.Args) == 1 { // a conversion, I(x)
		store(call.Args[0], tv.Type)
	}
	if ok && tv.IsBuiltin() {
		if id, isIdent := ast.Unparen(call.Fun).(*ast.Ident); isIdent && id.Name == "append" && len(call.Args) > 1 && !call.Ellipsis.IsValid() {
			if sl, isSlice := under(c.typeOf(call.Args[0])).(*types.Slice); isSlice {
				for _, a := range call.Args[1:] {
					c.tagStore(a, sl.Elem(), store)
				}
			}
		}
		return
	}
	if !ok || tv.IsType() {
		return
	}
	if fn := c.callee(call); fn != nil && fn.Pkg() != nil && fn.Pkg().Path() != "main" {
		if fn.Pkg().Path() == "reflect" {
			return // reflect would name the tag type (tagged.go): it sees the number, as before
		}
		// A compiled or prelude function: only a tagged value needs its tag (tagged.go).
		all := store
		store = func(e ast.Expr, t types.Type) { c.tagStore(e, t, all) }
	}
	sig, ok := under(c.typeOf(call.Fun)).(*types.Signature)
	if !ok {
		return
	}
	params := sig.Params()
	for i, a := range call.Args {
		switch {
		case sig.Variadic() && i >= params.Len()-1:
			if call.Ellipsis.IsValid() {
				return
			}
			store(a, params.At(params.Len()-1).Type().(*types.Slice).Elem())
		case i < params.Len():
			store(a, params.At(i).Type())
		}
	}
}

// tagStore calls store with e and target when e is a value of a tagged type (tagged.go) and
// target an interface: the stores only tagging needs.
func (c *cellCtx) tagStore(e ast.Expr, target types.Type, store func(ast.Expr, types.Type)) {
	if emptyInterface(target) && c.s.tagOf(c.typeOf(e)) != nil {
		store(e, target)
	}
}

// isRuntimeCall reports whether e calls a function of the kernel's runtime (__gptnotes.F(…)).
func isRuntimeCall(e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	id, ok := sel.X.(*ast.Ident)
	return ok && id.Name == "__gptnotes"
}

// enclosingSignature is the signature of the innermost function on the stack of nodes.
func (c *cellCtx) enclosingSignature(stack []ast.Node) *types.Signature {
	for i := len(stack) - 1; i >= 0; i-- {
		switch f := stack[i].(type) {
		case *ast.FuncLit:
			sig, _ := c.typeOf(f).(*types.Signature)
			return sig
		case *ast.FuncDecl:
			if obj := c.checked.info.Defs[f.Name]; obj != nil {
				sig, _ := obj.Type().(*types.Signature)
				return sig
			}
			return nil
		}
	}
	return nil
}

// storeRewrite is the rewrite of e stored as target (nil when none is needed): see the file's
// comment.
func (c *cellCtx) storeRewrite(e ast.Expr, target types.Type) func(ast.Expr) ast.Expr {
	iface, ok := under(target).(*types.Interface)
	if !ok {
		return nil
	}
	src := c.typeOf(e)
	if src == nil || types.IsInterface(src) {
		return nil
	}
	if b, ok := src.(*types.Basic); ok && b.Kind() == types.UntypedNil {
		return nil
	}
	if slot := c.s.tagOf(src); slot != nil && iface.Empty() {
		return func(x ast.Expr) ast.Expr {
			if isRuntimeCall(x) {
				return x // a printing pass's replacement (TypeName, GoSyntax): not the value any more
			}
			return slot.box(x)
		}
	}
	named, isPtr := src, false
	if p, ok := src.(*types.Pointer); ok {
		named, isPtr = p.Elem(), true
	}
	n, ok := named.(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "main" || types.NewMethodSet(src).Len() == 0 {
		return nil
	}
	switch {
	case iface.Empty():
		if isPtr || cellFmtMethod(src) != "" {
			return nil
		}
		return func(x ast.Expr) ast.Expr {
			return &ast.CallExpr{Fun: &ast.Ident{Name: "any", NamePos: x.Pos()}, Lparen: x.Pos(), Args: []ast.Expr{x}, Rparen: x.End()}
		}
	case isPtr:
		if u, ok := ast.Unparen(e).(*ast.UnaryExpr); ok && u.Op == token.AND {
			return nil // &x is never nil
		}
		t := c.typeExpr(src)
		if t == nil {
			return nil
		}
		what := types.TypeString(src, cellQualifier) + " stored as " + types.TypeString(target, cellQualifier)
		return func(x ast.Expr) ast.Expr { return c.nilGuard(x, t, what) }
	default:
		switch under(src).(type) {
		case *types.Struct, *types.Array:
		default:
			return nil
		}
		switch ast.Unparen(e).(type) {
		case *ast.Ident, *ast.SelectorExpr, *ast.IndexExpr, *ast.StarExpr:
		default:
			return nil // a literal or a call's result is a value of its own
		}
		t := c.typeExpr(src)
		if t == nil {
			return nil
		}
		return func(x ast.Expr) ast.Expr { return copyCall(x, t) }
	}
}

// copyCall writes func(v T) T { return v }(x): the argument is a copy of x.
func copyCall(x, t ast.Expr) ast.Expr { return passThrough(x, t) }

// nilGuard writes func(v *T) *T { if v == nil { __gptnotes.NilInInterface(pos, what) }; return v }(x).
func (c *cellCtx) nilGuard(x, t ast.Expr, what string) ast.Expr {
	pos := x.Pos()
	refuse := &ast.ExprStmt{X: &ast.CallExpr{Fun: runtimeFuncAt("NilInInterface", pos), Lparen: pos, Args: []ast.Expr{
		&ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(c.pos(pos))},
		&ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote("a nil " + what)}}, Rparen: pos}}
	check := &ast.IfStmt{If: pos, Cond: &ast.BinaryExpr{X: ast.NewIdent(passed), OpPos: pos, Op: token.EQL, Y: ast.NewIdent("nil")},
		Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{refuse}, Rbrace: pos}}
	return passThrough(x, t, check)
}

// passed is passThrough's parameter.
const passed = "__gptnotes_v"

// passThrough writes func(v T) T { before…; return v }(x).
func passThrough(x, t ast.Expr, before ...ast.Stmt) ast.Expr {
	pos := x.Pos()
	body := append(before, &ast.ReturnStmt{Return: pos, Results: []ast.Expr{ast.NewIdent(passed)}})
	return &ast.CallExpr{Fun: &ast.FuncLit{
		Type: &ast.FuncType{Func: pos,
			Params:  &ast.FieldList{List: []*ast.Field{{Names: []*ast.Ident{{Name: passed, NamePos: pos}}, Type: t}}},
			Results: &ast.FieldList{List: []*ast.Field{{Type: t}}}},
		Body: &ast.BlockStmt{Lbrace: pos, List: body},
	}, Lparen: pos, Args: []ast.Expr{x}, Rparen: x.End()}
}

// nilInInterface is the runtime's NilInInterface: the refusal of a nil pointer stored in an
// interface with methods.
func (s *Session) nilInInterface(pos, what string) {
	s.refuse(refused(pos, nilInInterface, what))
}

// findInterfaceStores finds the cell's stores into interfaces (interfaceStores).
func findInterfaceStores(c *cellCtx) { c.stores = c.interfaceStores() }

// interfaceStoreWrap rewrites each store, orig as the cell wrote it, e as the passes before
// left it.
func interfaceStoreWrap(c *cellCtx, orig, e ast.Expr) ast.Expr {
	if store, ok := c.stores[orig]; ok {
		return store(e)
	}
	return e
}
