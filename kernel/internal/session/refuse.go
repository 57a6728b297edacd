package session

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"regexp"
	"strconv"
	"strings"
)

// Gaps the kernel cannot close answer with an Unsupported error that names the feature and what
// to write instead (refusals.go), found before yaegi runs (refuse) or from yaegi's failure (diagnose.go).

// iteratorFuncs are standard-library functions that return iterators (iter.Seq, Go 1.23) from
// compiled code (maps' and slices' are the kernel's source: prelude/).
var iteratorFuncs = map[string]bool{
	"strings.SplitSeq": true, "strings.FieldsSeq": true, "strings.Lines": true,
	"bytes.SplitSeq": true, "bytes.Lines": true,
}

// refuse finds the constructs the kernel refuses (refusals.go) in the parsed cell.
func (c *cellCtx) refuse() error {
	c.scanKinds()
	var err error
	fail := func(pos token.Pos, k construct, found ...string) {
		if err == nil {
			err = refused(c.pos(pos), k, found...)
		}
	}
	rangeFuncs := c.rangeFuncLoops() // the range-over-func loops rangefunc.go writes
	for _, p := range c.pieces {
		root := p.root()
		ast.Inspect(root, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if enc, t, field := c.encodesHiddenFields(call); enc != "" {
					fail(call.Pos(), hiddenFields, enc, t, field)
				}
				if verb, t := c.formatsCellType(call); verb != "" {
					fail(call.Pos(), cellTypeVerb, verb, t)
				}
				if fn, t := c.reflectedCellType(call); fn != "" {
					fail(call.Pos(), reflectedCellType, fn, t)
				}
				if fn, t := c.compiledAssertionCellType(call); fn != "" {
					fail(call.Pos(), moduleAssertsCellType, fn, t)
				}
				if found := c.formatsLookalike(call); found != nil {
					fail(call.Pos(), lookalikeStruct, found...)
				}
				if verb, iface, cand := c.dynamicFormatRefused(call); verb != "" {
					fail(call.Pos(), dynamicCellVerb, verb, iface, "a value", cand)
				}
				if t, m := c.printsHiddenMethods(call); t != "" {
					fail(call.Pos(), hiddenFmtMethods, funcName(c.callee(call)), t, m)
				}
				if f, t, m := c.encodesHiddenMethods(call); f != "" {
					fail(call.Pos(), hiddenEncoderMethods, f, t, m)
				}
				if v, t, m := c.printsWrapper(call); v != "" {
					fail(call.Pos(), wrapperVerb, v, t, m)
				}
				if t := c.asValueError(call); t != "" {
					fail(call.Pos(), valueErrorAs, t)
				}
				if m, t := c.slogMethodOfCellValuer(call); m != "" {
					fail(call.Pos(), slogValuer, m, t)
				}
				if x, t := c.unsafeHeader(call); x != "" {
					fail(call.Pos(), unsafeHeader, x, t)
				}
			}
			if id, ok := n.(*ast.Ident); ok && c.framesName(id) {
				fail(id.Pos(), callerFrames, id.Name)
			}
			if id, ok := n.(*ast.Ident); ok && c.usesObject(id, "runtime", "ReadMemStats") {
				fail(id.Pos(), memStats)
			}
			c.refuseLookalikes(n, fail)
			switch n := n.(type) {
			case *ast.BinaryExpr:
				if found := c.comparesLookalikes(n); found != nil {
					fail(n.OpPos, lookalikeStruct, found...)
				}
				if tp, v := c.typeParamComparison(n); tp != "" {
					fail(n.OpPos, typeParamCompare, types.ExprString(n), tp, v)
				}
			case *ast.AssignStmt:
				if m := c.mapElemCommaOK(n); m != "" {
					fail(n.Pos(), mapElemCommaOK, m, types.ExprString(n.Lhs[1]))
				}
				if sel := c.parallelMethodValue(n.Rhs); sel != nil {
					fail(sel.Pos(), parallelMethodValue, types.ExprString(sel))
				}
			case *ast.ValueSpec:
				if sel := c.parallelMethodValue(n.Values); sel != nil {
					fail(sel.Pos(), parallelMethodValue, types.ExprString(sel))
				}
			case *ast.ImportSpec:
				if path, _ := strconv.Unquote(n.Path.Value); path == "iter" {
					fail(n.Pos(), iterPackage)
				}
			case *ast.RangeStmt:
				c.loopGaps(n, n.Body, fail)
				if c.rangesOverFunc(n.X) && rangeFuncs[n] == nil {
					fail(n.For, rangeOverFunc)
				}
			case *ast.SelectorExpr:
				if c.isCompiledType(n.X) {
					fail(n.Pos(), compiledMethodExpr)
				}
				x, ok := n.X.(*ast.Ident)
				if !ok || !c.isPackage(x) {
					break
				}
				switch {
				case iteratorFuncs[x.Name+"."+n.Sel.Name]:
					fail(n.Pos(), iteratorFunc, x.Name+"."+n.Sel.Name)
				}
			case *ast.ForStmt:
				c.loopGaps(n, n.Body, fail)
			case *ast.TypeSpec:
				if n.Assign.IsValid() && n.TypeParams != nil && n.TypeParams.NumFields() > 0 {
					fail(n.Name.Pos(), genericAlias, n.Name.Name)
				}
			case *ast.CallExpr:
				if t, ok := c.newValue(n); ok && c.typeExpr(t) == nil {
					fail(n.Pos(), newOfUnwritableType, t.String())
				}
			case *ast.TypeAssertExpr:
				if n.Type != nil && c.isInterfaceType(n.Type) && c.isAny(n.X) {
					fail(n.Lparen, anyToInterface)
				} else if n.Type != nil {
					if k, found := c.wrongAssertion(n.X, n.Type, true); found != nil {
						fail(n.Lparen, k, found...)
					}
				}
			case *ast.TypeSwitchStmt:
				if x := typeSwitchSubject(n); x != nil && c.isAny(x) && c.hasInterfaceCase(n) {
					fail(n.Switch, anyTypeSwitch)
				} else if tp := c.typeParamCaseOf(n); tp != "" {
					fail(n.Switch, typeParamCase, tp)
				} else if t := c.taggedCase(n); t != "" && switchBreaks(n) {
					fail(n.Switch, taggedSwitchBreak, t)
				} else if t := c.structCase(n); t != "" && x != nil && emptyInterface(c.typeOf(x)) && switchBreaks(n) {
					fail(n.Switch, structSwitchBreak, t)
				} else if x != nil {
					chained := !switchBreaks(n) // typeswitch.go writes it as a chain of assertions
					for _, cc := range n.Body.List {
						for _, t := range cc.(*ast.CaseClause).List {
							if k, found := c.wrongAssertion(x, t, chained); found != nil {
								fail(t.Pos(), k, found...)
							}
						}
					}
				}
			}
			return true
		})
	}
	return err
}

