package session

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"reflect"
)

// Some rewrites need to know whether an expression is an integer (range over int) or a function
// (range over func) without a type checker. kindOf answers from the syntax, the variables the cell
// declares, and the values of the interpreter's globals; kindUnknown when it cannot tell.

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

// kindOf classifies an expression.
func (c *cellCtx) kindOf(e ast.Expr) valueKind {
	if t := c.typeOf(e); t != nil {
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
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.INT || e.Kind == token.CHAR {
			return kindInt
		}
		return kindOther
	case *ast.CompositeLit:
		return kindOther
	case *ast.FuncLit:
		return kindFunc
	case *ast.ParenExpr:
		return c.kindOf(e.X)
	case *ast.UnaryExpr:
		if e.Op == token.AND || e.Op == token.ARROW {
			return kindOther
		}
		return c.kindOf(e.X)
	case *ast.BinaryExpr:
		switch e.Op {
		case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ, token.LAND, token.LOR:
			return kindOther
		case token.SHL, token.SHR:
			return c.kindOf(e.X)
		}
		x, y := c.kindOf(e.X), c.kindOf(e.Y)
		if x == kindOther || y == kindOther {
			return kindOther
		}
		if x == kindInt || y == kindInt {
			return kindInt
		}
		return kindUnknown
	case *ast.CallExpr:
		if id, ok := e.Fun.(*ast.Ident); ok {
			switch {
			case id.Name == "len" || id.Name == "cap" || isIntType(id.Name):
				return kindInt
			case id.Name == "make" || id.Name == "append" || id.Name == "new" || id.Name == "string":
				return kindOther
			}
			if f := c.funcDecl(id.Name); f != nil {
				if r := f.Type.Results; r != nil && len(r.List) == 1 && len(r.List[0].Names) <= 1 {
					return typeKind(r.List[0].Type)
				}
			}
		}
		if t, ok := e.Fun.(*ast.ArrayType); ok && t != nil {
			return kindOther
		}
	case *ast.Ident:
		if k, ok := c.kinds[e.Name]; ok {
			return k
		}
		if f := c.funcDecl(e.Name); f != nil {
			return kindFunc
		}
		if v, ok := c.s.global(e.Name); ok {
			return reflectKind(v)
		}
	case *ast.SelectorExpr:
		if v, ok := c.pkgSymbol(e); ok {
			return reflectKind(v)
		}
	}
	return kindUnknown
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

func reflectKind(v reflect.Value) valueKind {
	if !v.IsValid() {
		return kindUnknown
	}
	if v.Kind() == reflect.Interface && !v.IsNil() {
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return kindInt
	case reflect.Func:
		return kindFunc
	case reflect.Invalid:
		return kindUnknown
	}
	if cv, ok := v.Interface().(constant.Value); ok {
		if cv.Kind() == constant.Int {
			return kindInt
		}
		return kindOther
	}
	return kindOther
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
