package session

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// A rewrite for two faults of yaegi v0.16.1 in a type assertion from a cell's interface to a
// cell's type that is not a pointer (`c, ok := s.(circle)`, a tutorial's first use of
// interfaces). yaegi answers ok as Go does, but a failed comma-ok assertion leaves the variable
// holding what it held before (in a loop, the last iteration's circle) where Go gives the zero
// value, and a failed single-value assertion panics with the interpreter's struct types
// ("interface {} is struct { Xr float64 }, not …") where Go names the types. So
//
//	c, ok := s.(circle)
//
// becomes
//
//	c, ok := func() (circle, bool) {
//		__ca1 := s
//		if __v1, __ok1 := __ca1.(circle); __ok1 { return __v1, true }
//		var __z1 circle
//		return __z1, false
//	}()
//
// and r := s.(rect) a literal that returns the value or panics with Go's runtime error,
// "interface conversion: main.shape is main.circle, not main.rect": the dynamic type's name
// found by asserting to each type of the cells that implements the interface. Type switches on
// such a value are written as a chain of assertions by typeswitch.go, whose clauses only read
// the value when the assertion holds.
//
// An assertion from an empty interface to a cell's named number or string type asks for the
// type's tag type and converts back (tagged.go).
//
// From a compiled interface (error, fmt.Stringer) yaegi holds a cell's value in a wrapper that
// it does not match, or panics on: refused (refuse.go wrongAssertion).

// cellAssertion reports whether a is a type assertion this pass writes: from a value of an
// interface type a cell declares to a cell's type that is neither a pointer nor an interface.
func (c *cellCtx) cellAssertion(a *ast.TypeAssertExpr) bool {
	if a.Type == nil || c.checked == nil {
		return false
	}
	if emptyInterface(c.typeOf(a.X)) && c.s.tagOf(c.typeOf(a.Type)) != nil {
		return true // Celsius held as its tag type (tagged.go)
	}
	return cellInterface(c.typeOf(a.X)) && cellValueType(c.typeOf(a.Type))
}

// cellInterface reports whether t is a non-empty interface type a cell declares.
func cellInterface(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "main" {
		return false
	}
	it, ok := n.Underlying().(*types.Interface)
	return ok && !it.Empty()
}

// cellValueType reports whether t is a type a cell declares that is not an interface (a struct,
// a named number or slice…); a pointer to one is not.
func cellValueType(t types.Type) bool {
	n, ok := types.Unalias(t).(*types.Named)
	return ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "main" && !types.IsInterface(n)
}

// goTypeName is t as Go's runtime (reflect, %T, a failed assertion) names it: main.circle,
// *main.sq, map[string]main.pair[string,int] (no space between type arguments).
func goTypeName(t types.Type) string {
	switch u := t.(type) {
	case *types.Named:
		name := u.Obj().Name()
		if p := u.Obj().Pkg(); p != nil {
			name = p.Name() + "." + name
		}
		if args := u.TypeArgs(); args.Len() > 0 {
			var each []string
			for i := range args.Len() {
				each = append(each, goTypeName(args.At(i)))
			}
			name += "[" + strings.Join(each, ",") + "]"
		}
		return name
	case *types.Alias:
		return goTypeName(types.Unalias(u))
	case *types.Pointer:
		return "*" + goTypeName(u.Elem())
	case *types.Slice:
		return "[]" + goTypeName(u.Elem())
	case *types.Array:
		return fmt.Sprintf("[%d]%s", u.Len(), goTypeName(u.Elem()))
	case *types.Map:
		return "map[" + goTypeName(u.Key()) + "]" + goTypeName(u.Elem())
	}
	return types.TypeString(t, func(p *types.Package) string { return p.Name() })
}

// cellAssertions finds the cell's assertions to write (cellAssertion) before the rewrites
// replace expressions (the check's types are by node): each maps to whether it has the comma-ok
// form (two values assigned, defined or declared).
func (c *cellCtx) cellAssertions() map[*ast.TypeAssertExpr]bool {
	commaOK := map[ast.Expr]bool{}
	twoValues := func(values []ast.Expr, n int) {
		if n == 2 && len(values) == 1 {
			commaOK[ast.Unparen(values[0])] = true
		}
	}
	found := map[*ast.TypeAssertExpr]bool{}
	for _, p := range c.pieces {
		ast.Inspect(p.root(), func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				twoValues(n.Rhs, len(n.Lhs))
			case *ast.ValueSpec:
				twoValues(n.Values, len(n.Names))
			case *ast.TypeAssertExpr: // after its statement: Inspect goes down the tree
				if c.cellAssertion(n) {
					found[n] = commaOK[n]
				}
			}
			return true
		})
	}
	return found
}

