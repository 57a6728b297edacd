package session

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"go/types"
	"sort"
	"strings"
)

// What a cell changes in the session's declarations, worked out after the type check and
// before the rewrites (they change the syntax the sources are taken from), applied once the
// interpreter has compiled the cell.

// A change is the session's declarations after a cell, and what the cell's redefinitions cost.
type change struct {
	decls        []*stateDecl // the cell's own declarations, in order
	vars         map[string]*stateVar
	dropped      []string              // variables whose type the cell redefined
	changedTypes []string              // the types the cell declares again, changed
	broken       map[*stateDecl]string // earlier declarations that no longer compile → why
	replay       []*stateDecl          // earlier declarations to compile again, in order
	forget       []string              // names the interpreter must take back before the cell
}

// plan works out the cell's change from its check.
func (c *cellCtx) plan() *change {
	res := c.checked
	ch := &change{vars: map[string]*stateVar{}, broken: res.broken}
	for _, p := range c.pieces {
		if p.kind == declPiece {
			for _, d := range p.file.Decls {
				ch.decls = append(ch.decls, c.newStateDecls(d)...)
			}
			continue
		}
		for _, st := range p.body.List {
			if ds, ok := st.(*ast.DeclStmt); ok && ds.Decl.(*ast.GenDecl).Tok == token.CONST {
				ch.decls = append(ch.decls, c.newStateDecls(ds.Decl)...)
			}
		}
	}
	for id, obj := range res.defined {
		ch.vars[id.Name] = c.newStateVar(obj.Type())
	}

	// What changed: declarations whose source differs, variables whose type differs.
	old := map[string]*stateDecl{}
	for _, d := range c.s.typed.decls {
		old[d.key] = d
	}
	changed := map[string]bool{}
	for _, d := range ch.decls {
		if o := old[d.key]; o != nil && o.src != d.src {
			changed[d.key] = true
		}
		for _, n := range d.names {
			if c.s.typed.vars[n] != nil {
				changed[n] = true
			}
		}
	}
	for n, v := range ch.vars {
		if o := c.s.typed.vars[n]; o != nil && o.typeSrc != v.typeSrc {
			changed[n] = true
			ch.forget = append(ch.forget, n)
		}
		if o := old[n]; o != nil {
			changed[n] = true
		}
	}
	changedTypes := map[string]bool{}
	for _, d := range ch.decls {
		if changed[d.key] && d.isType() {
			changedTypes[d.key] = true
			ch.changedTypes = append(ch.changedTypes, d.key)
			ch.forget = append(ch.forget, d.key)
		}
	}

	// Earlier variables of a redefined type go: their values have the old type.
	for n, v := range c.s.typed.vars {
		if ch.vars[n] == nil && v.mainRef && mentions(v.mainSrc, changedTypes) {
			ch.dropped = append(ch.dropped, n)
			ch.forget = append(ch.forget, n)
		}
	}
	sort.Strings(ch.dropped)

	// Earlier declarations that use what changed are compiled again, and so are those that
	// use them (the interpreter binds a call to the function it found when compiling).
	mine := map[string]bool{}
	for _, d := range ch.decls {
		mine[d.key] = true
	}
	for again := true; again; {
		again = false
		for _, d := range c.s.typed.decls {
			if mine[d.key] || changed[d.key] || ch.broken[d] != "" {
				continue
			}
			for u := range d.uses {
				if changed[u] || (d.recv != "" && changedTypes[d.recv]) {
					changed[d.key] = true
					again = true
					break
				}
			}
		}
	}
	for _, d := range c.s.typed.decls {
		if !mine[d.key] && changed[d.key] && ch.broken[d] == "" {
			ch.replay = append(ch.replay, d)
		}
	}
	for d := range ch.broken {
		ch.forget = append(ch.forget, d.names...)
	}
	return ch
}

// idents is every identifier of d's source, computed once.
func (d *stateDecl) idents() map[string]bool {
	if d.identSet == nil {
		d.identSet = map[string]bool{}
		ast.Inspect(d.file, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				d.identSet[id.Name] = true
			}
			return true
		})
	}
	return d.identSet
}

// isType reports whether d declares a type.
func (d *stateDecl) isType() bool {
	return len(d.names) == 1 && d.names[0] == d.key && strings.HasPrefix(d.src, "type ")
}

// newStateDecls describes the declarations of d: one for each type of a type declaration,
// one for a function, a method or a group of constants.
func (c *cellCtx) newStateDecls(d ast.Decl) []*stateDecl {
	var out []*stateDecl
	add := func(key, recv string, names []string, src string, n ast.Node) {
		f, err := parser.ParseFile(c.s.fset, key, "package main\n"+src, 0)
		if err != nil {
			return
		}
		out = append(out, &stateDecl{key: key, recv: recv, names: names, src: src, file: f,
			uses: usesOf(n, c.checked.info)})
	}
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv != nil {
			t := recvTypeName(d.Recv.List[0].Type)
			add(t+"."+d.Name.Name, t, nil, c.print(d), d)
		} else if d.Name.Name != "init" {
			add(d.Name.Name, "", []string{d.Name.Name}, c.print(d), d)
		}
	case *ast.GenDecl:
		switch d.Tok {
		case token.TYPE:
			for _, sp := range d.Specs {
				ts := sp.(*ast.TypeSpec)
				add(ts.Name.Name, "", []string{ts.Name.Name}, "type "+c.print(ts), ts)
			}
		case token.CONST:
			names := declKeys(d)
			add("const "+strings.Join(names, ","), "", names, c.print(d), d)
		}
	}
	return out
}

