package session

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"strings"
	"sync"
)

// A cell's named number, string and bool types inside interfaces. yaegi v0.16.1 builds a cell's
// types with reflect, which makes no named types: `type Celsius float64` is float64 to it, so
//
//	var x any = Celsius(3)
//	fmt.Printf("%T %v\n", x, x)   // Go: main.Celsius 3
//
// printed float64 3, and x.(float64) held where Go says false. The kernel keeps such a value
// apart from a float64 by storing it in interfaces as a compiled named type of its own, a tag
// type (tagtypes.go: eight of each kind, handed out as the cells need them): each implicit or
// explicit conversion of a Celsius to an interface (ifacestore.go) becomes
//
//	__gptnotes.TagFloat64_0(c)
//
// which fmt, the encoders and compiled code see as the number it is (a named float64, as in Go;
// package reflect is given the plain value, so reflect.TypeOf(c) says float64 as it did before),
// and the ways out of an interface ask for the tag type and convert back: an assertion
// x.(Celsius) (cellassert.go), a type switch's case Celsius (typeswitch.go), %T (dynformat.go,
// which names it main.Celsius). Only types without methods are tagged (a type with methods is
// a record of the interpreter's in an interface, which fmt must find the methods on), and only
// while slots last: a notebook's ninth float64 type stores as the float64 it did before.

// A tagSlot is the tag type a cell's type takes inside interfaces.
type tagSlot struct {
	symbol string       // its name among the runtime's symbols: TagFloat64_3
	rt     reflect.Type // the compiled type
	name   string       // the cell's type as Go names it: main.Celsius
}

// tagRegistry hands out the tag types of one session.
type tagRegistry struct {
	mu     sync.Mutex
	byType map[string]*tagSlot // "main.Celsius float64" → its slot
	used   map[reflect.Kind]int
	names  map[reflect.Type]string // tag type → the cell type it stands for (the last one)
}

// basicKinds are the reflect kinds of the basic types a tag type can stand for.
var tagKinds = map[types.BasicKind]reflect.Kind{
	types.Bool: reflect.Bool, types.String: reflect.String,
	types.Int: reflect.Int, types.Int8: reflect.Int8, types.Int16: reflect.Int16, types.Int32: reflect.Int32, types.Int64: reflect.Int64,
	types.Uint: reflect.Uint, types.Uint8: reflect.Uint8, types.Uint16: reflect.Uint16, types.Uint32: reflect.Uint32, types.Uint64: reflect.Uint64,
	types.Uintptr: reflect.Uintptr, types.Float32: reflect.Float32, types.Float64: reflect.Float64,
	types.Complex64: reflect.Complex64, types.Complex128: reflect.Complex128,
}