// dynamicCandidates are the types of the cells whose values an interface value of type it can
// hold (the type or a pointer to it implements it), but for want: the types a failed assertion's
// message may name.
func (c *cellCtx) dynamicCandidates(it, want types.Type) []types.Type {
	iface, ok := it.Underlying().(*types.Interface)
	if !ok || c.checked.pkg == nil {
		return nil
	}
	var out []types.Type
	scope := c.checked.pkg.Scope()
	names := scope.Names()
	sort.Strings(names)
	for _, name := range names {
		tn, ok := scope.Lookup(name).(*types.TypeName)
		if !ok || tn.IsAlias() {
			continue
		}
		n, ok := tn.Type().(*types.Named)
		if !ok || n.TypeParams().Len() > 0 || types.IsInterface(n) {
			continue
		}
		for _, t := range []types.Type{n, types.NewPointer(n)} {
			if !types.Identical(t, want) && types.Implements(t, iface) {
				out = append(out, t)
			}
		}
	}
	return out
}

// cellAssertionLit writes the assertion a as a function literal called in its place: comma-ok
// or single-value.
func (c *cellCtx) cellAssertionLit(a *ast.TypeAssertExpr, commaOK bool) ast.Expr {
	pos := a.Pos()
	want := c.typeOf(a.Type)
	c.tmp++
	n := c.tmp
	id := func(format string) *ast.Ident {
		return &ast.Ident{Name: fmt.Sprintf(format, n), NamePos: pos}
	}
	typ := func() ast.Expr { return c.typeExprAt(want, pos) }
	subject, v, ok := id("__ca%d"), id("__v%d"), id("__ok%d")
	body := []ast.Stmt{
		&ast.AssignStmt{Lhs: []ast.Expr{subject}, TokPos: pos, Tok: token.DEFINE, Rhs: []ast.Expr{a.X}},
	}
	hit := []ast.Expr{ast.NewIdent(v.Name)}
	if c.s.tagOf(want) != nil { // asked as its tag type, given back as itself: Celsius(__v1)
		hit[0] = &ast.CallExpr{Fun: typ(), Lparen: pos, Args: []ast.Expr{ast.NewIdent(v.Name)}, Rparen: pos}
	}
	results := []*ast.Field{{Type: typ()}}
	if commaOK {
		hit = append(hit, &ast.Ident{Name: "true", NamePos: pos})
		results = append(results, &ast.Field{Type: &ast.Ident{Name: "bool", NamePos: pos}})
	}
	body = append(body, &ast.IfStmt{If: pos,
		Init: &ast.AssignStmt{Lhs: []ast.Expr{v, ok}, TokPos: pos, Tok: token.DEFINE,
			Rhs: []ast.Expr{&ast.TypeAssertExpr{X: ast.NewIdent(subject.Name), Lparen: a.Lparen, Type: c.assertTypeExpr(want, a), Rparen: a.Rparen}}},
		Cond: ast.NewIdent(ok.Name),
		Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{&ast.ReturnStmt{Return: pos, Results: hit}}, Rbrace: pos},
	})
	if commaOK {
		zero := id("__z%d")
		body = append(body,
			&ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, TokPos: pos, Specs: []ast.Spec{
				&ast.ValueSpec{Names: []*ast.Ident{zero}, Type: typ()}}}},
			&ast.ReturnStmt{Return: pos, Results: []ast.Expr{ast.NewIdent(zero.Name), &ast.Ident{Name: "false", NamePos: pos}}})
	} else {
		body = append(body, c.failedAssertion(a, subject.Name, want, n)...)
	}
	return &ast.CallExpr{Fun: &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{}, Results: &ast.FieldList{List: results}},
		Body: &ast.BlockStmt{Lbrace: pos, List: body, Rbrace: a.End()},
	}, Lparen: a.End(), Rparen: a.End()}
}