// print writes n as Go source, without the //line directive the cell's parse put before it.
func (c *cellCtx) print(n ast.Node) string {
	var b strings.Builder
	printer.Fprint(&b, c.s.fset, n)
	var lines []string
	for _, l := range strings.Split(b.String(), "\n") {
		if !strings.HasPrefix(l, "//line ") {
			lines = append(lines, l)
		}
	}
	return strings.Join(lines, "\n")
}

// commit makes the cell's change the session's.
func (c *cellCtx) commit(ch *change) {
	t := &c.s.typed
	gone := map[*stateDecl]bool{}
	mine := map[string]bool{}
	names := map[string]bool{}
	for _, d := range ch.decls {
		mine[d.key] = true
		for _, n := range d.names {
			names[n] = true
		}
	}
	for n := range ch.vars {
		names[n] = true
	}
	for d := range ch.broken {
		gone[d] = true
	}
	var kept []*stateDecl
	for _, d := range t.decls {
		clash := mine[d.key]
		for _, n := range d.names {
			clash = clash || names[n]
		}
		if !clash && !gone[d] {
			kept = append(kept, d)
		}
	}
	for _, d := range ch.decls {
		for _, o := range t.decls {
			if o.key == d.key && d.yaegi == nil && o.src == d.src {
				d.yaegi = o.yaegi // an unchanged type, not compiled again
			}
		}
	}
	t.decls = append(kept, ch.decls...)
	for _, n := range ch.dropped {
		delete(t.vars, n)
	}
	for d := range ch.broken {
		for _, n := range d.names {
			delete(t.vars, n)
		}
	}
	for _, d := range ch.decls {
		for _, n := range d.names {
			delete(t.vars, n)
		}
	}
	for n, v := range ch.vars {
		t.vars[n] = v
	}
}

// report says, in the cell's output, what its redefinitions took away.
func (ch *change) report() string {
	var b strings.Builder
	if len(ch.dropped) > 0 {
		what := "variable " + ch.dropped[0] + " held a value of the old type and is gone (run the cell that made it again)"
		if len(ch.dropped) > 1 {
			what = "variables " + strings.Join(ch.dropped, ", ") + " held values of the old types and are gone (run the cells that made them again)"
		}
		fmt.Fprintf(&b, "note: type %s declared again; %s\n", strings.Join(ch.changedTypes, ", "), what)
	}
	var broken []string
	for d, why := range ch.broken {
		broken = append(broken, "note: "+d.describe()+" no longer compiles with this cell's declarations ("+why+
			"), and is gone; fix it and run its cell again\n")
	}
	sort.Strings(broken)
	for _, l := range broken {
		b.WriteString(l)
	}
	return b.String()
}

// describe names a declaration as a student wrote it.
func (d *stateDecl) describe() string {
	switch {
	case d.recv != "":
		return "method " + d.key
	case strings.HasPrefix(d.src, "func "):
		return "func " + d.key
	case strings.HasPrefix(d.src, "type "):
		return "type " + d.key
	}
	return d.key
}

// typeOf is the type the check gave e, nil if it has none.
func (c *cellCtx) typeOf(e ast.Expr) types.Type {
	if c.checked == nil {
		return nil
	}
	if tv, ok := c.checked.info.Types[e]; ok && tv.Type != nil {
		if b, ok := tv.Type.(*types.Basic); ok && b.Kind() == types.Invalid {
			return nil
		}
		return tv.Type
	}
	if id, ok := e.(*ast.Ident); ok {
		if obj := c.checked.info.Uses[id]; obj != nil {
			return obj.Type()
		}
		if obj := c.checked.info.Defs[id]; obj != nil {
			return obj.Type()
		}
	}
	return nil
}

// keepCompiled keeps the rewritten declarations of a compiled piece with the cell's change,
// for compiling them again when a later cell redefines what they use.
func (ch *change) keepCompiled(p *piece) {
	byKey := map[string]*stateDecl{}
	for _, d := range ch.decls {
		byKey[d.key] = d
	}
	for _, d := range p.file.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			continue
		}
		// Positioned in the cell's file, where yaegi looks up the imports the declaration uses.
		f := &ast.File{Package: d.Pos(), Name: &ast.Ident{Name: "main", NamePos: d.Pos()}, Decls: []ast.Decl{d}}
		for _, key := range declKeys(d) {
			if sd := byKey[key]; sd != nil {
				sd.yaegi = f
			}
		}
	}
}
