package session

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// Look-alike struct types: yaegi v0.16.1 builds an interpreted struct type as the reflect struct
// of its fields (reflect.StructOf, which gives it no name), and a named type it interprets (a
// struct, a named number) as the reflect type of its structure; it answers an assertion from an
// interface with reflect's type equality or AssignableTo (canAssertTypes). So
// `type A struct{ X int }` and `type B struct{ X int }` are one type to it once a value is in an
// interface: x.(A) holds for a B, and so do x.(*A) and x.([]A) for pointers and slices of B;
// x.(P) holds for an image.Point when P has its structure, and x.(image.Point) for a P. %T
// (dynformat.go asks by assertions) and == of an any are wrong the same way. No rewrite can
// give the types names; a hidden field that told them apart would show in fmt's %+v and in the
// encoders, and a tag in the tags a cell's program may read and print, so such constructs are
// refused in a cell (refuseLookalikes, formatsLookalike, comparesLookalikes; refusals.go's
// lookalikeStruct). A module package's struct types carry their names in a field tag
// (structnames.go), which shows only to reflection of the whole tag; a module's struct types
// without fields, which have no field to carry it, are refused (modulerefuse.go).

// sameToInterpreter reports whether the interpreter builds a and b as one type: their
// structures are identical once each named type it interprets (interpreted reports which) is
// read as its underlying type. Types of compiled packages keep their names, as reflect does,
// and so do a module's struct types with fields, whose names the kernel writes into their
// first field's tag (structnames.go).
func sameToInterpreter(a, b types.Type, interpreted func(*types.Named) bool) bool {
	seen := map[[2]types.Type]bool{}
	var same func(a, b types.Type) bool
	same = func(a, b types.Type) bool {
		a, b = types.Unalias(a), types.Unalias(b)
		if seen[[2]types.Type{a, b}] {
			return true // a recursive type, compared again inside itself
		}
		seen[[2]types.Type{a, b}] = true
		na, aNamed := a.(*types.Named)
		nb, bNamed := b.(*types.Named)
		if aNamed && namedStruct(na, interpreted) || bNamed && namedStruct(nb, interpreted) {
			// A module's struct type carries its name (structnames.go): one type only to
			// itself, or to another instance of its generic declaration.
			if !aNamed || !bNamed || !sameDecl(na.Origin(), nb.Origin()) {
				return false
			}
		}
		if n, ok := a.(*types.Named); ok && interpreted(n) {
			a = n.Underlying()
		}
		if n, ok := b.(*types.Named); ok && interpreted(n) {
			b = n.Underlying()
		}
		switch a := a.(type) {
		case *types.Pointer:
			b, ok := b.(*types.Pointer)
			return ok && same(a.Elem(), b.Elem())
		case *types.Slice:
			b, ok := b.(*types.Slice)
			return ok && same(a.Elem(), b.Elem())
		case *types.Array:
			b, ok := b.(*types.Array)
			return ok && a.Len() == b.Len() && same(a.Elem(), b.Elem())
		case *types.Map:
			b, ok := b.(*types.Map)
			return ok && same(a.Key(), b.Key()) && same(a.Elem(), b.Elem())
		case *types.Chan:
			b, ok := b.(*types.Chan)
			return ok && a.Dir() == b.Dir() && same(a.Elem(), b.Elem())
		case *types.Struct:
			b, ok := b.(*types.Struct)
			if !ok || a.NumFields() != b.NumFields() {
				return false
			}
			for i := range a.NumFields() {
				fa, fb := a.Field(i), b.Field(i)
				if fa.Name() != fb.Name() || fa.Embedded() != fb.Embedded() || a.Tag(i) != b.Tag(i) || !same(fa.Type(), fb.Type()) {
					return false
				}
			}
			return true
		}
		return types.Identical(a, b)
	}
	return same(a, b)
}