// taggable reports whether t is a type the kernel tags in interfaces: a cell's named type, not
// generic, over a basic type, with no methods on it or its pointer.
func taggable(t types.Type) (reflect.Kind, bool) {
	n, ok := types.Unalias(t).(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "main" || n.TypeParams().Len() > 0 || n.TypeArgs().Len() > 0 {
		return 0, false
	}
	b, ok := n.Underlying().(*types.Basic)
	if !ok {
		return 0, false
	}
	k, ok := tagKinds[b.Kind()]
	if !ok || n.NumMethods() > 0 || types.NewMethodSet(types.NewPointer(n)).Len() > 0 {
		return 0, false
	}
	return k, true
}

// tagOf is the slot of t, handed out now if t has none; nil when t is not taggable or its
// kind's slots are all taken.
func (s *Session) tagOf(t types.Type) *tagSlot {
	if t == nil {
		return nil
	}
	k, ok := taggable(t)
	if !ok {
		return nil
	}
	r := &s.tags
	r.mu.Lock()
	defer r.mu.Unlock()
	name := goTypeName(t)
	key := name + " " + k.String()
	if slot := r.byType[key]; slot != nil {
		return slot
	}
	if r.used[k] >= len(tagTypes[k]) {
		return nil
	}
	if r.byType == nil {
		r.byType, r.used, r.names = map[string]*tagSlot{}, map[reflect.Kind]int{}, map[reflect.Type]string{}
	}
	i := r.used[k]
	r.used[k]++
	kind := k.String()
	slot := &tagSlot{symbol: fmt.Sprintf("Tag%s_%d", strings.ToUpper(kind[:1])+kind[1:], i), rt: tagTypes[k][i], name: name}
	r.byType[key] = slot
	r.names[slot.rt] = name
	return slot
}

// tagName is the cell type's name for a value held as a tag type, "" for any other value.
func (s *Session) tagName(x any) string {
	if x == nil {
		return ""
	}
	r := &s.tags
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.names[reflect.TypeOf(x)]
}

// tagSymbols are the tag types as the runtime package gives them to cells.
func tagSymbols() map[string]reflect.Value {
	syms := map[string]reflect.Value{}
	for k, ts := range tagTypes {
		kind := k.String()
		for i, t := range ts {
			syms[fmt.Sprintf("Tag%s_%d", strings.ToUpper(kind[:1])+kind[1:], i)] = reflect.Zero(reflect.PointerTo(t))
		}
	}
	return syms
}

// box writes x, a value of the slot's type, as its tag type: __gptnotes.TagFloat64_0(x).
func (slot *tagSlot) box(x ast.Expr) ast.Expr {
	return &ast.CallExpr{Fun: runtimeFuncAt(slot.symbol, x.Pos()), Lparen: x.Pos(), Args: []ast.Expr{x}, Rparen: x.End()}
}

// assertTypeExpr is the type an assertion to t asks an interface for: t's tag type when it has
// one, t itself otherwise (nil when the cell cannot name it).
func (c *cellCtx) assertTypeExpr(t types.Type, at ast.Node) ast.Expr {
	if slot := c.s.tagOf(t); slot != nil {
		return runtimeFuncAt(slot.symbol, at.Pos())
	}
	return c.typeExprAt(t, at.Pos())
}

// emptyInterface reports whether t is an interface type without methods (any, interface{}).
func emptyInterface(t types.Type) bool {
	if t == nil {
		return false
	}
	it, ok := t.Underlying().(*types.Interface)
	return ok && it.Empty()
}

// taggedSwitchStmt is the taggedswitch pass's statement step. A switch on an empty interface
// with cases that are values (`switch x { case 3.0: … case Celsius(3): … }`) is compared by
// yaegi v0.16.1 by converting x to each case's type, which panics on a tag type's value; Go
// compares x with each case converted to an interface, as == does. So it becomes
//
//	{ __sw1 := x; switch { case __sw1 == 3.0: … case __sw1 == Celsius(3): … } }
//
// (ifacestore.go then gives Celsius(3) its tag type, as in any comparison with an interface).
func taggedSwitchStmt(c *cellCtx, s ast.Stmt) ast.Stmt {
	labeled := s
	if l, ok := s.(*ast.LabeledStmt); ok {
		s = l.Stmt
	}
	sw, ok := s.(*ast.SwitchStmt)
	if !ok || sw.Tag == nil || sw.Init != nil || !emptyInterface(c.typeOf(sw.Tag)) || !c.switchesOnValues(sw) {
		return labeled
	}
	c.tmp++
	subject := fmt.Sprintf("__sw%d", c.tmp)
	pos := sw.Pos()
	for _, cc := range sw.Body.List {
		clause := cc.(*ast.CaseClause)
		for i, e := range clause.List {
			clause.List[i] = &ast.BinaryExpr{X: &ast.Ident{Name: subject, NamePos: e.Pos()}, OpPos: e.Pos(), Op: token.EQL, Y: e}
		}
	}
	tag := sw.Tag
	sw.Tag = nil
	return &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{
		&ast.AssignStmt{Lhs: []ast.Expr{&ast.Ident{Name: subject, NamePos: pos}}, TokPos: pos, Tok: token.DEFINE, Rhs: []ast.Expr{tag}},
		labeled,
	}, Rbrace: sw.End()}
}

// switchesOnValues reports whether a case of sw is a value of a type that is not an interface,
// when tag types are in use in the session.
func (c *cellCtx) switchesOnValues(sw *ast.SwitchStmt) bool {
	c.s.tags.mu.Lock()
	inUse := len(c.s.tags.byType) > 0
	c.s.tags.mu.Unlock()
	for _, cc := range sw.Body.List {
		for _, e := range cc.(*ast.CaseClause).List {
			if t := c.typeOf(e); t != nil && !types.IsInterface(t) && (inUse || c.s.tagOf(t) != nil) {
				return true
			}
		}
	}
	return false
}
