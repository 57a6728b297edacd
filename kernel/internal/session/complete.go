package session

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"reflect"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gptnotes/gptnotes/kernel/display"
	"github.com/gptnotes/gptnotes/kernel/symbols"
)

// Completion, inspection and is_complete answer from what the session knows without running
// anything: the keywords and builtins, the cells' declarations, the interpreter's globals, the
// symbol tables of imported packages, and the doc table generated with the plugins.

var keywords = []string{"break", "case", "chan", "const", "continue", "default", "defer", "else",
	"fallthrough", "for", "func", "go", "goto", "if", "import", "interface", "map", "package",
	"range", "return", "select", "struct", "switch", "type", "var"}

var builtins = []string{"append", "bool", "byte", "cap", "clear", "close", "complex", "complex128",
	"complex64", "copy", "delete", "error", "false", "float32", "float64", "imag", "int", "int16",
	"int32", "int64", "int8", "iota", "len", "make", "max", "min", "new", "nil", "panic", "print",
	"println", "real", "recover", "rune", "string", "true", "uint", "uint16", "uint32", "uint64",
	"uint8", "uintptr", "any"}

// Complete returns the completions of the identifier before cursor (in unicode code points) and
// the code-point range [start, end) they replace. After "x." it completes x's members: a
// package's exported symbols, a variable's fields and methods.
func (s *Session) Complete(code string, cursor int) (matches []string, start, end int) {
	defer func() {
		if r := recover(); r != nil { // never let a completion take the kernel down
			fmt.Fprintf(LogWriter(), "session: complete %q: %v\n", code, r)
			matches = nil
		}
	}()
	off := byteOffset(code, cursor)
	word := identBefore(code, off)
	start = cursor - utf8.RuneCountInString(word)
	end = cursor
	before := code[:off-len(word)]

	s.stateMu.RLock()
	defer s.stateMu.RUnlock()
	var cands []string
	if strings.HasSuffix(before, ".") {
		x := identBefore(before, len(before)-1)
		if x == "" {
			return nil, start, end
		}
		cands = s.members(code, x)
	} else {
		cands = s.names(code)
	}
	seen := map[string]bool{}
	for _, c := range cands {
		if strings.HasPrefix(c, word) && !strings.HasPrefix(c, "__") && !seen[c] {
			seen[c] = true
			matches = append(matches, c)
		}
	}
	sort.Strings(matches)
	return matches, start, end
}

// names lists everything an identifier can complete to at the top level.
func (s *Session) names(code string) []string {
	out := append(append([]string{}, keywords...), builtins...)
	for name := range s.in.Globals() {
		out = append(out, name)
	}
	for name := range s.funcs {
		out = append(out, name)
	}
	for name := range s.types {
		out = append(out, name)
	}
	for _, name := range s.imports {
		out = append(out, name)
	}
	for path := range s.packages {
		out = append(out, path[strings.LastIndex(path, "/")+1:])
	}
	// identifiers of the code being edited, declared but not yet run
	var sc scanner.Scanner
	fset := token.NewFileSet()
	sc.Init(fset.AddFile("", -1, len(code)), []byte(code), func(token.Position, string) {}, 0)
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.IDENT {
			out = append(out, lit)
		}
	}
	return out
}

// members lists what can follow "x.": the exported symbols of package x, or the fields and
// methods of variable x.
func (s *Session) members(code, x string) []string {
	if path := s.packagePath(code, x); path != "" {
		var out []string
		for name := range s.packageSymbols(path) {
			out = append(out, name)
		}
		return out
	}
	v, ok := s.in.Globals()[x]
	if !ok || !v.IsValid() {
		return nil
	}
	var out []string
	if tn := s.varTypes[x]; tn != "" {
		// A cell's type: its methods and fields from its declaration (yaegi's reflect type
		// renames unexported fields, name → Xname).
		for m := range s.methods[tn] {
			out = append(out, m)
		}
		return append(out, s.fieldNames(tn)...)
	}
	return append(out, reflectMembers(v.Type())...)
}

// fieldNames lists the fields of cell-declared struct type name, embedded ones by type name.
func (s *Session) fieldNames(name string) []string {
	f, err := parser.ParseFile(token.NewFileSet(), "", "package p\ntype "+s.types[name], 0)
	if err != nil || len(f.Decls) == 0 {
		return nil
	}
	ts, ok := f.Decls[0].(*ast.GenDecl).Specs[0].(*ast.TypeSpec)
	if !ok {
		return nil
	}
	st, ok := ts.Type.(*ast.StructType)
	if !ok {
		return nil
	}
	var out []string
	for _, fl := range st.Fields.List {
		for _, n := range fl.Names {
			out = append(out, n.Name)
		}
		if len(fl.Names) == 0 {
			if t := recvTypeName(fl.Type); t != "" {
				out = append(out, t)
			} else if sel, ok := fl.Type.(*ast.SelectorExpr); ok {
				out = append(out, sel.Sel.Name)
			}
		}
	}
	return out
}

