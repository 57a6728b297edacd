package session

import (
	"context"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"
)

// Declarations that wait for a later cell. At package level Go takes declarations in any order:
//
//	type List[T any] struct{ head *element[T] }   // cell 1
//	type element[T any] struct{ next *element[T]; val T }   // cell 2
//
// compiles as one file. A notebook checks cell 1 alone, and element is undefined. When a cell
// holds only declarations (types, functions, methods, imports) and its only errors are names no
// cell has declared yet, each used as a type in a type declaration or a function's signature
// (`head *element[T]`, `func f(w widget)`: a type the notebook has still to write), the kernel
// keeps the cell rather than fail it: it says which names it waits for, and runs it again, as it
// was written, right after a later cell declares one of them. A name used only in a function's
// body stays Go's error: it is more often a typo (`fmt.Println(nam)`) than a promise; so does a
// name one letter from a type the cell could mean (`flaot64`, `Pionts` for Points).
// Until then its own names are undefined, as they would be in a program without the later
// declarations. A cell that uses a waiting name runs with the waiting cells that declare it,
// appended after its own lines (its positions stay its own): when it declares what they wait
// for, all of it runs (`type item …` with a method of the waiting pair, `type element …` and a
// use of List); otherwise Go's undefined error says what the name waits for. A cell that
// declares a waiting name again replaces the waiting declaration.

// A waitingCell is a cell of declarations kept until the names it uses are declared.
type waitingCell struct {
	code     string   // the cell as written, without a package clause
	needs    []string // the undefined names it uses, sorted
	declares []string // the package-level names it declares, sorted
}

// A waitError is prepare's answer for a cell that waits: its names and what they need.
type waitError struct {
	cell waitingCell
}

func (w *waitError) Error() string { return w.cell.note() }

func isWait(err error) bool {
	_, ok := err.(*waitError)
	return ok
}

// note is what the cell prints when it starts to wait.
func (w waitingCell) note() string {
	verb := "waits"
	if len(w.declares) > 1 {
		verb = "wait"
	}
	return fmt.Sprintf("note: %s %s for %s, which no cell has declared yet; the cell runs again when a cell declares %s (Go lets a package's declarations come in any order)\n",
		strings.Join(w.declares, ", "), verb, strings.Join(w.needs, ", "), pronoun(len(w.needs)))
}

func pronoun(n int) string {
	if n == 1 {
		return "it"
	}
	return "them"
}

// waitsFor is the cell's waiting form when the type check's errors (c.checkErrs) allow one: the
// cell holds declarations only, and every error is `undefined: name`, name used as a type in
// the cell's declarations (in a type or a signature) and never as a package (fmt.Println without
// the import stays an error).
func (c *cellCtx) waitsFor() (waitingCell, bool) {
	var w waitingCell
	if len(c.checkErrs) == 0 {
		return w, false
	}
	asPackage := map[token.Pos]bool{} // identifiers used as X in X.Sel
	inTypes := map[string]bool{}      // names in a declared type or a function's signature
	for _, p := range c.pieces {
		if p.kind != declPiece {
			return w, false
		}
		for _, d := range p.file.Decls {
			if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
				continue
			}
			for _, k := range declKeys(d) {
				if !strings.Contains(k, ".") {
					w.declares = append(w.declares, k)
				}
			}
		}
		ast.Inspect(p.file, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok {
					asPackage[id.Pos()] = true
				}
			}
			var types []ast.Node // the parts of a declaration that are types
			switch n := n.(type) {
			case *ast.TypeSpec:
				types = append(types, n.Type)
			case *ast.FuncDecl:
				types = append(types, n.Type)
				if n.Recv != nil {
					types = append(types, n.Recv)
				}
			}
			for _, t := range types {
				ast.Inspect(t, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok {
						inTypes[id.Name] = true
					}
					return true
				})
			}
			return true
		})
	}
	if len(w.declares) == 0 {
		return w, false
	}
	needs := map[string]bool{}
	for _, e := range c.checkErrs {
		name, ok := strings.CutPrefix(e.Msg, "undefined: ")
		if !ok || !token.IsIdentifier(name) || asPackage[e.Pos] || !inTypes[name] || e.Soft || c.nearName(name) {
			return w, false
		}
		needs[name] = true
	}
	for n := range needs {
		w.needs = append(w.needs, n)
	}
	sort.Strings(w.needs)
	sort.Strings(w.declares)
	return w, true
}

// nearName reports whether name is one edit (a letter added, dropped, changed, or two swapped)
// from a type the cell could mean: a predeclared one or one the session or the cell declares.
// flaot64 is a typo, not a type still to come.
func (c *cellCtx) nearName(name string) bool {
	var known []string
	known = append(known, types.Universe.Names()...)
	for _, d := range c.s.typed.decls {
		known = append(known, d.names...)
	}
	for _, p := range c.pieces {
		for _, d := range p.file.Decls {
			known = append(known, declKeys(d)...)
		}
	}
	for _, k := range known {
		if k != name && oneEdit(name, k) {
			return true
		}
	}
	return false
}