// loopGaps refuses what the kernel cannot give of a loop's per-iteration variables (Go 1.22; the
// variables declared in the loop, its own and its body's). The rewrites make each function
// literal of the loop with the iteration's variables as they are when it is made
// (closuresInLoops, deferredLiterals), so a literal that reads a variable the body changes after
// it (or in it), which Go's literal would see changed, is refused rather than run with the old
// value.
func (c *cellCtx) loopGaps(loop ast.Node, body *ast.BlockStmt, fail func(token.Pos, construct, ...string)) {
	if c.checked == nil {
		return
	}
	inPlace := map[*ast.FuncLit]bool{} // called where it stands, in its iteration
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.DeferStmt:
			if lit, ok := n.Call.Fun.(*ast.FuncLit); ok {
				inPlace[lit] = false // made now, run later (deferredLiterals)
			}
		case *ast.CallExpr:
			if lit, ok := n.Fun.(*ast.FuncLit); ok {
				if _, seen := inPlace[lit]; !seen {
					inPlace[lit] = true
				}
			}
		}
		return true
	})
	ast.Inspect(body, func(n ast.Node) bool {
		lit, ok := n.(*ast.FuncLit)
		if !ok || inPlace[lit] {
			return true
		}
		for _, v := range c.loopVarsRead(loop, lit) {
			if pos := changedAfter(body, v.Name(), lit); pos.IsValid() {
				fail(pos, loopVarChanged, v.Name())
				return false
			}
		}
		return true
	})
}

