package session

import (
	"go/ast"
	"go/types"
	"strings"
)

// Generic functions of compiled standard-library packages. yaegi's tables cannot hold a generic
// function, so a cell's errors.AsType was undefined. The kernel declares each one the prelude
// implements in its package for the type check (importer.addGenerics), and the rewrite calls the
// prelude's version: errors.AsType[*fs.PathError](err) runs as
// __gptnotes_errors_AsType[*fs.PathError](err). (Packages whose every function is generic and
// pure Go, slices, maps and cmp, are source packages instead: sourcePackages.)

// preludeGenerics are, by import path, the declarations of the generic functions the prelude
// implements (their bodies are not checked).
var preludeGenerics = map[string]string{
	"errors": `package errors

// AsType finds the first error in err's tree of type E (Go 1.26).
func AsType[E error](err error) (E, bool) { panic(0) }
`,
}

// preludeGeneric is the name of the prelude's version of pkg.Name.
func preludeGeneric(path, name string) string {
	return "__gptnotes_" + strings.ReplaceAll(path, "/", "_") + "_" + name
}

// genericOfPrelude is the prelude's version of the function sel names, when it has one.
func (c *cellCtx) genericOfPrelude(sel *ast.SelectorExpr) ast.Expr {
	if c.checked == nil {
		return nil
	}
	fn, ok := c.checked.info.Uses[sel.Sel].(*types.Func)
	if !ok || fn.Pkg() == nil || preludeGenerics[fn.Pkg().Path()] == "" || fn.Signature().TypeParams() == nil {
		return nil
	}
	return &ast.Ident{Name: preludeGeneric(fn.Pkg().Path(), fn.Name()), NamePos: sel.Pos()}
}

// preludeGenericExpr is the pass's expression step (genericOfPrelude).
func preludeGenericExpr(c *cellCtx, e ast.Expr) ast.Expr {
	if sel, ok := e.(*ast.SelectorExpr); ok {
		if f := c.genericOfPrelude(sel); f != nil {
			return f
		}
	}
	return e
}
