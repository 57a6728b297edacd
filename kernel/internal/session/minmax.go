package session

import (
	"go/ast"
	"go/token"
	"go/types"
)

// minMaxArgs reorders the arguments of min and max (commutative) so that a non-constant one
// comes first: the prelude's generic min/max infer T from the first argument, and min(3, x)
// with x float64 must not make T int. All-constant calls with a float among them become float64.
// A call on a named type of a compiled package (time.Duration) is computed on its underlying
// type and converted back, time.Duration(min(int64(a), int64(b))): yaegi cannot instantiate the
// prelude's generic function with a compiled named type. min(x) is x. It returns the call, or
// what replaces it.
func (c *cellCtx) minMaxArgs(call *ast.CallExpr) ast.Expr {
	id, ok := call.Fun.(*ast.Ident)
	if !ok || (id.Name != "min" && id.Name != "max") || c.s.funcs[id.Name] != nil || len(call.Args) < 1 {
		return call
	}
	if len(call.Args) == 1 { // min(x) is x; the prelude's min(x, ys...) with no ys does not compile in yaegi
		return &ast.ParenExpr{Lparen: call.Lparen, X: call.Args[0], Rparen: call.Rparen}
	}
	if named, ok := c.typeOf(call).(*types.Named); ok && named.Obj().Pkg() != nil && named.Obj().Pkg().Path() != "main" {
		basic, isBasic := named.Underlying().(*types.Basic)
		te := c.typeExpr(named)
		if isBasic && te != nil {
			for i, a := range call.Args {
				call.Args[i] = &ast.CallExpr{Fun: ast.NewIdent(basic.Name()), Args: []ast.Expr{a}}
			}
			return &ast.CallExpr{Fun: te, Args: []ast.Expr{call}}
		}
	}
	if len(call.Args) < 2 {
		return call
	}
	if isConst(call.Args[0]) {
		for i, a := range call.Args {
			if !isConst(a) {
				call.Args[0], call.Args[i] = call.Args[i], call.Args[0]
				return call
			}
		}
		for _, a := range call.Args {
			if isFloatLit(a) {
				call.Args[0] = &ast.CallExpr{Fun: ast.NewIdent("float64"), Args: []ast.Expr{call.Args[0]}}
				return call
			}
		}
	}
	return call
}

func isConst(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return true
	case *ast.UnaryExpr:
		return isConst(e.X)
	case *ast.ParenExpr:
		return isConst(e.X)
	case *ast.BinaryExpr:
		return isConst(e.X) && isConst(e.Y)
	}
	return false
}

func isFloatLit(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return e.Kind == token.FLOAT
	case *ast.UnaryExpr:
		return isFloatLit(e.X)
	case *ast.ParenExpr:
		return isFloatLit(e.X)
	case *ast.BinaryExpr:
		return isFloatLit(e.X) || isFloatLit(e.Y)
	}
	return false
}

// minMaxExpr is the pass's expression step (minMaxArgs).
func minMaxExpr(c *cellCtx, e ast.Expr) ast.Expr {
	if call, ok := e.(*ast.CallExpr); ok {
		return c.minMaxArgs(call)
	}
	return e
}