// changedAfter is the position of an assignment or increment of name in body that comes after
// lit starts, or that shares an inner loop with lit (it runs again after lit); NoPos if none.
func changedAfter(body *ast.BlockStmt, name string, lit *ast.FuncLit) token.Pos {
	var loops []ast.Node // the loops nested in body that hold lit
	ast.Inspect(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
			if n.Pos() <= lit.Pos() && lit.End() <= n.End() {
				loops = append(loops, n)
			}
		}
		return true
	})
	after := func(pos token.Pos) bool {
		if pos >= lit.Pos() {
			return true
		}
		for _, l := range loops {
			if l.Pos() <= pos && pos < l.End() {
				return true
			}
		}
		return false
	}
	is := func(e ast.Expr) bool { id, ok := e.(*ast.Ident); return ok && id.Name == name }
	found := token.NoPos
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok != token.DEFINE {
				for _, l := range n.Lhs {
					if is(l) && after(n.Pos()) {
						found = n.Pos()
					}
				}
			}
		case *ast.IncDecStmt:
			if is(n.X) && after(n.Pos()) {
				found = n.Pos()
			}
		}
		return !found.IsValid()
	})
	return found
}

// isCompiledType reports whether e is pkg.T or (*pkg.T) for a type T of a compiled package.
func (c *cellCtx) isCompiledType(e ast.Expr) bool {
	if p, ok := e.(*ast.ParenExpr); ok {
		if st, ok := p.X.(*ast.StarExpr); ok {
			e = st.X
		}
	}
	sel, ok := e.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	if x, ok := sel.X.(*ast.Ident); !ok || !c.isPackage(x) {
		return false
	}
	v, ok := c.pkgSymbol(sel)
	return ok && v.Kind() == reflect.Pointer && v.IsNil() // yaegi extract's (*T)(nil) for a type
}

// importPath is the import path of the package imported under name, "" if none.
func (c *cellCtx) importPath(name string) string {
	for key, n := range c.s.imports {
		if n == name {
			return key[strings.LastIndex(key, " ")+1:]
		}
	}
	for _, p := range c.pieces {
		if p.file != nil {
			for _, sp := range p.file.Imports {
				if importName(sp) == name {
					path, _ := strconv.Unquote(sp.Path.Value)
					return path
				}
			}
		}
	}
	return ""
}

// typeSwitchSubject is x in switch x.(type) / switch v := x.(type).
func typeSwitchSubject(n *ast.TypeSwitchStmt) ast.Expr {
	var e ast.Expr
	switch a := n.Assign.(type) {
	case *ast.ExprStmt:
		e = a.X
	case *ast.AssignStmt:
		if len(a.Rhs) == 1 {
			e = a.Rhs[0]
		}
	}
	if ta, ok := e.(*ast.TypeAssertExpr); ok {
		return ta.X
	}
	return nil
}

func (c *cellCtx) hasInterfaceCase(n *ast.TypeSwitchStmt) bool {
	for _, cc := range n.Body.List {
		for _, t := range cc.(*ast.CaseClause).List {
			if c.isInterfaceType(t) {
				return true
			}
		}
	}
	return false
}

