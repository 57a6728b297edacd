package session

import (
	"encoding/json"
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strconv"
	"strings"
)

// A rewrite for what fmt prints of a cell's types with %+v, %#v and %T: yaegi's reflect-built
// types name a field x Xx and the type struct { Xx int; … } where Go prints x and main.point.
// The check knows each argument's type, so in a Printf-like call with a constant format
//
//	fmt.Printf("%T %+v %#v\n", p, p, p)
//
// becomes
//
//	fmt.Printf("%s %+v %#v\n", __gptnotes.TypeName(p, "main.point"),
//		__gptnotes.GoSyntax(p, `{"k":"struct","n":"main.point",…}`), __gptnotes.GoSyntax(p, …))
//
// TypeName returns Go's name of the argument's type (the argument is still evaluated), and
// GoSyntax a fmt.Formatter that prints the value by fmt's rules with the names of the
// description (goformat.go). What the rewrite cannot describe stays refused (refuse.go
// formatsCellType): an argument of interface type (its dynamic type is yaegi's), a type with a
// String, Error, GoString or Format method (Go would call it), an anonymous struct, a map keyed
// by a cell's type, a format that picks arguments by index or takes a width from one (*).

// A fmtRewrite is what the pass does to one printing call.
type fmtRewrite struct {
	format int                             // the format's argument index
	newFmt string                          // the format with each rewritten %T's letter made s
	args   map[int]func(ast.Expr) ast.Expr // argument index → what replaces the argument
}

// cellFormatArg is how the pass prints arg for verb: a function that writes its replacement, nil
// when it does not rewrite it (then refuse.go formatsCellType may refuse it).
func (c *cellCtx) cellFormatArg(verb string, arg ast.Expr) func(ast.Expr) ast.Expr {
	t := c.typeOf(arg)
	if t == nil {
		return nil
	}
	if types.IsInterface(t) {
		return c.dynamicFormatArg(verb, t)
	}
	if !mentionsCellType(t) {
		if goSyntaxVerb(verb) && containsInterface(t, map[types.Type]bool{}) &&
			len(c.dynamicCandidates(types.NewInterfaceType(nil, nil), nil)) > 0 {
			// []any, a compiled struct with an interface field: a cell's value may be inside
			return runtimeCall3("Dynamic", verb[len(verb)-2:], goTypeName(t), "")
		}
		return nil
	}
	switch {
	case strings.HasSuffix(verb, "T"):
		return runtimeCallOf("TypeName", goTypeName(t))
	case goSyntaxVerb(verb):
		if d := fmtDescription(t); d != "" {
			return runtimeCallOf("GoSyntax", d)
		}
	}
	return nil
}

// goSyntaxVerb reports whether verb is %+v or %#v (with any width).
func goSyntaxVerb(verb string) bool {
	return strings.HasSuffix(verb, "v") && strings.ContainsAny(verb, "+#")
}

// fmtDescription is t's description for goformat.go, as JSON; "" when it cannot be described.
func fmtDescription(t types.Type) string {
	d, ok := describeForFmt(t, map[*types.Named]bool{})
	if !ok {
		return ""
	}
	b, err := json.Marshal(d)
	if err != nil {
		return ""
	}
	return string(b)
}

// runtimeCall3 writes an argument x as __gptnotes.fn(x, "a", "b", "c").
func runtimeCall3(fn, a, b, c string) func(ast.Expr) ast.Expr {
	return func(x ast.Expr) ast.Expr {
		at := x.Pos()
		lit := func(s string) ast.Expr {
			return &ast.BasicLit{ValuePos: at, Kind: token.STRING, Value: strconv.Quote(s)}
		}
		return &ast.CallExpr{Fun: runtimeFuncAt(fn, at), Lparen: at, Rparen: x.End(), Args: []ast.Expr{x, lit(a), lit(b), lit(c)}}
	}
}