// reflectMembers lists the exported fields and methods of t (through one pointer).
func reflectMembers(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumMethod(); i++ {
		out = append(out, t.Method(i).Name)
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
		if t.Kind() != reflect.Interface {
			for i := 0; i < t.NumMethod(); i++ {
				out = append(out, t.Method(i).Name)
			}
		}
	}
	if t.Kind() == reflect.Struct {
		for i := 0; i < t.NumField(); i++ {
			if f := t.Field(i); f.Name != "_" {
				out = append(out, f.Name)
			}
		}
	}
	return out
}

// packagePath is the import path of package name, imported by an earlier cell or by code.
func (s *Session) packagePath(code, name string) string {
	for key, n := range s.imports {
		if n == name {
			return key[strings.LastIndex(key, " ")+1:]
		}
	}
	for _, p := range splitCell(code) {
		if p.kind != declPiece {
			continue
		}
		for _, line := range strings.Split(code[p.start:p.end], "\n") {
			for _, q := range strings.Split(line, "\"") {
				if q != "" && (q == name || strings.HasSuffix(q, "/"+name)) {
					if len(s.packageSymbols(q)) > 0 {
						return q
					}
				}
			}
		}
	}
	if name != "" && len(s.packageSymbols(name)) > 0 && isStdlibName(name) {
		return name
	}
	return ""
}

// isStdlibName reports a single-element path (fmt, strings, …), usable as a package name.
func isStdlibName(name string) bool { return !strings.Contains(name, "/") }

// Inspect describes the identifier at cursor: the signature and documentation of a package's
// symbol, the declaration of a cell's function or type, the type and value of a variable.
func (s *Session) Inspect(code string, cursor int, detailLevel int) (data map[string]any, found bool) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(LogWriter(), "session: inspect %q: %v\n", code, r)
			data, found = nil, false
		}
	}()
	off := byteOffset(code, cursor)
	word := identBefore(code, off) + identAfter(code, off)
	if word == "" {
		return nil, false
	}
	wstart := off - len(identBefore(code, off))
	s.stateMu.RLock()
	defer s.stateMu.RUnlock()
	var text string
	if wstart > 0 && code[wstart-1] == '.' {
		x := identBefore(code, wstart-1)
		if path := s.packagePath(code, x); path != "" {
			text = s.describeSymbol(path, x, word)
		} else if m := s.methods[s.varTypes[x]][word]; m != nil {
			text = describeFunc(m, detailLevel)
		} else if v, ok := s.in.Globals()[x]; ok && v.IsValid() {
			text = describeMember(v, word)
		}
	} else {
		text = s.describeName(word, detailLevel)
	}
	if text == "" {
		return nil, false
	}
	return map[string]any{display.MIMEPlain: text}, true
}

// describeSymbol is the signature and doc comment of path.name: from the generated doc table
// when the package has one, else the symbol's Go type.
func (s *Session) describeSymbol(path, pkg, name string) string {
	if d, ok := symbols.Docs[path+"."+name]; ok {
		return d
	}
	if d, ok := s.moduleDoc(path, name); ok {
		return d
	}
	if v, ok := s.packageSymbols(path)[name]; ok {
		switch {
		case !v.IsValid():
			return "func " + pkg + "." + name + " (generic)"
		case v.Kind() == reflect.Func:
			return "func " + pkg + "." + name + strings.TrimPrefix(v.Type().String(), "func")
		case v.Kind() == reflect.Pointer && v.IsNil():
			return "type " + pkg + "." + name + " " + v.Type().Elem().Kind().String()
		default:
			return "var " + pkg + "." + name + " " + v.Type().String() + " = " + display.Plain(v.Interface())
		}
	}
	return ""
}