// isInterfaceType reports whether t names a non-empty interface type: error, an interface
// literal with methods, an interface type declared by a cell, or one of a compiled package.
func (c *cellCtx) isInterfaceType(t ast.Expr) bool {
	if c.checked != nil {
		if tv, ok := c.checked.info.Types[t]; ok && tv.IsType() {
			it, isIface := tv.Type.Underlying().(*types.Interface)
			return isIface && !it.Empty()
		}
	}
	switch t := t.(type) {
	case *ast.ParenExpr:
		return c.isInterfaceType(t.X)
	case *ast.InterfaceType:
		return t.Methods != nil && len(t.Methods.List) > 0
	case *ast.Ident:
		if t.Name == "error" {
			return true
		}
		if ts := c.typeSpec(t.Name); ts != nil {
			return c.isInterfaceType(ts.Type)
		}
	case *ast.SelectorExpr:
		if v, ok := c.pkgSymbol(t); ok && v.Kind() == reflect.Pointer && v.Type().Elem().Kind() == reflect.Interface {
			return v.Type().Elem().NumMethod() > 0
		}
	}
	return false
}

// isAny reports whether e is known to have type any (interface{}).
func (c *cellCtx) isAny(e ast.Expr) bool {
	if t := c.typeOf(e); t != nil {
		it, isIface := t.Underlying().(*types.Interface)
		return isIface && it.Empty()
	}
	switch e := e.(type) {
	case *ast.ParenExpr:
		return c.isAny(e.X)
	case *ast.CallExpr:
		if id, ok := e.Fun.(*ast.Ident); ok && id.Name == "any" {
			return true
		}
		if it, ok := e.Fun.(*ast.InterfaceType); ok && len(it.Methods.List) == 0 {
			return true
		}
	case *ast.Ident:
		if t, ok := c.declTypes[e.Name]; ok {
			return isEmptyInterface(t)
		}
		if _, declared := c.kinds[e.Name]; declared {
			return false
		}
		if v, ok := c.s.global(e.Name); ok && v.IsValid() {
			return v.Kind() == reflect.Interface && v.Type().NumMethod() == 0
		}
	}
	return false
}

func isEmptyInterface(t ast.Expr) bool {
	switch t := t.(type) {
	case *ast.Ident:
		return t.Name == "any"
	case *ast.InterfaceType:
		return t.Methods == nil || len(t.Methods.List) == 0
	}
	return false
}

// rangesOverFunc reports whether a range expression is a function: a literal, a function or
// func-typed variable, or a call of an iterator-returning function.
func (c *cellCtx) rangesOverFunc(x ast.Expr) bool {
	if t := c.typeOf(x); t != nil {
		_, isFunc := t.Underlying().(*types.Signature)
		return isFunc
	}
	if c.kindOf(x) == kindFunc {
		return true
	}
	call, ok := x.(*ast.CallExpr)
	if !ok {
		return false
	}
	switch f := call.Fun.(type) {
	case *ast.SelectorExpr:
		if id, ok := f.X.(*ast.Ident); ok && iteratorFuncs[id.Name+"."+f.Sel.Name] {
			return true
		}
	case *ast.Ident:
		if d := c.funcDecl(f.Name); d != nil && d.Type.Results != nil && len(d.Type.Results.List) == 1 {
			switch t := d.Type.Results.List[0].Type.(type) {
			case *ast.FuncType:
				return true
			case *ast.IndexExpr: // iter.Seq[T]
				if s, ok := t.X.(*ast.SelectorExpr); ok && s.Sel.Name == "Seq" {
					return true
				}
			case *ast.IndexListExpr: // iter.Seq2[K, V]
				if s, ok := t.X.(*ast.SelectorExpr); ok && s.Sel.Name == "Seq2" {
					return true
				}
			}
		}
	}
	return false
}

// pos formats a position of the cell.
func (c *cellCtx) pos(p token.Pos) string {
	return c.s.fset.Position(p).String()
}

