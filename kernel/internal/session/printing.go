package session

import (
	"go/ast"
	"go/constant"
	"go/types"
	"strings"
)

// What fmt sees of a cell's values. Go's fmt calls a value's String, Error, Format or GoString
// method wherever it finds one: on an argument, and on each element, map entry and exported
// field inside it. yaegi v0.16.1 gives compiled code a cell's value with its methods only as an
// argument of its own (a wrapper type from package stdlib's MapTypes); inside a slice, map or
// struct the value has its interpreter-built type, which has no methods, and the wrapper itself
// prints its fields for a verb that does not call String (%d). The check refuses both, and the
// printers (records.go) refuse what only shows at run time.

// printing are the printing functions, by the index of their first printed argument (after the
// writer, buffer or format).
var printing = map[string]int{
	"fmt.Print": 0, "fmt.Println": 0, "fmt.Sprint": 0, "fmt.Sprintln": 0, "fmt.Fprint": 1,
	"fmt.Fprintln": 1, "fmt.Append": 1, "fmt.Appendln": 1,
	"fmt.Printf": 1, "fmt.Sprintf": 1, "fmt.Errorf": 1, "fmt.Fprintf": 2, "fmt.Appendf": 2,
	"log.Print": 0, "log.Println": 0, "log.Fatal": 0, "log.Fatalln": 0, "log.Panic": 0, "log.Panicln": 0,
	"log.Printf": 1, "log.Fatalf": 1, "log.Panicf": 1,
	"(*log.Logger).Print": 0, "(*log.Logger).Println": 0, "(*log.Logger).Fatal": 0,
	"(*log.Logger).Fatalln": 0, "(*log.Logger).Panic": 0, "(*log.Logger).Panicln": 0,
	"(*log.Logger).Printf": 1, "(*log.Logger).Fatalf": 1, "(*log.Logger).Panicf": 1,
}

// fmtMethods are the methods fmt calls.
var fmtMethods = []string{"Format", "GoString", "Error", "String"}

// printsHiddenMethods finds an argument of a printing call whose elements, entries or exported
// fields are of a cell's type with a method fmt calls, which the interpreter hides from fmt
// there. It returns the argument's type and the method, "" when the call is fine.
func (c *cellCtx) printsHiddenMethods(call *ast.CallExpr) (typ, method string) {
	fn := c.callee(call)
	if fn == nil || fn.Pkg() == nil {
		return "", ""
	}
	first, ok := printing[fn.FullName()]
	if !ok {
		return "", ""
	}
	for i := first; i < len(call.Args); i++ {
		t := c.typeOf(call.Args[i])
		if t == nil {
			continue
		}
		if inner, m := nestedFmtMethod(t, 0, map[types.Type]bool{}); m != "" {
			return types.TypeString(t, cellQualifier) + " (its " + types.TypeString(inner, cellQualifier) + " values)", m
		}
	}
	return "", ""
}

// nestedFmtMethod walks t as fmt prints it and returns the first type below the top whose value
// is a cell's type with one of fmtMethods, with the method.
func nestedFmtMethod(t types.Type, depth int, seen map[types.Type]bool) (types.Type, string) {
	return nestedMethod(t, fmtMethods, false, depth, seen)
}

// nestedMethod walks t through elements, map keys and values and exported fields (and pointers:
// all of them when deepPointers, else only at the top, as fmt follows them) and returns the first
// type below the top that is a cell's type with one of methods in its value's method set, with the
// method. The top's own method is the caller's wrapper's business: the walk stops there.
func nestedMethod(t types.Type, methods []string, deepPointers bool, depth int, seen map[types.Type]bool) (types.Type, string) {
	if seen[t] {
		return nil, ""
	}
	seen[t] = true
	if m := cellMethod(t, methods); m != "" {
		if depth == 0 {
			return nil, "" // the argument's own method: yaegi's wrapper has it, and no deeper one is used
		}
		return t, m
	}
	walk := func(t types.Type) (types.Type, string) {
		return nestedMethod(t, methods, deepPointers, depth+1, seen)
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		if depth == 0 || deepPointers {
			return walk(u.Elem())
		}
	case *types.Slice:
		return walk(u.Elem())
	case *types.Array:
		return walk(u.Elem())
	case *types.Map:
		if inner, m := walk(u.Key()); m != "" {
			return inner, m
		}
		return walk(u.Elem())
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if f := u.Field(i); f.Exported() { // neither fmt nor the encoders use unexported fields' methods
				if inner, m := walk(f.Type()); m != "" {
					return inner, m
				}
			}
		}
	}
	return nil, ""
}

// cellFmtMethod is the method of fmtMethods that a value of t has, t a cell's type or a pointer
// to one; "" if none.
func cellFmtMethod(t types.Type) string { return cellMethod(t, fmtMethods) }