// lookalikeOf is a named struct type among structs that the interpreter cannot tell from a
// named struct type that target names, and that a value of the interface from may hold in its
// place: the type target names, the look-alike, and whether there is one. Target is that type,
// a pointer to it, or, when from has no methods, a slice, array, map or unnamed struct holding
// it. yaegi asserts a value in an interface by reflect's assignability (canAssertTypes), and its
// struct types have no names: so a compiled struct type (image.Point) and an interpreted one of
// its structure pass for each other too, though only as values (*image.Point is not assignable
// to a pointer to the interpreter's struct).
func lookalikeOf(target types.Type, from *types.Interface, structs []*types.Named, interpreted func(*types.Named) bool) (named, lookalike *types.Named, found bool) {
	target = types.Unalias(target)
	holds := func(t types.Type) bool { return types.Implements(t, from) }
	// find looks for a look-alike b of a whose wrap(b) from may hold; compiled says whether
	// one of them may be a compiled type.
	find := func(a *types.Named, wrap func(*types.Named) types.Type, compiled bool) bool {
		for _, b := range structs {
			if sameDecl(a, b) || !interpreted(a) && !interpreted(b) || !compiled && (!interpreted(a) || !interpreted(b)) {
				continue
			}
			if namedStruct(a, interpreted) || namedStruct(b, interpreted) {
				continue // one carries its name (structnames.go)
			}
			if holds(wrap(b)) && sameToInterpreter(a.Underlying(), b.Underlying(), interpreted) {
				named, lookalike, found = a, b, true
				return true
			}
		}
		return false
	}
	isStruct := func(t types.Type) (*types.Named, bool) {
		n, ok := types.Unalias(t).(*types.Named)
		if !ok || n.TypeParams().Len() > 0 {
			return nil, false
		}
		_, ok = n.Underlying().(*types.Struct)
		return n, ok
	}
	if a, ok := isStruct(target); ok {
		find(a, func(b *types.Named) types.Type { return b }, true)
		return
	}
	if p, ok := target.(*types.Pointer); ok {
		if a, ok := isStruct(p.Elem()); ok {
			find(a, func(b *types.Named) types.Type { return types.NewPointer(b) }, false)
			return
		}
	}
	if _, isNamed := target.(*types.Named); isNamed || !from.Empty() {
		return // an unnamed composite has no methods: only an empty interface holds it
	}
	inAny := func(*types.Named) types.Type { return types.NewInterfaceType(nil, nil) }
	var walk func(t types.Type, depth int) bool
	walk = func(t types.Type, depth int) bool {
		if depth > 8 {
			return false
		}
		if a, ok := isStruct(t); ok {
			return find(a, inAny, false)
		}
		switch t := types.Unalias(t).(type) {
		case *types.Pointer:
			return walk(t.Elem(), depth+1)
		case *types.Slice:
			return walk(t.Elem(), depth+1)
		case *types.Array:
			return walk(t.Elem(), depth+1)
		case *types.Chan:
			return walk(t.Elem(), depth+1)
		case *types.Map:
			return walk(t.Key(), depth+1) || walk(t.Elem(), depth+1)
		case *types.Struct:
			for i := range t.NumFields() {
				if walk(t.Field(i).Type(), depth+1) {
					return true
				}
			}
		}
		return false
	}
	walk(target, 0)
	return
}

// sameDecl reports whether a and b are one declaration's type: a cell is checked piece by piece
// and then whole, and each check makes its own objects.
func sameDecl(a, b *types.Named) bool {
	return a == b || a.Obj().Pos() == b.Obj().Pos() && a.Obj().Name() == b.Obj().Name()
}

// cellStructs are the named struct types a cell's value may have: the session's (the package
// scope of the last check), the ones the cell declares inside its functions, in order, and the
// exported ones of the compiled packages the session imports.
func (c *cellCtx) cellStructs() []*types.Named {
	var out []*types.Named
	add := func(obj types.Object) {
		tn, ok := obj.(*types.TypeName)
		if !ok || tn.IsAlias() {
			return
		}
		n, ok := tn.Type().(*types.Named)
		if !ok || n.TypeParams().Len() > 0 {
			return
		}
		if _, ok := n.Underlying().(*types.Struct); !ok {
			return
		}
		for _, m := range out {
			if sameDecl(m, n) {
				return
			}
		}
		out = append(out, n)
	}
	scope := c.checked.pkg.Scope()
	names := scope.Names()
	sort.Strings(names)
	for _, name := range names {
		add(scope.Lookup(name))
	}
	var local []types.Object
	for id, obj := range c.checked.info.Defs {
		if obj != nil && obj.Pkg() != nil && obj.Parent() != obj.Pkg().Scope() && obj.Parent() != nil {
			if _, ok := obj.(*types.TypeName); ok && id.Name != "_" {
				local = append(local, obj)
			}
		}
	}
	sort.Slice(local, func(i, j int) bool { return local[i].Pos() < local[j].Pos() })
	for _, obj := range local {
		add(obj)
	}
	for _, p := range c.checked.pkg.Imports() { // compiled packages' exported struct types
		if isSourcePackage(p.Path(), "main") {
			continue
		}
		for _, name := range p.Scope().Names() {
			if obj := p.Scope().Lookup(name); obj.Exported() {
				add(obj)
			}
		}
	}
	return out
}

// lookalikeStructs is cellStructs, worked out once per cell.
func (c *cellCtx) lookalikeStructs() []*types.Named {
	if c.structs == nil {
		c.structs = c.cellStructs()
	}
	return c.structs
}

// formatsLookalike finds %T or %#v of an interface value that may hold a struct type with a
// look-alike: dynformat.go names the value's type by asserting it to each of the cells' types
// it may be, and the interpreter would answer yes for the look-alike's values too, so fmt would
// print the wrong name. It returns what to refuse (refusals.go's lookalikeStruct), nil when
// there is nothing.
func (c *cellCtx) formatsLookalike(call *ast.CallExpr) []string {
	if c.checked == nil || c.checked.pkg == nil {
		return nil
	}
	var found []string
	c.verbsWithArgs(call, func(verb string, arg ast.Expr) {
		if found != nil || !(strings.HasSuffix(verb, "T") || strings.HasSuffix(verb, "v") && strings.Contains(verb, "#")) {
			return
		}
		t := c.typeOf(arg)
		if t == nil || !types.IsInterface(t) {
			return
		}
		from := t.Underlying().(*types.Interface)
		for _, cand := range c.dynamicCandidates(t, nil) {
			if a, b, ok := lookalikeOf(cand, from, c.lookalikeStructs(), interpretedType); ok {
				found = c.lookalikeFound(verb+" of "+types.ExprString(arg), a, b, t)
				return
			}
		}
	})
	return found
}

