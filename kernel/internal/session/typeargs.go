package session

import (
	"go/ast"
	"go/types"
)

// writesTypeArgs are the packages whose generic functions' calls get every type argument
// written out: the cells' own, and the kernel's source packages maps and cmp (yaegi infers wrong
// or no type arguments for several type parameters and for variadic ones). slices' functions
// take one type parameter, which yaegi infers.
var writesTypeArgs = map[string]bool{"main": true, "maps": true, "cmp": true}

// inferredTypeArgs finds the uses of the cell's generic functions whose type arguments the check
// inferred, with those arguments written out: add(1, 2.5) becomes add[float64](1, 2.5). yaegi
// v0.16.1 infers from the first argument alone (add(1, 2.5) is 3, silently), cannot pass a
// generic function as a value (apply(xs, double)) nor infer from an interface's methods; with
// the type arguments written it runs all three as Go does. A use whose type arguments cannot be
// written is left to yaegi.
func (c *cellCtx) inferredTypeArgs() map[*ast.Ident][]ast.Expr {
	out := map[*ast.Ident][]ast.Expr{}
	if c.checked == nil {
		return out
	}
	for _, p := range c.pieces {
		explicit := map[*ast.Ident]bool{} // f in f[int](…): written already
		ast.Inspect(p.root(), func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.IndexExpr:
				explicit[genericName(n.X)] = true
			case *ast.IndexListExpr:
				explicit[genericName(n.X)] = true
			case *ast.Ident:
				inst, ok := c.checked.info.Instances[n]
				fn, isFunc := c.checked.info.Uses[n].(*types.Func)
				if !ok || !isFunc || fn.Pkg() == nil || !writesTypeArgs[fn.Pkg().Path()] {
					break
				}
				if explicit[n] && fn.Pkg().Path() == "main" {
					break // maps.Clone[M](m): written in part, every one is written (prelude/maps)
				}
				var args []ast.Expr
				for i := 0; i < inst.TypeArgs.Len(); i++ {
					t := c.typeExpr(inst.TypeArgs.At(i))
					if t == nil {
						return true
					}
					args = append(args, t)
				}
				out[n] = args
			}
			return true
		})
	}
	return out
}

// genericName is the name a generic function is called by in f[…] or pkg.f[…], nil for another
// expression.
func genericName(x ast.Expr) *ast.Ident {
	switch x := x.(type) {
	case *ast.Ident:
		return x
	case *ast.SelectorExpr:
		return x.Sel
	}
	return nil
}

// findTypeArgs finds the type arguments to write out (inferredTypeArgs).
func findTypeArgs(c *cellCtx) { c.typeArgs = c.inferredTypeArgs() }

// typeArgsExpr writes them: add(1, 2.5) becomes add[float64](1, 2.5), maps.Clone(m) becomes
// maps.Clone[M, K, V](m), and type arguments the cell wrote in part give way to the whole list.
func typeArgsExpr(c *cellCtx, e ast.Expr) ast.Expr {
	switch e := e.(type) {
	case *ast.Ident:
		if args := c.typeArgs[e]; len(args) == 1 {
			return &ast.IndexExpr{X: e, Lbrack: e.End(), Index: args[0], Rbrack: e.End()}
		} else if args != nil {
			return &ast.IndexListExpr{X: e, Lbrack: e.End(), Indices: args, Rbrack: e.End()}
		}
	case *ast.SelectorExpr:
		if args := c.typeArgs[e.Sel]; len(args) > 0 { // maps.Clone → maps.Clone[M, K, V]
			return &ast.IndexListExpr{X: e, Lbrack: e.End(), Indices: args, Rbrack: e.End()}
		}
	case *ast.IndexExpr:
		if sel, ok := e.X.(*ast.IndexListExpr); ok && c.typeArgs[genericName(sel.X)] != nil {
			return sel // maps.Clone[M] became maps.Clone[M, K, V][M]: the whole list replaces M
		}
	case *ast.IndexListExpr:
		if sel, ok := e.X.(*ast.IndexListExpr); ok && c.typeArgs[genericName(sel.X)] != nil {
			return sel
		}
	}
	return e
}
