package session

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/types"
	"reflect"
	"strconv"
	"strings"
)

// %T, %+v and %#v of an interface value (an any, a cell's interface) that may hold a value of a
// cell's type: fmt sees yaegi's value, a struct type without a name, so the check's types cannot
// say what to print. The kernel asks the value in the cell, asserting to each struct type of the
// cells that implements the interface (yaegi tells those apart), and prints what it finds as
// cellformat.go prints a value of that type:
//
//	fmt.Printf("%T\n", v)
//
// becomes
//
//	fmt.Printf("%s\n", func() any {
//		__fx := v
//		if __v, __ok := __fx.(point); __ok { _ = __v; return "main.point" }
//		…
//		return __gptnotes.Dynamic(__fx, "T", "any", "")
//	}())
//
// What no assertion matched is printed by fmt, unless it may still be a cell's value or a
// module package's (the literal is written, with no assertions, once the session imports one): a struct
// type without a name (a generic cell type's, or one inside a slice or map), or the type under one
// of the cells' other slice or map types for %#v (yaegi holds ints{2} as an []int and matches it
// to both). Then the runtime's Dynamic refuses it (dynamicCellVerb) rather than print yaegi's
// names. A value of a cell's named number or string type without methods is held as its tag
// type (tagged.go), which the literal asks for: %T prints main.celsius. One with methods prints
// its underlying type's name for %T (int for weekday(1)): the kernel can neither print it right
// nor tell it apart.

// dynamicFormatArg writes an interface-typed argument of verb as the literal above; nil when the
// interface holds no cell's type, or is a compiled interface (error: refused when it may hold
// one, dynamicFormatRefused).
func (c *cellCtx) dynamicFormatArg(verb string, t types.Type) func(ast.Expr) ast.Expr {
	isT := strings.HasSuffix(verb, "T")
	if !isT && !goSyntaxVerb(verb) {
		return nil
	}
	if it := t.Underlying().(*types.Interface); !it.Empty() && !cellInterface(t) {
		return nil
	}
	cands := c.dynamicCandidates(t, nil)
	if len(cands) == 0 && !c.importsModule() {
		return nil
	}
	letter := verb[len(verb)-1:]
	if !isT {
		letter = map[bool]string{true: "#v", false: "+v"}[strings.Contains(verb, "#")]
	}
	var src strings.Builder
	src.WriteString("func() any {\n__fx := __fmtArg\n")
	var ambiguous []string
	for _, ct := range cands {
		named, ptr := ct, ""
		if p, ok := ct.(*types.Pointer); ok {
			named, ptr = p.Elem(), "*"
		}
		n := named.(*types.Named)
		if slot := c.s.tagOf(ct); slot != nil {
			// Held as its tag type (tagged.go), which fmt prints as the number it is; %T
			// asks for it.
			if isT {
				fmt.Fprintf(&src, "if _, __ok := __fx.(__gptnotes.%s); __ok { return %q }\n", slot.symbol, goTypeName(ct))
			}
			continue
		}
		if _, isStruct := n.Underlying().(*types.Struct); !isStruct {
			// yaegi holds celsius(3) as the float64 3 and asserts either to both: fmt prints
			// float64 for %T, which the kernel cannot tell from a float64 of the program's
			// own (a known gap, docs/kernel.md). %#v of a named slice or map would print
			// the slice's type: refused when the type under it is not one the program
			// otherwise prints.
			under := n.Underlying()
			if _, basic := under.(*types.Basic); !basic && letter == "#v" && !mentionsCellType(under) {
				ambiguous = append(ambiguous, ptr+goTypeName(under)+"\t"+goTypeName(ct))
			}
			continue
		}
		var ret string
		switch d := fmtDescription(ct); {
		case isT:
			ret = strconv.Quote(goTypeName(ct))
		case d != "":
			ret = "__gptnotes.GoSyntax(__v, " + strconv.Quote(d) + ")"
		case letter == "+v" && cellMethod(ct, []string{"String", "Error"}) != "":
			ret = "__v" // fmt calls the method, as the kernel's printers let it
		default:
			ret = fmt.Sprintf("__gptnotes.RefuseVerb(%q, %q, %q)", "%"+letter, goTypeName(t), goTypeName(ct))
		}
		fmt.Fprintf(&src, "if __v, __ok := __fx.(%s%s); __ok { _ = __v; return %s }\n", ptr, n.Obj().Name(), ret)
	}
	fmt.Fprintf(&src, "return __gptnotes.Dynamic(__fx, %q, %q, %q)\n}()", letter, goTypeName(t), strings.Join(ambiguous, "\n"))
	return func(x ast.Expr) ast.Expr {
		e, err := parser.ParseExprFrom(c.s.fset, scopeFile, src.String(), 0)
		if err != nil {
			panic(fmt.Sprintf("gptnotes: the kernel wrote a literal that does not parse: %v\n%s", err, src.String()))
		}
		replaceExprs(e, func(e ast.Expr) ast.Expr {
			if id, ok := e.(*ast.Ident); ok && id.Name == "__fmtArg" {
				return x
			}
			return e
		})
		return e
	}
}