// oneEdit reports whether a and b differ by one insertion, deletion, substitution or swap of
// adjacent letters.
func oneEdit(a, b string) bool {
	if len(a) < len(b) {
		a, b = b, a
	}
	switch {
	case len(a)-len(b) > 1:
		return false
	case len(a) == len(b):
		i := 0
		for i < len(a) && a[i] == b[i] {
			i++
		}
		if i == len(a) {
			return false
		}
		if a[i+1:] == b[i+1:] {
			return true // changed
		}
		return i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:] // swapped
	}
	i := 0
	for i < len(b) && a[i] == b[i] {
		i++
	}
	return a[i+1:] == b[i:] // a has one more
}

// wait keeps w, in place of any waiting cell that declares one of its names.
func (s *Session) wait(w waitingCell) {
	s.dropWaiting(w.declares)
	s.waiting = append(s.waiting, w)
}

// dropWaiting forgets the waiting cells that declare one of names: a later cell declared it.
func (s *Session) dropWaiting(names []string) {
	kept := s.waiting[:0]
	for _, w := range s.waiting {
		if !sharesName(w.declares, names) {
			kept = append(kept, w)
		}
	}
	s.waiting = kept
}

func sharesName(a, b []string) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// resume runs again, after a cell that declared names, each waiting cell that uses one of them;
// what each of those declares may let others run in turn. A cell that waits still waits (for
// what is left); one that now fails says so in a note and is dropped.
func (s *Session) resume(ctx context.Context, r *cellRun, declared []string) {
	for len(declared) > 0 {
		var next []string
		for _, w := range append([]waitingCell(nil), s.waiting...) {
			if !sharesName(w.needs, declared) {
				continue
			}
			s.dropWaiting(w.declares)
			c, err := s.prepare(scopeFile, w.code, r.id)
			if err == nil {
				_, err = c.evaluate(ctx, r, c.change)
			}
			if we, ok := err.(*waitError); ok {
				s.waiting = append(s.waiting, we.cell)
				continue
			}
			if err != nil {
				r.sink.Stream("stderr", fmt.Sprintf("note: %s waited for %s, and now fails: %s\n",
					strings.Join(w.declares, ", "), strings.Join(w.needs, ", "), errorText(err)))
				continue
			}
			next = append(next, w.declares...)
		}
		declared = next
	}
}

// errorText is an error's message as a cell shows it.
func errorText(err error) string {
	if ce, ok := err.(*CellError); ok {
		return ce.Value
	}
	return err.Error()
}

// undefinedNames are the names prepare's check of a cell found undefined (c and err as prepare
// returned them).
func undefinedNames(c *cellCtx, err error) []string {
	if we, ok := err.(*waitError); ok {
		return we.cell.needs
	}
	if err == nil || c == nil {
		return nil
	}
	var names []string
	for _, e := range c.checkErrs {
		if name, ok := strings.CutPrefix(e.Msg, "undefined: "); ok {
			names = append(names, name)
		}
	}
	return names
}

// waitingDeclaring is the code of the waiting cells that declare one of names, and of those
// they wait for in turn, one after the other; "" when there are none.
func (s *Session) waitingDeclaring(want []string) string {
	var codes []string
	taken := make([]bool, len(s.waiting))
	for more := true; more; {
		more = false
		for i, w := range s.waiting {
			if !taken[i] && sharesName(w.declares, want) {
				taken[i], more = true, true
				codes = append(codes, w.code)
				want = append(want, w.needs...)
			}
		}
	}
	return strings.Join(codes, "\n")
}

// waitingHint adds to Go's `undefined: List`, when a waiting cell declares List, what it waits
// for.
func (s *Session) waitingHint(errs []types.Error) []types.Error {
	errs = slices.Clone(errs) // the check's own stay as Go wrote them, for waitsFor
	for i, e := range errs {
		name, ok := strings.CutPrefix(e.Msg, "undefined: ")
		if !ok {
			continue
		}
		for _, w := range s.waiting {
			if sharesName(w.declares, []string{name}) {
				errs[i].Msg += fmt.Sprintf(" (its cell waits for %s, which no cell has declared yet)", strings.Join(w.needs, ", "))
			}
		}
	}
	return errs
}

// declaredNames are the package-level names the cell's change declares: types, functions,
// constants and variables (not methods).
func (ch *change) declaredNames() []string {
	var names []string
	for _, d := range ch.decls {
		names = append(names, d.names...)
	}
	for n := range ch.vars {
		names = append(names, n)
	}
	return names
}
