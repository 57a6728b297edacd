package session

import (
	"go/ast"
	"go/constant"
	"go/token"
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
	if seen[t] {
		return nil, ""
	}
	seen[t] = true
	if m := cellFmtMethod(t); m != "" {
		if depth == 0 {
			return nil, "" // fmt calls the argument's own method (yaegi's wrapper has it) and looks no deeper
		}
		return t, m
	}
	switch u := t.Underlying().(type) {
	case *types.Pointer:
		if depth == 0 { // fmt prints &{…} for a pointer argument, an address deeper down
			return nestedFmtMethod(u.Elem(), depth+1, seen)
		}
	case *types.Slice:
		return nestedFmtMethod(u.Elem(), depth+1, seen)
	case *types.Array:
		return nestedFmtMethod(u.Elem(), depth+1, seen)
	case *types.Map:
		if inner, m := nestedFmtMethod(u.Key(), depth+1, seen); m != "" {
			return inner, m
		}
		return nestedFmtMethod(u.Elem(), depth+1, seen)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if f := u.Field(i); f.Exported() { // fmt cannot call methods of unexported fields
				if inner, m := nestedFmtMethod(f.Type(), depth+1, seen); m != "" {
					return inner, m
				}
			}
		}
	}
	return nil, ""
}

// cellFmtMethod is the method of fmtMethods that a value of t has, t a cell's type or a pointer
// to one; "" if none.
func cellFmtMethod(t types.Type) string {
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
	for _, name := range fmtMethods {
		if ms.Lookup(n.Obj().Pkg(), name) != nil {
			return name
		}
	}
	return ""
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

// wrappedErrors makes each argument of fmt.Errorf that a %w wraps, when it is of a cell's type
// (not an interface), an error variable first: func() error { var e error = x; return e }().
// yaegi passes such a value to %w in a wrapper that errors.As and errors.Unwrap cannot see into
// (errors.As then says false where Go says true); through an error variable the chain holds.
func (c *cellCtx) wrappedErrors(call *ast.CallExpr) {
	fn := c.callee(call)
	if fn == nil || fn.FullName() != "fmt.Errorf" {
		return
	}
	wrapped := map[ast.Expr]bool{}
	c.verbsWithArgs(call, func(v string, a ast.Expr) {
		if strings.HasSuffix(v, "w") {
			wrapped[a] = true
		}
	})
	for i, a := range call.Args {
		if !wrapped[a] {
			continue
		}
		t := c.typeOf(a)
		if t == nil || types.IsInterface(t) || cellFmtMethod(t) != "Error" {
			continue
		}
		call.Args[i] = errorVar(a)
	}
}

// errorVar writes func() error { var e error = x; return e }().
func errorVar(x ast.Expr) ast.Expr {
	pos := x.Pos()
	e := &ast.Ident{Name: "__gptnotes_err", NamePos: pos}
	decl := &ast.DeclStmt{Decl: &ast.GenDecl{Tok: token.VAR, TokPos: pos, Specs: []ast.Spec{
		&ast.ValueSpec{Names: []*ast.Ident{e}, Type: &ast.Ident{Name: "error", NamePos: pos}, Values: []ast.Expr{x}}}}}
	return &ast.CallExpr{Fun: &ast.FuncLit{
		Type: &ast.FuncType{Func: pos, Params: &ast.FieldList{},
			Results: &ast.FieldList{List: []*ast.Field{{Type: &ast.Ident{Name: "error", NamePos: pos}}}}},
		Body: &ast.BlockStmt{Lbrace: pos, List: []ast.Stmt{decl,
			&ast.ReturnStmt{Return: pos, Results: []ast.Expr{&ast.Ident{Name: e.Name, NamePos: pos}}}}, Rbrace: x.End()},
	}, Lparen: x.End(), Rparen: x.End()}
}