// reflective are the functions and methods that read a value's fields by reflection, with the
// index of the argument they read: yaegi v0.16.1 builds a cell's struct with reflect, which
// can neither make unexported fields (it exports them: x becomes Xx) nor mark a field
// embedded, so what they see is not what Go's program would have.
var reflective = map[string]int{
	"encoding/json.Marshal": 0, "encoding/json.MarshalIndent": 0, "(*encoding/json.Encoder).Encode": 0,
	"encoding/json.Unmarshal": 1, "(*encoding/json.Decoder).Decode": 0,
	"encoding/xml.Marshal": 0, "encoding/xml.MarshalIndent": 0, "(*encoding/xml.Encoder).Encode": 0,
	"encoding/xml.Unmarshal": 1, "(*encoding/xml.Decoder).Decode": 0,
	"(*encoding/gob.Encoder).Encode": 0, "(*encoding/gob.Decoder).Decode": 0,
	"reflect.ValueOf": 0, "reflect.TypeOf": 0,
}

// callee is the function or method a call calls, nil for a call of a function value.
func (c *cellCtx) callee(call *ast.CallExpr) *types.Func {
	if c.checked == nil {
		return nil
	}
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.SelectorExpr:
		if sel := c.checked.info.Selections[f]; sel != nil {
			fn, _ := sel.Obj().(*types.Func)
			return fn
		}
		fn, _ := c.checked.info.Uses[f.Sel].(*types.Func)
		return fn
	case *ast.Ident:
		fn, _ := c.checked.info.Uses[f].(*types.Func)
		return fn
	}
	return nil
}

// funcName is fn as a student reads it: json.Marshal, (*json.Encoder).Encode.
func funcName(fn *types.Func) string {
	if recv := fn.Signature().Recv(); recv != nil {
		t := recv.Type()
		star := ""
		if p, ok := t.(*types.Pointer); ok {
			t, star = p.Elem(), "*"
		}
		if n, ok := t.(*types.Named); ok {
			return "(" + star + fn.Pkg().Name() + "." + n.Obj().Name() + ")." + fn.Name()
		}
	}
	return fn.Pkg().Name() + "." + fn.Name()
}

// encodesHiddenFields finds a call of a reflective function on a value whose type holds a
// cell's struct with an unexported or embedded field. It returns the function, the type and
// what is wrong with it, or "" when the call is fine.
func (c *cellCtx) encodesHiddenFields(call *ast.CallExpr) (enc, typ, field string) {
	fn := c.callee(call)
	if fn == nil || fn.Pkg() == nil {
		return "", "", ""
	}
	i, ok := reflective[fn.FullName()]
	if !ok || i >= len(call.Args) {
		return "", "", ""
	}
	t := c.typeOf(call.Args[i])
	if t == nil {
		return "", "", ""
	}
	if name, f := hiddenField(t, map[types.Type]bool{}); f != "" {
		return funcName(fn), name, f
	}
	return "", "", ""
}

// hiddenField finds, in t or a type it holds, a struct declared by a cell with an unexported
// or embedded field, and returns the type's name and the field, said as "unexported field x"
// or "embedded field Address".
func hiddenField(t types.Type, seen map[types.Type]bool) (string, string) {
	if seen[t] {
		return "", ""
	}
	seen[t] = true
	switch u := t.(type) {
	case *types.Named:
		if st, ok := u.Underlying().(*types.Struct); ok && u.Obj().Pkg() != nil && u.Obj().Pkg().Path() == "main" {
			for i := 0; i < st.NumFields(); i++ {
				switch f := st.Field(i); {
				case f.Embedded():
					return u.Obj().Name(), "embedded field " + f.Name()
				case !f.Exported() && f.Name() != "_":
					return u.Obj().Name(), "unexported field " + f.Name()
				}
			}
		}
		if u.Obj().Pkg() == nil || u.Obj().Pkg().Path() == "main" {
			return hiddenField(u.Underlying(), seen)
		}
	case *types.Pointer:
		return hiddenField(u.Elem(), seen)
	case *types.Slice:
		return hiddenField(u.Elem(), seen)
	case *types.Array:
		return hiddenField(u.Elem(), seen)
	case *types.Map:
		return hiddenField(u.Elem(), seen)
	case *types.Struct:
		for i := 0; i < u.NumFields(); i++ {
			if n, f := hiddenField(u.Field(i).Type(), seen); f != "" {
				return n, f
			}
		}
	}
	return "", ""
}