// failedAssertion is the end of a single-value assertion's literal: the dynamic type's name,
// found among the cells' types, and the panic with Go's runtime error.
//
//	__have1 := ""
//	if _, __ok := __ca1.(circle); __ok { __have1 = "main.circle" } …
//	panic(__gptnotes.AssertionFailed(__ca1, "main.shape", "main.rect", __have1))
func (c *cellCtx) failedAssertion(a *ast.TypeAssertExpr, subject string, want types.Type, n int) []ast.Stmt {
	pos := a.Pos()
	have := fmt.Sprintf("__have%d", n)
	str := func(s string) ast.Expr {
		return &ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: fmt.Sprintf("%q", s)}
	}
	list := []ast.Stmt{&ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent(have)}, TokPos: pos, Tok: token.DEFINE, Rhs: []ast.Expr{str("")}}}
	for _, t := range c.dynamicCandidates(c.typeOf(a.X), want) {
		if !c.tellsApart(t) {
			continue
		}
		te := c.assertTypeExpr(t, a)
		if te == nil {
			continue
		}
		list = append(list, &ast.IfStmt{If: pos,
			Init: &ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent("_"), ast.NewIdent("__ok")}, TokPos: pos, Tok: token.DEFINE,
				Rhs: []ast.Expr{&ast.TypeAssertExpr{X: ast.NewIdent(subject), Type: te}}},
			Cond: ast.NewIdent("__ok"),
			Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{
				&ast.AssignStmt{Lhs: []ast.Expr{ast.NewIdent(have)}, TokPos: pos, Tok: token.ASSIGN, Rhs: []ast.Expr{str(goTypeName(t))}},
			}, Rbrace: pos},
		})
	}
	iface := goTypeName(c.typeOf(a.X))
	if _, named := types.Unalias(c.typeOf(a.X)).(*types.Named); !named && emptyInterface(c.typeOf(a.X)) {
		iface = "interface {}" // any, as Go's runtime names it
	}
	call := &ast.CallExpr{Fun: runtimeFuncAt("AssertionFailed", pos), Lparen: pos, Args: []ast.Expr{
		ast.NewIdent(subject), str(iface), str(goTypeName(want)), ast.NewIdent(have),
	}, Rparen: pos}
	return append(list, &ast.ExprStmt{X: &ast.CallExpr{Fun: &ast.Ident{Name: "panic", NamePos: pos}, Lparen: pos, Args: []ast.Expr{call}, Rparen: pos}})
}

// tellsApart reports whether an assertion to t tells a value of t from others: t is a struct
// (or a pointer to one), which yaegi builds as a type of its own, or a tagged type (tagged.go);
// yaegi's Weekday is the int it is made of.
func (c *cellCtx) tellsApart(t types.Type) bool {
	if c.s.tagOf(t) != nil {
		return true
	}
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	_, isStruct := t.Underlying().(*types.Struct)
	return isStruct
}

// typeExprAt is t written as the cell sees it (typeExpr), a fresh tree each call.
func (c *cellCtx) typeExprAt(t types.Type, pos token.Pos) ast.Expr {
	if p, ok := t.(*types.Pointer); ok {
		if e := c.typeExpr(p.Elem()); e != nil {
			return &ast.StarExpr{Star: pos, X: e}
		}
		return nil
	}
	return c.typeExpr(t)
}

// assertionFailed is the runtime's AssertionFailed: Go's runtime error for a failed assertion
// from an interface value x of type iface to want; have is x's dynamic type's name, "" when the
// kernel did not find it among the cells' types (then x is a compiled type, which %T names).
func (s *Session) assertionFailed(x any, iface, want, have string) error {
	if have == "" {
		have = s.tagName(x) // a cell's type held as its tag type (tagged.go)
	}
	if x == nil {
		return runtimeError(fmt.Sprintf("interface conversion: %s is nil, not %s", iface, want))
	}
	if have == "" {
		have = fmt.Sprintf("%T", x)
	}
	return runtimeError(fmt.Sprintf("interface conversion: %s is %s, not %s", iface, have, want))
}

// findCellAssertions is the pass's cell step (cellAssertions).
func findCellAssertions(c *cellCtx) { c.assertions = c.cellAssertions() }

// cellAssertionExpr is the pass's expression step: each assertion found becomes its literal.
func cellAssertionExpr(c *cellCtx, e ast.Expr) ast.Expr {
	if a, ok := e.(*ast.TypeAssertExpr); ok {
		if commaOK, found := c.assertions[a]; found {
			return c.cellAssertionLit(a, commaOK)
		}
	}
	return e
}