// runtimeCallOf writes an argument x as __gptnotes.fn(x, "s").
func runtimeCallOf(fn, s string) func(ast.Expr) ast.Expr {
	return func(x ast.Expr) ast.Expr {
		at := x.Pos()
		return &ast.CallExpr{Fun: runtimeFuncAt(fn, at), Lparen: at, Rparen: x.End(),
			Args: []ast.Expr{x, &ast.BasicLit{ValuePos: at, Kind: token.STRING, Value: strconv.Quote(s)}}}
	}
}

// fmtMethodNames are the methods fmt calls for %v, %+v or %#v: a type with one is left to the
// refusal.
var fmtMethodNames = []string{"String", "Error", "GoString", "Format"}

// describeForFmt describes t for goformat.go; false when it cannot (see the file's comment).
// on are the named types being described, for a type that holds itself.
func describeForFmt(t types.Type, on map[*types.Named]bool) (*fmtType, bool) {
	t = types.Unalias(t)
	if !mentionsCellType(t) {
		if containsInterface(t, map[types.Type]bool{}) {
			return nil, false // a value of a cell's type inside would print with yaegi's names
		}
		return &fmtType{Kind: "go"}, true
	}
	switch u := t.(type) {
	case *types.Named:
		if u.Obj().Pkg() == nil || u.Obj().Pkg().Path() != "main" {
			return nil, false // a compiled generic type instantiated with a cell's type
		}
		if cellMethod(u, fmtMethodNames) != "" || cellMethod(types.NewPointer(u), fmtMethodNames) != "" {
			return nil, false
		}
		if on[u] {
			return nil, false
		}
		on[u] = true
		defer delete(on, u)
		switch under := u.Underlying().(type) {
		case *types.Struct:
			d := &fmtType{Kind: "struct", Name: goTypeName(u)}
			for i := range under.NumFields() {
				f := under.Field(i)
				ft, ok := describeForFmt(f.Type(), on)
				if !ok {
					return nil, false
				}
				if !f.Exported() && ft.Kind == "go" && hasFmtMethods(f.Type(), map[types.Type]bool{}) {
					// fmt cannot call the methods of an unexported field's value: Go prints
					// a time.Duration there as its nanoseconds.
					if _, basic := f.Type().Underlying().(*types.Basic); !basic {
						return nil, false
					}
					ft = &fmtType{Kind: "raw"}
				}
				d.Fields = append(d.Fields, fmtField{Name: f.Name(), Type: ft})
			}
			return d, true
		case *types.Basic:
			return &fmtType{Kind: "go"}, true
		case *types.Slice, *types.Array, *types.Map:
			d, ok := describeForFmt(under, on)
			if ok {
				d.Name = goTypeName(u)
			}
			return d, ok
		}
		return nil, false
	case *types.Pointer:
		d := &fmtType{Kind: "ptr", Name: goTypeName(u), Elem: &fmtType{Kind: "go"}}
		if n, ok := types.Unalias(u.Elem()).(*types.Named); ok && on[n] {
			return d, true // a type that points to itself: the pointer, never at depth 0, prints as an address
		}
		elem, ok := describeForFmt(u.Elem(), on)
		d.Elem = elem
		return d, ok
	case *types.Slice:
		elem, ok := describeForFmt(u.Elem(), on)
		return &fmtType{Kind: "slice", Name: goTypeName(u), Elem: elem}, ok
	case *types.Array:
		elem, ok := describeForFmt(u.Elem(), on)
		return &fmtType{Kind: "array", Name: goTypeName(u), Elem: elem}, ok
	case *types.Map:
		if !sortableKey(u.Key()) {
			return nil, false
		}
		elem, ok := describeForFmt(u.Elem(), on)
		return &fmtType{Kind: "map", Name: goTypeName(u), Key: &fmtType{Kind: "go"}, Elem: elem}, ok
	}
	return nil, false
}

// sortableKey reports whether fmt's order of map keys of type t is the one goformat.go's
// lessKey gives: numbers, strings, booleans, none of them a cell's type.
func sortableKey(t types.Type) bool {
	b, ok := types.Unalias(t).(*types.Basic)
	return ok && b.Info()&(types.IsNumeric|types.IsString|types.IsBoolean) != 0 && b.Info()&types.IsComplex == 0
}