// formatters are the printing functions with a format string, by the index of the format.
var formatters = map[string]int{
	"fmt.Printf": 0, "fmt.Sprintf": 0, "fmt.Errorf": 0, "fmt.Fprintf": 1, "fmt.Appendf": 1,
	"log.Printf": 0, "log.Fatalf": 0, "log.Panicf": 0, "(*log.Logger).Printf": 0,
	"(*log.Logger).Fatalf": 0, "(*log.Logger).Panicf": 0,
}

// formatVerb is one verb of a format: flags, width and precision, and the verb's letter.
var formatVerb = regexp.MustCompile(`%[-+# 0]*(\[[0-9]+\])?[0-9*]*(\.[0-9*]*)?(\[[0-9]+\])?.`)

// formatsCellType finds a Printf-like call whose constant format prints a value of a cell's
// type with %+v, %#v or %T (its Go syntax, field names or type) that cellformat.go does not
// rewrite: yaegi's reflect-built types print other names (Xx for a field x, struct {…} for
// main.T) and hide a GoString method. It returns the verb and the type, "" when the call is fine.
func (c *cellCtx) formatsCellType(call *ast.CallExpr) (verb, typ string) {
	rewritten := map[ast.Expr]bool{} // the arguments cellformat.go prints as Go does
	if r := c.cellFormatCall(call); r != nil {
		for i := range r.args {
			rewritten[call.Args[i]] = true
		}
	}
	c.verbsWithArgs(call, func(v string, a ast.Expr) {
		goSyntax := strings.HasSuffix(v, "T") || (strings.HasSuffix(v, "v") && strings.ContainsAny(v, "+#"))
		if verb != "" || !goSyntax || rewritten[a] {
			return
		}
		if t := c.typeOf(a); t != nil && mentionsCellType(t) {
			verb, typ = v, types.TypeString(t, cellQualifier)
		}
	})
	return verb, typ
}

// mentionsCellType reports whether t is, or holds, a type a cell declared.
func mentionsCellType(t types.Type) bool {
	found := false
	var walk func(types.Type)
	seen := map[types.Type]bool{}
	walk = func(t types.Type) {
		if found || seen[t] {
			return
		}
		seen[t] = true
		switch u := t.(type) {
		case *types.Named:
			if u.Obj().Pkg() != nil && u.Obj().Pkg().Path() == "main" {
				found = true
			}
		case *types.Pointer:
			walk(u.Elem())
		case *types.Slice:
			walk(u.Elem())
		case *types.Array:
			walk(u.Elem())
		case *types.Map:
			walk(u.Key())
			walk(u.Elem())
		case *types.Struct:
			for i := 0; i < u.NumFields(); i++ {
				walk(u.Field(i).Type())
			}
		}
	}
	walk(t)
	return found
}

// interpreterFrames are the names whose answer describes the calling code's frames or source
// lines: in a cell they describe the interpreter's (value.go:586, reflect.Value.call).
var interpreterFrames = map[string]bool{
	"runtime.Caller": true, "runtime.Callers": true, "runtime.CallersFrames": true, "runtime.FuncForPC": true,
	"runtime.Stack": true, "runtime/debug.Stack": true, "runtime/debug.PrintStack": true,
	"log/slog.AddSource": true, // (log's Lshortfile and Llongfile: logsource.go)
}

