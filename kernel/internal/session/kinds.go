package session

import (
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
)

// Some rewrites and refusals need to know whether an expression is an integer (range over int)
// or a function (range over func): kindOf answers from the type check. The kinds of the names a
// cell declares (scanKinds) also answer from the syntax where the check has no answer: whether a
// name is a variable that shadows a package (isPackage), or a value rather than a type.

type valueKind int

const (
	kindUnknown valueKind = iota
	kindInt
	kindFunc
	kindOther // slice, map, string, chan, …: anything range already handles
)

// scanKinds records the kind of every variable the cell declares, from its declaration. A name
// declared twice with different kinds stays unknown.
func (c *cellCtx) scanKinds() {
	c.kinds = map[string]valueKind{}
	c.declTypes = map[string]ast.Expr{}
	conflict := map[string]bool{}
	set := func(name string, k valueKind) {
		if name == "_" || conflict[name] {
			return
		}
		if old, ok := c.kinds[name]; ok && old != k {
			delete(c.kinds, name)
			conflict[name] = true
			return
		}
		c.kinds[name] = k
	}
	for _, p := range c.pieces {
		root := p.root()
		ast.Inspect(root, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if n.Tok == token.DEFINE && len(n.Lhs) == len(n.Rhs) {
					for i, l := range n.Lhs {
						if id, ok := l.(*ast.Ident); ok {
							set(id.Name, c.kindOf(n.Rhs[i]))
						}
					}
				}
			case *ast.ValueSpec:
				for i, id := range n.Names {
					switch {
					case n.Type != nil:
						set(id.Name, typeKind(n.Type))
						c.declTypes[id.Name] = n.Type
					case i < len(n.Values):
						set(id.Name, c.kindOf(n.Values[i]))
					}
				}
			case *ast.Field:
				for _, id := range n.Names {
					set(id.Name, typeKind(n.Type))
					c.declTypes[id.Name] = n.Type
				}
			case *ast.FuncDecl:
				if n.Recv == nil {
					set(n.Name.Name, kindFunc)
				}
			}
			return true
		})
	}
}

// typeKind classifies a type expression.
func typeKind(t ast.Expr) valueKind {
	switch t := t.(type) {
	case *ast.Ident:
		if isIntType(t.Name) {
			return kindInt
		}
		switch t.Name {
		case "string", "float32", "float64", "bool", "any", "error", "complex64", "complex128":
			return kindOther
		}
	case *ast.FuncType:
		return kindFunc
	case *ast.ArrayType, *ast.MapType, *ast.ChanType, *ast.StarExpr, *ast.StructType:
		return kindOther
	}
	return kindUnknown
}

func isIntType(name string) bool {
	switch name {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "byte", "rune":
		return true
	}
	return false
}

// kindOf classifies an expression by the type the check gave it, kindUnknown without one. (A
// guess from the syntax, tried before, decided nothing once go/types had answered: over the
// GOROOT corpus and testdata/cells it was reached 45 times and said kindUnknown each time.)
func (c *cellCtx) kindOf(e ast.Expr) valueKind {
	t := c.typeOf(e)
	if t == nil {
		return kindUnknown
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		if u.Info()&types.IsInteger != 0 {
			return kindInt
		}
		return kindOther
	case *types.Signature:
		return kindFunc
	}
	return kindOther
}

// funcDecl is the declaration of function name, from this cell or an earlier one.
func (c *cellCtx) funcDecl(name string) *ast.FuncDecl {
	for _, p := range c.pieces {
		if p.file == nil {
			continue
		}
		for _, d := range p.file.Decls {
			if f, ok := d.(*ast.FuncDecl); ok && f.Recv == nil && f.Name.Name == name {
				return f
			}
		}
	}
	return c.s.funcs[name]
}

// global is the value of an interpreted global variable or constant.
func (s *Session) global(name string) (reflect.Value, bool) {
	v, ok := s.in.Globals()[name]
	return v, ok
}

// pkgSymbol is the value of pkg.Name for a compiled package imported by this cell or an
// earlier one.
func (c *cellCtx) pkgSymbol(e *ast.SelectorExpr) (reflect.Value, bool) {
	x, ok := e.X.(*ast.Ident)
	if !ok {
		return reflect.Value{}, false
	}
	path := c.importPath(x.Name)
	if path == "" {
		return reflect.Value{}, false
	}
	v, ok := c.s.packageSymbols(path)[e.Sel.Name]
	return v, ok && v.IsValid()
}