// describeMember describes field or method name of variable v: from the doc table when v's
// type belongs to a documented package, else from reflection.
func describeMember(v reflect.Value, name string) string {
	t := v.Type()
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.PkgPath() != "" {
		if d, ok := symbols.Docs[t.PkgPath()+"."+t.Name()+"."+name]; ok {
			return d
		}
	}
	if m, ok := v.Type().MethodByName(name); ok {
		return "func (" + v.Type().String() + ") " + name + strings.TrimPrefix(m.Type.String(), "func")
	}
	e := v
	for e.Kind() == reflect.Pointer && !e.IsNil() {
		e = e.Elem()
	}
	if e.Kind() == reflect.Struct {
		for _, fn := range []string{name, "X" + name} { // yaegi names an unexported field Xname
			if f := e.FieldByName(fn); f.IsValid() && f.CanInterface() {
				return name + " " + f.Type().String() + " = " + display.Plain(f.Interface())
			}
		}
	}
	return ""
}

// describeName describes a top-level name: a cell's function or type, a variable, a package.
func (s *Session) describeName(name string, detail int) string {
	if f, ok := s.funcs[name]; ok {
		return describeFunc(f, detail)
	}
	if src, ok := s.types[name]; ok {
		text := "type " + src
		var ms []string
		for _, d := range s.methods[name] {
			decl := *d
			decl.Body = nil
			ms = append(ms, printNode(&decl))
		}
		sort.Strings(ms)
		if len(ms) > 0 {
			text += "\n\n" + strings.Join(ms, "\n")
		}
		return text
	}
	if v, ok := s.in.Globals()[name]; ok && v.IsValid() {
		typ := v.Type().String()
		if tn := s.varTypes[name]; tn != "" {
			typ = tn
		}
		val := "?"
		if v.CanInterface() {
			val = display.Plain(v.Interface())
		}
		return name + " " + typ + " = " + val
	}
	if path := s.packagePath("", name); path != "" {
		if d, ok := symbols.Docs[path]; ok {
			return d
		}
		return "package " + name + ` // import "` + path + `"`
	}
	return ""
}

// describeFunc is a cell function's declaration (with its body at detail level 1) and doc.
func describeFunc(f *ast.FuncDecl, detail int) string {
	decl := *f
	decl.Doc = nil
	if detail == 0 {
		decl.Body = nil
	}
	text := printNode(&decl)
	if f.Doc != nil {
		text += "\n\n" + f.Doc.Text()
	}
	return text
}

func printNode(n ast.Node) string {
	var c cellCtx
	return c.source(n)
}

// IsComplete tells a console whether code is ready to run: "incomplete" (with the indent of the
// next line) for an unclosed brace or a line that cannot end there, "invalid" for a syntax
// error, "complete" otherwise.
func (s *Session) IsComplete(code string) (status, indent string) {
	if strings.TrimSpace(code) == "" {
		return "complete", ""
	}
	var sc scanner.Scanner
	fset := token.NewFileSet()
	unterminated := false
	sc.Init(fset.AddFile("", -1, len(code)), []byte(code), func(_ token.Position, msg string) {
		if strings.Contains(msg, "not terminated") {
			unterminated = true
		}
	}, 0)
	depth := 0
	for {
		_, tok, _ := sc.Scan()
		if tok == token.EOF {
			break
		}
		switch tok {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth--
		}
		if depth < 0 {
			return "invalid", ""
		}
	}
	if unterminated {
		return "incomplete", ""
	}
	if depth > 0 {
		return "incomplete", strings.Repeat("\t", depth)
	}
	pieces := splitCell(code)
	err := parsePieces(token.NewFileSet(), scopeFile, code, pieces)
	if err == nil {
		return "complete", ""
	}
	if l, ok := err.(scanner.ErrorList); ok {
		for _, e := range l {
			if !strings.Contains(e.Msg, "found 'EOF'") && !strings.Contains(e.Msg, "found '}'") {
				return "invalid", ""
			}
		}
		return "incomplete", ""
	}
	return "invalid", ""
}

// byteOffset converts a position in code points to a byte offset, clamped to code.
func byteOffset(code string, cursor int) int {
	if cursor <= 0 {
		return 0
	}
	n := 0
	for i := range code {
		if n == cursor {
			return i
		}
		n++
	}
	return len(code)
}

func isIdentRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// identBefore is the identifier characters ending at byte offset off.
func identBefore(code string, off int) string {
	i := off
	for i > 0 {
		r, size := utf8.DecodeLastRuneInString(code[:i])
		if !isIdentRune(r) {
			break
		}
		i -= size
	}
	return code[i:off]
}

// identAfter is the identifier characters starting at byte offset off.
func identAfter(code string, off int) string {
	i := off
	for i < len(code) {
		r, size := utf8.DecodeRuneInString(code[i:])
		if !isIdentRune(r) {
			break
		}
		i += size
	}
	return code[off:i]
}
