package session

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"maps"
	"sort"
	"strconv"
	"strings"
)

// A cell is split into pieces yaegi can take one at a time: runs of top-level declarations that
// must live at package level (import, func, type) and runs of statements (everything else,
// including var and const, which yaegi keeps global when they come as statements). Each piece is
// parsed with the interpreter's FileSet behind a //line directive, so every position yaegi or
// go/parser reports is in the cell's own line:column.

type pieceKind int

const (
	declPiece pieceKind = iota // parsed as a file: imports, funcs, methods, types
	stmtPiece                  // parsed as the body of a function, run in the global scope
)

// A piece is a run of source of one kind, [start, end) in the cell's bytes.
type piece struct {
	kind       pieceKind
	start, end int
	file       *ast.File      // declPiece
	body       *ast.BlockStmt // stmtPiece
	wrapper    *ast.File      // stmtPiece: the file holding body, as func _() { body }, for the check
}

// root is the syntax tree of the piece: its file for declarations, its block for statements.
func (p piece) root() ast.Node {
	if p.kind == declPiece {
		return p.file
	}
	return p.body
}

// splitCell cuts src into pieces at the top-level import, func and type declarations.
func splitCell(src string) []piece {
	var s scanner.Scanner
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	s.Init(file, []byte(src), nil, 0)

	var offs []int
	var toks []token.Token
	for {
		pos, t, _ := s.Scan()
		if t == token.EOF {
			break
		}
		offs, toks = append(offs, file.Offset(pos)), append(toks, t)
	}

	var pieces []piece
	add := func(kind pieceKind, start, end int) {
		if strings.TrimSpace(src[start:end]) == "" {
			return
		}
		if n := len(pieces); n > 0 && pieces[n-1].kind == kind {
			pieces[n-1].end = end
			return
		}
		pieces = append(pieces, piece{kind: kind, start: start, end: end})
	}

	depth := 0
	stmtStart := true
	cur := 0 // start of the current run
	curKind := stmtPiece
	for i, t := range toks {
		if depth == 0 && stmtStart {
			kind := stmtPiece
			switch t {
			case token.IMPORT, token.TYPE:
				kind = declPiece
			case token.FUNC:
				if isFuncDecl(toks, i) {
					kind = declPiece
				}
			}
			if kind != curKind {
				add(curKind, cur, offs[i])
				cur, curKind = offs[i], kind
			}
		}
		switch t {
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth--
		}
		stmtStart = depth == 0 && t == token.SEMICOLON
	}
	add(curKind, cur, len(src))
	return pieces
}

// stripPackageClause blanks out a leading `package name` clause, so that a whole program pasted
// into a cell runs: its declarations join the session's one package whatever its name, as a
// cell without the clause does. Blanks keep every position in the cell where it was. It reports
// whether there was a clause.
func stripPackageClause(src string) (string, bool) {
	var s scanner.Scanner
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	s.Init(file, []byte(src), nil, 0)
	pos, t, _ := s.Scan()
	if t != token.PACKAGE {
		return src, false
	}
	start := file.Offset(pos)
	_, t, _ = s.Scan()
	if t != token.IDENT {
		return src, false
	}
	npos, t, lit := s.Scan()
	end := file.Offset(npos)
	if t == token.SEMICOLON && lit == ";" {
		end++
	}
	b := []byte(src)
	for i := start; i < end; i++ {
		if b[i] != '\n' {
			b[i] = ' '
		}
	}
	return string(b), true
}

// isFuncDecl reports whether the func keyword at toks[i] starts a declaration (func Name…,
// func (recv) Name…) rather than a function literal statement (func(…){…}()).
func isFuncDecl(toks []token.Token, i int) bool {
	at := func(k int) token.Token { return toks[k] }
	if i+1 >= len(toks) {
		return false
	}
	switch at(i + 1) {
	case token.IDENT:
		return true
	case token.LPAREN:
		depth := 0
		for k := i + 1; k < len(toks); k++ {
			switch at(k) {
			case token.LPAREN:
				depth++
			case token.RPAREN:
				depth--
				if depth == 0 {
					return k+2 < len(toks) && at(k+1) == token.IDENT && (at(k+2) == token.LPAREN || at(k+2) == token.LBRACK)
				}
			}
		}
	}
	return false
}