// comparesLookalikes finds x == y or x != y with x of an empty interface type and y either of
// a cell's struct type with a look-alike, or of an empty interface type too while the session
// has look-alikes: yaegi holds a cell's value in an any as the bare reflect value, and the two
// types' values compare equal (var x any = B{1}; x == A{1} was true). In an interface with
// methods, the interpreter keeps the type with the value and compares them as Go does, and a
// compiled type's value never equals the interpreter's. It returns what to refuse
// (lookalikeStruct), nil when there is nothing.
func (c *cellCtx) comparesLookalikes(b *ast.BinaryExpr) []string {
	if c.checked == nil || c.checked.pkg == nil || b.Op != token.EQL && b.Op != token.NEQ {
		return nil
	}
	xt, yt := c.typeOf(b.X), c.typeOf(b.Y)
	if xt == nil || yt == nil {
		return nil
	}
	if !emptyInterface(xt) {
		xt, yt = yt, xt
	}
	if !emptyInterface(xt) {
		return nil
	}
	var interp []*types.Named
	for _, n := range c.lookalikeStructs() {
		if interpretedType(n) {
			interp = append(interp, n)
		}
	}
	from := xt.Underlying().(*types.Interface)
	targets := []types.Type{yt}
	if emptyInterface(yt) {
		targets = nil
		for _, n := range interp {
			targets = append(targets, n)
		}
	}
	for _, t := range targets {
		if n, ok := types.Unalias(t).(*types.Named); !ok || !interpretedType(n) {
			continue // a pointer (equal only to itself), an unnamed or a compiled type
		}
		if a, l, ok := lookalikeOf(t, from, interp, interpretedType); ok {
			return c.lookalikeFound(types.ExprString(b), a, l, xt)
		}
	}
	return nil
}

// lookalikeFound is what the refusal of construct (an assertion, a case, a format, a comparison)
// names: the construct, the two types, their structure and the interface type holding them. Two
// types of one name (a function's own T and the cell's T) are named with where each is declared.
func (c *cellCtx) lookalikeFound(construct string, a, b *types.Named, in types.Type) []string {
	an, bn := types.TypeString(a, cellQualifier), types.TypeString(b, cellQualifier)
	if an == bn {
		an += " (declared at " + c.pos(a.Obj().Pos()) + ")"
		bn += " (declared at " + c.pos(b.Obj().Pos()) + ")"
	}
	return []string{construct, an, bn, types.TypeString(a.Underlying(), cellQualifier), types.TypeString(in, cellQualifier)}
}

// interpretedType reports whether the interpreter builds n from source: a cell's type or a
// module package's.
func interpretedType(n *types.Named) bool {
	p := n.Obj().Pkg()
	return p != nil && isSourcePackage(p.Path(), "main")
}

// lookalikeAssertion finds, for a type assertion or type switch case to target from a value x,
// a look-alike of the struct type target names that x may hold (lookalikeOf): what to refuse
// (refusals.go's lookalikeStruct), nil when there is none.
func (c *cellCtx) lookalikeAssertion(x, target ast.Expr, what string) []string {
	if c.checked == nil || c.checked.pkg == nil || isNilIdent(target) {
		return nil
	}
	xt, tt := c.typeOf(x), c.typeOf(target)
	if xt == nil || tt == nil {
		return nil
	}
	from, ok := xt.Underlying().(*types.Interface)
	if !ok {
		return nil
	}
	a, b, found := lookalikeOf(tt, from, c.lookalikeStructs(), interpretedType)
	if !found {
		return nil
	}
	return c.lookalikeFound(fmt.Sprintf(what, types.ExprString(target)), a, b, xt)
}

// refuseLookalikes is refuse's step for look-alike struct types: each type assertion, and each
// case of a type switch, to a type the interpreter cannot tell from another the value may hold.
func (c *cellCtx) refuseLookalikes(n ast.Node, fail func(token.Pos, construct, ...string)) {
	switch n := n.(type) {
	case *ast.TypeAssertExpr:
		if n.Type != nil {
			if found := c.lookalikeAssertion(n.X, n.Type, "a type assertion to %s"); found != nil {
				fail(n.Lparen, lookalikeStruct, found...)
			}
		}
	case *ast.TypeSwitchStmt:
		x := typeSwitchSubject(n)
		if x == nil {
			return
		}
		for _, cc := range n.Body.List {
			for _, t := range cc.(*ast.CaseClause).List {
				if found := c.lookalikeAssertion(x, t, "case %s of a type switch"); found != nil {
					fail(t.Pos(), lookalikeStruct, found...)
				}
			}
		}
	}
}