// usesObject reports whether id names path.name.
func (c *cellCtx) usesObject(id *ast.Ident, path, name string) bool {
	if c.checked == nil || id.Name != name {
		return false
	}
	obj := c.checked.info.Uses[id]
	return obj != nil && obj.Pkg() != nil && obj.Pkg().Path() == path
}

// mapElemCommaOK is the map element a comma-ok assignment (m[k], ok = x.(T), = m2[k], = <-ch)
// assigns to, "" when it assigns to none.
func (c *cellCtx) mapElemCommaOK(a *ast.AssignStmt) string {
	if a.Tok != token.ASSIGN || len(a.Lhs) != 2 || len(a.Rhs) != 1 {
		return ""
	}
	for _, l := range a.Lhs {
		if ix, ok := ast.Unparen(l).(*ast.IndexExpr); ok {
			if _, isMap := under(c.typeOf(ix.X)).(*types.Map); isMap {
				return types.ExprString(l)
			}
		}
	}
	return ""
}

// typeParamCaseOf is the first case of s that is a type parameter, "" when none is.
func (c *cellCtx) typeParamCaseOf(s *ast.TypeSwitchStmt) string {
	for _, cc := range s.Body.List {
		for _, t := range cc.(*ast.CaseClause).List {
			if _, ok := c.typeOf(t).(*types.TypeParam); ok {
				return types.ExprString(t)
			}
		}
	}
	return ""
}

// typeParamComparison finds x == v or x != v with x of an interface type and v of a type
// parameter's: it returns the type parameter and v.
func (c *cellCtx) typeParamComparison(b *ast.BinaryExpr) (tp, v string) {
	if b.Op != token.EQL && b.Op != token.NEQ {
		return "", ""
	}
	for _, pair := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
		x, y := c.typeOf(pair[0]), c.typeOf(pair[1])
		if p, ok := y.(*types.TypeParam); ok && x != nil && types.IsInterface(x) {
			if _, xp := x.(*types.TypeParam); !xp {
				return p.Obj().Name(), types.ExprString(pair[1])
			}
		}
	}
	return "", ""
}

// framesName reports whether id names one of interpreterFrames (slog.HandlerOptions's
// AddSource field included).
func (c *cellCtx) framesName(id *ast.Ident) bool {
	if c.checked == nil {
		return false
	}
	obj := c.checked.info.Uses[id]
	return obj != nil && obj.Pkg() != nil && interpreterFrames[obj.Pkg().Path()+"."+obj.Name()]
}

// slogMethodOfCellValuer finds a call of a method of a log/slog type with an argument of a
// cell's type that has a LogValue or String method: yaegi passes the value without them (the
// package's functions, slog.Info and the others, get them). It returns the method and the type.
func (c *cellCtx) slogMethodOfCellValuer(call *ast.CallExpr) (method, typ string) {
	fn := c.callee(call)
	if fn == nil || fn.Pkg() == nil || fn.Pkg().Path() != "log/slog" || fn.Signature().Recv() == nil {
		return "", ""
	}
	for _, a := range call.Args {
		t := c.typeOf(a)
		if t == nil || !mentionsCellType(t) {
			continue
		}
		mset := types.NewMethodSet(types.NewPointer(t))
		if mset.Lookup(nil, "LogValue") != nil || mset.Lookup(nil, "String") != nil {
			return funcName(fn), types.TypeString(t, cellQualifier)
		}
	}
	return "", ""
}