// scopeFile is the file name of every piece, in the parse and in the //line directive. yaegi
// keeps imports per file name, looked up by the position of the node that uses them, so all
// cells must share one name for an import to stay visible to later cells. Positions therefore
// read "cell:2:5": line 2, column 5 of the cell being run.
const scopeFile = "cell"

// lineDirective positions the next line at offset off of src, in file name.
func lineDirective(name, src string, off int) string {
	line := 1 + strings.Count(src[:off], "\n")
	col := off - (strings.LastIndex(src[:off], "\n") + 1) + 1
	return fmt.Sprintf("//line %s:%d:%d\n", name, line, col)
}

// parsePieces parses every piece with fset, positions in cell name.
func parsePieces(fset *token.FileSet, name, src string, pieces []piece) error {
	var errs scanner.ErrorList
	for i := range pieces {
		p := &pieces[i]
		text := src[p.start:p.end]
		dir := lineDirective(name, src, p.start)
		switch p.kind {
		case declPiece:
			f, err := parser.ParseFile(fset, scopeFile, "package main\n"+dir+text, parser.ParseComments)
			if err != nil {
				errs = appendErrors(errs, err)
				continue
			}
			p.file = f
			// go/parser takes a function without a body (one written in assembly); a cell has
			// none, and Go's compiler refuses it: `func main()` with its { on the next line.
			for _, d := range f.Decls {
				if fd, ok := d.(*ast.FuncDecl); ok && fd.Body == nil {
					errs.Add(fset.Position(fd.Name.Pos()), "missing function body")
				}
			}
		case stmtPiece:
			f, err := parser.ParseFile(fset, scopeFile, "package main\nfunc _() {\n"+dir+text+"\n}", parser.ParseComments)
			if err != nil {
				errs = appendErrors(errs, err)
				continue
			}
			p.body = f.Decls[0].(*ast.FuncDecl).Body
			p.wrapper = f
		}
	}
	if len(errs) == 0 {
		return nil
	}
	sort.Sort(errs)
	errs.RemoveMultiples()
	if len(errs) > 1 {
		// The wrapper's closing brace makes a follow-up error past the cell's end; drop it when
		// the cell's own errors explain the failure.
		kept := errs[:0]
		for _, e := range errs {
			if e.Msg != "expected '}', found 'EOF'" {
				kept = append(kept, e)
			}
		}
		errs = kept
	}
	return errs
}

func appendErrors(errs scanner.ErrorList, err error) scanner.ErrorList {
	if l, ok := err.(scanner.ErrorList); ok {
		return append(errs, l...)
	}
	return append(errs, &scanner.Error{Msg: err.Error()})
}

// orderPieces moves each declaration piece up, as Go declares a package's functions and types
// before any statement runs: before every statement piece that declares nothing it uses, so a
// function declared below the statement that fails is still declared, and `func f` may use `g`
// declared further down. It never moves a declaration above a statement that declares a
// variable it uses. Adjacent declaration pieces are then merged into one file.
func orderPieces(pieces []piece) []piece {
	pieces = splitBlocked(hoistVars(pieces))
	for j := range pieces {
		if pieces[j].kind != declPiece {
			continue
		}
		target := j
		for k := j - 1; k >= 0; k-- {
			if pieces[k].kind == stmtPiece && usesAny(pieces[j], declaredNames(pieces[k])) {
				break
			}
			target = k
		}
		if target < j {
			p := pieces[j]
			copy(pieces[target+1:j+1], pieces[target:j])
			pieces[target] = p
		}
	}
	var out []piece
	for _, p := range pieces {
		if n := len(out); n > 0 && p.kind == declPiece && out[n-1].kind == declPiece {
			f := out[n-1].file
			f.Decls = append(f.Decls, p.file.Decls...)
			f.Imports = append(f.Imports, p.file.Imports...)
			if f.Comments == nil {
				f.Comments = p.file.Comments // a piece splitImports cut in two, whole again
			}
			// Imports first, as in any Go file.
			sort.SliceStable(f.Decls, func(i, j int) bool { return isImport(f.Decls[i]) && !isImport(f.Decls[j]) })
			continue
		}
		out = append(out, p)
	}
	return out
}

