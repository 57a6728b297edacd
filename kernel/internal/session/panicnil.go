package session

import (
	"go/ast"
	"go/types"
)

// panicArg makes panic(v), v nil, panic with a *runtime.PanicNilError as Go 1.21 does: an
// argument that may be nil (untyped nil, or of interface type) goes through the prelude's
// __gptnotes_panicValue. yaegi v0.16.1 panics with nil, and recover() then returns a
// reflect.Value.
func (c *cellCtx) panicArg(call *ast.CallExpr) {
	id, ok := call.Fun.(*ast.Ident)
	if !ok || len(call.Args) != 1 || c.checked == nil || c.checked.info.Uses[id] != types.Universe.Lookup("panic") {
		return
	}
	tv, ok := c.checked.info.Types[call.Args[0]]
	if !ok {
		return
	}
	if _, isIface := tv.Type.Underlying().(*types.Interface); isIface || tv.IsNil() {
		arg := call.Args[0]
		call.Args[0] = &ast.CallExpr{Fun: &ast.Ident{Name: "__gptnotes_panicValue", NamePos: arg.Pos()},
			Lparen: arg.Pos(), Args: []ast.Expr{arg}, Rparen: arg.End()}
	}
}

// panicArgExpr is the pass's expression step (panicArg): it changes the call in place.
func panicArgExpr(c *cellCtx, e ast.Expr) ast.Expr {
	if call, ok := e.(*ast.CallExpr); ok {
		c.panicArg(call)
	}
	return e
}