// cellMethod is the first of methods that a value of t has, t a cell's type (not an interface)
// or a pointer to one; "" if none.
func cellMethod(t types.Type, methods []string) string {
	named := t
	if p, ok := t.(*types.Pointer); ok {
		named = p.Elem()
	}
	n, ok := named.(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "main" {
		return ""
	}
	if _, isIface := n.Underlying().(*types.Interface); isIface {
		return ""
	}
	ms := types.NewMethodSet(t)
	for _, name := range methods {
		if ms.Lookup(n.Obj().Pkg(), name) != nil {
			return name
		}
	}
	return ""
}

// encoderMethods are, for each encoding function, the methods of a value it calls, by the index
// of the value's argument: Go calls them inside the value too, yaegi's values there have none.
var encoderMethods = map[string]struct {
	arg     int
	methods []string
}{
	"encoding/json.Marshal":           {0, []string{"MarshalJSON", "MarshalText"}},
	"encoding/json.MarshalIndent":     {0, []string{"MarshalJSON", "MarshalText"}},
	"(*encoding/json.Encoder).Encode": {0, []string{"MarshalJSON", "MarshalText"}},
	"encoding/json.Unmarshal":         {1, []string{"UnmarshalJSON", "UnmarshalText"}},
	"(*encoding/json.Decoder).Decode": {0, []string{"UnmarshalJSON", "UnmarshalText"}},
	"encoding/xml.Marshal":            {0, []string{"MarshalXML", "MarshalText"}},
	"encoding/xml.MarshalIndent":      {0, []string{"MarshalXML", "MarshalText"}},
	"(*encoding/xml.Encoder).Encode":  {0, []string{"MarshalXML", "MarshalText"}},
	"encoding/xml.Unmarshal":          {1, []string{"UnmarshalXML", "UnmarshalText"}},
	"(*encoding/xml.Decoder).Decode":  {0, []string{"UnmarshalXML", "UnmarshalText"}},
}

// encodesHiddenMethods finds an encoding call whose value holds, below the top, a cell's type with
// a method the encoder would call. It returns the function, the value's type and the method.
func (c *cellCtx) encodesHiddenMethods(call *ast.CallExpr) (fn, typ, method string) {
	f := c.callee(call)
	if f == nil || f.Pkg() == nil {
		return "", "", ""
	}
	e, ok := encoderMethods[f.FullName()]
	if !ok || e.arg >= len(call.Args) {
		return "", "", ""
	}
	t := c.typeOf(call.Args[e.arg])
	if t == nil {
		return "", "", ""
	}
	if p, ok := t.(*types.Pointer); ok && e.methods[0][0] == 'U' {
		t = p.Elem() // Unmarshal(data, &v): v's own method is the top's
	}
	if inner, m := nestedMethod(t, e.methods, true, 0, map[types.Type]bool{}); m != "" {
		return funcName(f), types.TypeString(t, cellQualifier) + " (its " + types.TypeString(inner, cellQualifier) + " values)", m
	}
	return "", "", ""
}

// verbsWithArgs calls f with each verb of a printing call's constant format and the argument it
// prints (nil when the format picks arguments by index: then f gets every argument).
func (c *cellCtx) verbsWithArgs(call *ast.CallExpr, f func(verb string, arg ast.Expr)) {
	fn := c.callee(call)
	if fn == nil || fn.Pkg() == nil {
		return
	}
	i, ok := formatters[fn.FullName()]
	if !ok || i >= len(call.Args) {
		return
	}
	tv := c.checked.info.Types[call.Args[i]]
	if tv.Value == nil || tv.Value.Kind() != constant.String {
		return
	}
	args := call.Args[i+1:]
	next := 0 // the argument the next verb prints
	for _, v := range formatVerb.FindAllString(constant.StringVal(tv.Value), -1) {
		if v == "%%" {
			continue
		}
		if strings.Contains(v, "[") { // explicit argument indexes: every argument
			next = -1
		}
		if next >= 0 {
			next += strings.Count(v, "*")
		}
		for k, a := range args {
			if next < 0 || k == next {
				f(v, a)
			}
		}
		if next >= 0 {
			next++
		}
	}
}

// printsWrapper finds a verb that prints a cell's value with a String or Error method without
// calling it (%d, %f, …: Go prints the value's own digits, the interpreter its wrapper's fields).
// It returns the verb, the type and the method.
func (c *cellCtx) printsWrapper(call *ast.CallExpr) (verb, typ, method string) {
	c.verbsWithArgs(call, func(v string, a ast.Expr) {
		if verb != "" || strings.ContainsAny(v[len(v)-1:], "vsqxXTw") {
			return
		}
		t := c.typeOf(a)
		if t == nil {
			return
		}
		if m := cellFmtMethod(t); m == "Error" || m == "String" {
			verb, typ, method = v, types.TypeString(t, cellQualifier), m
		}
	})
	return verb, typ, method
}