func isImport(d ast.Decl) bool {
	g, ok := d.(*ast.GenDecl)
	return ok && g.Tok == token.IMPORT
}

// declaredNames lists the variables and constants a statement piece declares at its top level.
func declaredNames(p piece) map[string]bool {
	names := map[string]bool{}
	for _, s := range p.body.List {
		switch s := s.(type) {
		case *ast.AssignStmt:
			if s.Tok == token.DEFINE {
				for _, l := range s.Lhs {
					if id, ok := l.(*ast.Ident); ok {
						names[id.Name] = true
					}
				}
			}
		case *ast.DeclStmt:
			for _, sp := range s.Decl.(*ast.GenDecl).Specs {
				switch sp := sp.(type) {
				case *ast.ValueSpec:
					for _, id := range sp.Names {
						names[id.Name] = true
					}
				case *ast.TypeSpec:
					names[sp.Name.Name] = true
				}
			}
		}
	}
	return names
}

// hoistVars moves a piece of var declarations up above the declaration pieces before it that use
// its variables, as Go declares a package's variables for all its functions: a pasted file may
// declare `var sink any` below the functions that assign it. It stops at a statement piece, and
// at a declaration piece whose names the variables' values use (var x = f() after func f).
func hoistVars(pieces []piece) []piece {
	pieces = splitImports(pieces)
	for j := range pieces {
		p := pieces[j]
		if p.kind != stmtPiece || !onlyVars(p) {
			continue
		}
		vars := declaredNames(p)
		target, needed := j, false
		for k := j - 1; k >= 0; k-- {
			q := pieces[k]
			if q.kind != declPiece || usesAny(p, pieceDeclNames(q)) {
				break
			}
			target = k
			needed = needed || usesAny(q, vars)
		}
		if needed && target < j {
			copy(pieces[target+1:j+1], pieces[target:j])
			pieces[target] = p
		}
	}
	return pieces
}

// splitBlocked splits a declaration piece that uses a variable a statement piece above it
// declares in two: the declarations that use none such, which orderPieces then moves up on
// their own, and the others. Go declares a package's types and functions before any statement
// runs, so a pasted file may declare `var t fakeT` above `type fakeT` and a func main that uses
// t, all in one piece.
func splitBlocked(pieces []piece) []piece {
	var out []piece
	declared := map[string]bool{}
	for _, p := range pieces {
		if p.kind == stmtPiece {
			maps.Copy(declared, declaredNames(p))
		}
		if p.kind != declPiece || len(p.file.Imports) > 0 || len(declared) == 0 {
			out = append(out, p)
			continue
		}
		// Bound: a declaration that uses such a variable, or (again and again) one that uses a
		// bound declaration: ExamplePool calls Log, which uses the variable bufPool.
		blocked, isBound := maps.Clone(declared), make([]bool, len(p.file.Decls))
		for changed := true; changed; {
			changed = false
			for i, d := range p.file.Decls {
				if !isBound[i] && usesIn(d, blocked) {
					isBound[i], changed = true, true
					for _, k := range declKeys(d) {
						blocked[k] = true
					}
				}
			}
		}
		var free, bound []ast.Decl
		for i, d := range p.file.Decls {
			if isBound[i] {
				bound = append(bound, d)
			} else {
				free = append(free, d)
			}
		}
		if len(free) == 0 || len(bound) == 0 {
			out = append(out, p)
			continue
		}
		a, b := p, p
		fa, fb := *p.file, *p.file
		fa.Decls, fb.Decls = free, bound
		a.file, b.file = &fa, &fb
		out = append(out, a, b)
	}
	return out
}