// hasFmtMethods reports whether fmt would call a method of a value of t or of a value inside it.
func hasFmtMethods(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	ms := types.NewMethodSet(t)
	for _, name := range fmtMethodNames {
		for i := range ms.Len() {
			if ms.At(i).Obj().Name() == name {
				return true
			}
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		return hasFmtMethods(u.Elem(), seen)
	case *types.Slice:
		return hasFmtMethods(u.Elem(), seen)
	case *types.Array:
		return hasFmtMethods(u.Elem(), seen)
	case *types.Map:
		return hasFmtMethods(u.Key(), seen) || hasFmtMethods(u.Elem(), seen)
	case *types.Struct:
		for i := range u.NumFields() {
			if hasFmtMethods(u.Field(i).Type(), seen) {
				return true
			}
		}
	}
	return false
}

// containsInterface reports whether a value of t can hold an interface value.
func containsInterface(t types.Type, seen map[types.Type]bool) bool {
	if seen[t] {
		return false
	}
	seen[t] = true
	switch u := t.Underlying().(type) {
	case *types.Interface:
		return true
	case *types.Pointer:
		return containsInterface(u.Elem(), seen)
	case *types.Slice:
		return containsInterface(u.Elem(), seen)
	case *types.Array:
		return containsInterface(u.Elem(), seen)
	case *types.Map:
		return containsInterface(u.Key(), seen) || containsInterface(u.Elem(), seen)
	case *types.Struct:
		for i := range u.NumFields() {
			if containsInterface(u.Field(i).Type(), seen) {
				return true
			}
		}
	}
	return false
}

// cellFormatCall finds what the pass does to call: nil when nothing.
func (c *cellCtx) cellFormatCall(call *ast.CallExpr) *fmtRewrite {
	fn := c.callee(call)
	if fn == nil || fn.Pkg() == nil {
		return nil
	}
	i, ok := formatters[fn.FullName()]
	if !ok || i >= len(call.Args) || call.Ellipsis.IsValid() {
		return nil
	}
	tv := c.checked.info.Types[call.Args[i]]
	if tv.Value == nil || tv.Value.Kind() != constant.String {
		return nil
	}
	format := constant.StringVal(tv.Value)
	r := &fmtRewrite{format: i, args: map[int]func(ast.Expr) ast.Expr{}}
	var out strings.Builder
	last, next := 0, i+1
	for _, loc := range formatVerb.FindAllStringIndex(format, -1) {
		v := format[loc[0]:loc[1]]
		if v == "%%" {
			continue
		}
		if strings.ContainsAny(v, "[*") {
			return nil
		}
		if next < len(call.Args) {
			if f := c.cellFormatArg(v, call.Args[next]); f != nil {
				r.args[next] = f
				if strings.HasSuffix(v, "T") { // the argument becomes the type's name
					out.WriteString(format[last:loc[1]-1] + "s")
					last = loc[1]
				}
			}
		}
		next++
	}
	if len(r.args) == 0 {
		return nil
	}
	out.WriteString(format[last:])
	r.newFmt = out.String()
	return r
}

// findCellFormats is the pass's cell step: the printing calls to rewrite, found before the
// rewrites replace their arguments (the check's types are by node).
func findCellFormats(c *cellCtx) {
	c.formats = map[*ast.CallExpr]*fmtRewrite{}
	if c.checked == nil {
		return
	}
	for _, p := range c.pieces {
		ast.Inspect(p.root(), func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if r := c.cellFormatCall(call); r != nil {
					c.formats[call] = r
				}
			}
			return true
		})
	}
}

// cellFormatExpr is the pass's expression step: the call with its format and arguments rewritten.
func cellFormatExpr(c *cellCtx, e ast.Expr) ast.Expr {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return e
	}
	r := c.formats[call]
	if r == nil {
		return e
	}
	args := append([]ast.Expr(nil), call.Args...)
	pos := call.Args[r.format].Pos()
	args[r.format] = &ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(r.newFmt)}
	for i, f := range r.args {
		args[i] = f(args[i])
	}
	out := *call
	out.Args = args
	return &out
}