// importsModule reports whether the session has imported a module package: a value of one of
// its struct types, which yaegi names by its structure (and structnames.go's tag), may be in
// the interface, and Dynamic refuses to print that name.
func (c *cellCtx) importsModule() bool {
	c.s.mods.mu.Lock()
	defer c.s.mods.mu.Unlock()
	return len(c.s.mods.docs) > 0
}

// dynamicFormatRefused finds %T or %#v of a value of a compiled interface type (error,
// fmt.Stringer) that a cell's type implements: yaegi's assertions from such a value to a cell's
// type are wrong (wrongAssertion), so the kernel cannot ask it. It returns the verb, the
// interface and a type it may hold.
func (c *cellCtx) dynamicFormatRefused(call *ast.CallExpr) (verb, iface, cand string) {
	c.verbsWithArgs(call, func(v string, a ast.Expr) {
		if verb != "" || !(strings.HasSuffix(v, "T") || strings.HasSuffix(v, "v") && strings.Contains(v, "#")) {
			return
		}
		t := c.typeOf(a)
		if t == nil || !types.IsInterface(t) || cellInterface(t) {
			return
		}
		if it := t.Underlying().(*types.Interface); it.Empty() {
			return
		}
		if cands := c.dynamicCandidates(t, nil); len(cands) > 0 {
			verb, iface, cand = v, goTypeName(t), goTypeName(cands[0])
		}
	})
	return verb, iface, cand
}

// dynamicFormat is the runtime's Dynamic: what fmt prints for x with %T (its type's name) or
// %+v, %#v (x itself), unless x may be a cell's value that fmt would name wrongly; then the cell
// is refused. ambiguous lists, a line each, "the type yaegi holds\tthe cell's type".
func (s *Session) dynamicFormat(x any, verb, iface, ambiguous string) any {
	if x != nil {
		held := reflect.TypeOf(x).String()
		if yaegiType(held) {
			s.refuse(refused("cell", dynamicCellVerb, "%"+verb, iface, held, "a cell's struct type"))
		}
		if verb != "T" {
			if inner := yaegiTypeInside(reflect.ValueOf(x), 0, new(int)); inner != "" {
				s.refuse(refused("cell", dynamicCellVerb, "%"+verb, iface, inner+" inside", "a cell's struct type"))
			}
		}
		for _, line := range strings.Split(ambiguous, "\n") {
			if under, cell, ok := strings.Cut(line, "\t"); ok && under == held {
				s.refuse(refused("cell", dynamicCellVerb, "%"+verb, iface, held, cell))
			}
		}
	}
	if verb == "T" {
		if name := s.tagName(x); name != "" {
			return name
		}
		return fmt.Sprintf("%T", x)
	}
	return x
}

// yaegiType reports whether a type's name is one yaegi made for a cell's type: a struct without
// a name, or the interpreter's own record of a value.
func yaegiType(name string) bool {
	return strings.Contains(name, "struct {") || strings.Contains(name, "interp.")
}

// yaegiTypeInside is the name of a yaegi-made type (yaegiType) of a value inside v, found through
// interfaces, pointers, slices, arrays, maps and struct fields, as fmt goes down; "" when none.
// It looks at 10,000 values at most.
func yaegiTypeInside(v reflect.Value, depth int, seen *int) string {
	if *seen++; *seen > 10000 || depth > 100 || !v.IsValid() {
		return ""
	}
	if v.Kind() == reflect.Interface {
		if v.IsNil() {
			return ""
		}
		v = v.Elem()
		if t := v.Type().String(); yaegiType(t) {
			return t
		}
	}
	switch v.Kind() {
	case reflect.Pointer:
		if depth == 0 && !v.IsNil() {
			return yaegiTypeInside(v.Elem(), depth+1, seen)
		}
	case reflect.Slice, reflect.Array:
		for i := range v.Len() {
			if t := yaegiTypeInside(v.Index(i), depth+1, seen); t != "" {
				return t
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if t := yaegiTypeInside(it.Key(), depth+1, seen); t != "" {
				return t
			}
			if t := yaegiTypeInside(it.Value(), depth+1, seen); t != "" {
				return t
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if t := yaegiTypeInside(v.Field(i), depth+1, seen); t != "" {
				return t
			}
		}
	}
	return ""
}

// refuseVerb is the runtime's RefuseVerb: verb of an interface value that holds a value of a
// cell's type the kernel cannot print as Go does (cellformat.go describeForFmt).
func (s *Session) refuseVerb(verb, iface, cell string) any {
	s.refuse(refused("cell", dynamicCellVerb, verb, iface, cell, cell))
	return nil
}