// wrongAssertion finds the type assertions (and type switch cases) from a value of a non-empty
// interface type that yaegi v0.16.1 answers wrongly without an error: to an interface a cell
// declares or an interface literal (it answers no where Go answers yes), and to a cell's type
// that is not a pointer from a compiled interface such as error (no, or a panic). From a cell's
// interface, such an assertion is fine when the kernel rewrites it (cellassert.go; a type
// switch's case when typeswitch.go writes the switch as a chain: rewritten), and refused when
// not. It returns the refusal and what it found; nil when the assertion is fine.
func (c *cellCtx) wrongAssertion(x, target ast.Expr, rewritten bool) (construct, []string) {
	if c.checked == nil || isNilIdent(target) {
		return 0, nil
	}
	xt := c.typeOf(x)
	tv, ok := c.checked.info.Types[target]
	if xt == nil || !ok || !tv.IsType() {
		return 0, nil
	}
	if it, ok := xt.Underlying().(*types.Interface); !ok || it.Empty() {
		return 0, nil
	}
	t := types.Unalias(tv.Type)
	named, isNamed := t.(*types.Named)
	mine := isNamed && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() == "main"
	switch {
	case types.IsInterface(t) && (mine || !isNamed):
		return interfaceAssertion, []string{types.TypeString(t, cellQualifier), types.TypeString(xt, cellQualifier)}
	case mine && !types.IsInterface(t) && cellInterface(xt) && rewritten:
		return 0, nil
	case mine && !types.IsInterface(t):
		return valueTypeAssertion, []string{named.Obj().Name(), types.TypeString(xt, cellQualifier)}
	}
	return 0, nil
}

// cellQualifier writes a cell's types by name and other packages' by package name.
func cellQualifier(p *types.Package) string {
	if p.Path() == "main" {
		return ""
	}
	return p.Name()
}

// asValueError finds errors.As(err, &v) or errors.AsType[T](err) with v or T of a cell's type
// that is not a pointer (nor an interface), and returns the type.
func (c *cellCtx) asValueError(call *ast.CallExpr) string {
	var target types.Type
	if ix, ok := call.Fun.(*ast.IndexExpr); ok { // errors.AsType[T](err)
		if sel, ok := ix.X.(*ast.SelectorExpr); ok && c.checked != nil {
			if fn, ok := c.checked.info.Uses[sel.Sel].(*types.Func); ok && fn.FullName() == "errors.AsType" {
				target = c.typeOf(ix.Index)
			}
		}
	} else if fn := c.callee(call); fn != nil && fn.FullName() == "errors.As" && len(call.Args) == 2 {
		if p, ok := c.typeOf(call.Args[1]).(*types.Pointer); ok {
			target = p.Elem()
		}
	}
	n, ok := target.(*types.Named)
	if !ok || n.Obj().Pkg() == nil || n.Obj().Pkg().Path() != "main" || types.IsInterface(n) {
		return ""
	}
	return n.Obj().Name()
}

// parallelMethodValue is the first of several values that is a method value the kernel would
// copy the receiver of (boundMethodValue), which it cannot do among the values of a parallel
// assignment (methodValues).
func (c *cellCtx) parallelMethodValue(values []ast.Expr) *ast.SelectorExpr {
	if len(values) < 2 || c.checked == nil {
		return nil
	}
	for _, v := range values {
		if sel, ok := v.(*ast.SelectorExpr); ok && c.boundMethodValue(sel) != nil {
			return sel
		}
	}
	return nil
}

// unsafeHeader finds unsafe.Pointer(&x) with x a string or a slice: a program reading the
// header's words. It returns x and its type, "" when the call is another.
func (c *cellCtx) unsafeHeader(call *ast.CallExpr) (x, typ string) {
	if c.checked == nil || len(call.Args) != 1 {
		return "", ""
	}
	tv, ok := c.checked.info.Types[call.Fun]
	if !ok || !tv.IsType() || !types.Identical(tv.Type, types.Typ[types.UnsafePointer]) {
		return "", ""
	}
	addr, ok := ast.Unparen(call.Args[0]).(*ast.UnaryExpr)
	if !ok || addr.Op != token.AND {
		return "", ""
	}
	t := c.typeOf(addr.X)
	if t == nil {
		return "", ""
	}
	switch u := t.Underlying().(type) {
	case *types.Slice:
		return types.ExprString(addr.X), "slice"
	case *types.Basic:
		if u.Info()&types.IsString != 0 {
			return types.ExprString(addr.X), "string"
		}
	}
	return "", ""
}