// splitImports puts the imports of each declaration piece that has other declarations too in a
// piece of their own before it, so that a variable can go between them (`var origin =
// &url.URL{}` below `import "net/url"`, above the functions using origin). orderPieces merges
// the two again when nothing came between them.
func splitImports(pieces []piece) []piece {
	var out []piece
	for _, p := range pieces {
		if p.kind != declPiece || len(p.file.Imports) == 0 {
			out = append(out, p)
			continue
		}
		var imports, rest []ast.Decl
		for _, d := range p.file.Decls {
			if isImport(d) {
				imports = append(imports, d)
			} else {
				rest = append(rest, d)
			}
		}
		if len(rest) == 0 {
			out = append(out, p)
			continue
		}
		imp, others := p, p
		imp.file = &ast.File{Package: p.file.Package, Name: p.file.Name, Decls: imports, Imports: p.file.Imports}
		f := *p.file
		f.Decls, f.Imports = rest, nil
		others.file = &f
		out = append(out, imp, others)
	}
	return out
}

// onlyVars reports whether every statement of a statement piece is a var declaration.
func onlyVars(p piece) bool {
	for _, s := range p.body.List {
		ds, ok := s.(*ast.DeclStmt)
		if !ok || ds.Decl.(*ast.GenDecl).Tok != token.VAR {
			return false
		}
	}
	return len(p.body.List) > 0
}

// pieceDeclNames are the names a declaration piece declares (a method as T.M), and the names
// of the packages it imports: a variable whose type or value uses one stays below the import.
func pieceDeclNames(p piece) map[string]bool {
	names := map[string]bool{}
	for _, d := range p.file.Decls {
		for _, k := range declKeys(d) {
			names[k] = true
		}
	}
	for _, im := range p.file.Imports {
		if im.Name != nil {
			names[im.Name.Name] = true
			continue
		}
		path, _ := strconv.Unquote(im.Path.Value)
		elems := strings.Split(path, "/")
		name := elems[len(elems)-1]
		if len(elems) > 1 && len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" {
			name = elems[len(elems)-2] // math/rand/v2 is rand
		}
		names[name] = true
	}
	return names
}

// usesAny reports whether p uses one of names (usesIn).
func usesAny(p piece, names map[string]bool) bool {
	if len(names) == 0 {
		return false
	}
	return usesIn(p.root(), names)
}

// usesIn reports whether an identifier in n is one of names, leaving out the identifiers that
// cannot be a package-level name: a selected field or method (x.t), the names a field, parameter
// or result declares, and inside a function the uses of its own parameters (`func (t T) f() {
// t.g() }` uses T, not a variable t).
func usesIn(n ast.Node, names map[string]bool) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if found {
			return false
		}
		switch n := n.(type) {
		case *ast.Ident:
			found = names[n.Name]
		case *ast.SelectorExpr:
			found = usesIn(n.X, names)
			return false
		case *ast.Field:
			found = usesIn(n.Type, names)
			return false
		case *ast.FuncDecl:
			found = n.Recv != nil && usesIn(n.Recv, names) || usesIn(n.Type, names) ||
				n.Body != nil && usesIn(n.Body, withoutParams(names, n.Recv, n.Type))
			return false
		case *ast.FuncLit:
			found = usesIn(n.Type, names) || usesIn(n.Body, withoutParams(names, nil, n.Type))
			return false
		}
		return true
	})
	return found
}

// withoutParams is names less the receiver, parameters and results a function declares.
func withoutParams(names map[string]bool, recv *ast.FieldList, ft *ast.FuncType) map[string]bool {
	out := maps.Clone(names)
	for _, fl := range []*ast.FieldList{recv, ft.TypeParams, ft.Params, ft.Results} {
		if fl == nil {
			continue
		}
		for _, f := range fl.List {
			for _, id := range f.Names {
				delete(out, id.Name)
			}
		}
	}
	return out
}
