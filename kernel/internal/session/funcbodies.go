package session

import "go/ast"

// eachFuncBody calls fn with the type and body of every function declared or written as a
// literal under root, outer functions before the literals inside them; declarations without
// a body are skipped. The passes that start a function's body with statements of their own
// (zeroNamedResults, fitModuleFile, unwrapInterfaceParams) walk functions this way.
func eachFuncBody(root ast.Node, fn func(ft *ast.FuncType, body *ast.BlockStmt)) {
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Body != nil {
				fn(n.Type, n.Body)
			}
		case *ast.FuncLit:
			fn(n.Type, n.Body)
		}
		return true
	})
}
