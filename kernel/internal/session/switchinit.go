package session

import (
	"go/ast"
	"go/token"
	"go/types"
)

// switchInitOutside writes `switch init; tag { … }` as `{ init; switch tag { … } }`, with
// labeled the switch or its labeled statement: yaegi v0.16.1 matches no case of a switch
// with an init statement whose cases are constants of a compiled type (`switch v :=
// reflect.ValueOf(x); v.Kind() { case reflect.String: … }` fell to default, with no error), and
// a switch whose init calls a function and whose tag is an int returned no case's value (go-cmp's
// `switch opts := flattenOptions(nil, Options{src}); len(opts) { … case 1: return opts[0] }` gave
// nil, and cmp.FilterValues dropped its option).
func switchInitOutside(sw *ast.SwitchStmt, labeled ast.Stmt) ast.Stmt {
	if sw.Init == nil {
		return labeled
	}
	init := sw.Init
	sw.Init = nil
	return &ast.BlockStmt{Lbrace: labeled.Pos(), List: []ast.Stmt{init, labeled}, Rbrace: labeled.End()}
}

// switchInitStmt is the pass's statement step: a switch, or a labeled one (the label stays on
// the switch).
func switchInitStmt(c *cellCtx, s ast.Stmt) ast.Stmt {
	switch st := s.(type) {
	case *ast.SwitchStmt:
		return switchInitOutside(st, st)
	case *ast.LabeledStmt:
		if sw, ok := st.Stmt.(*ast.SwitchStmt); ok {
			return switchInitOutside(sw, st)
		}
	}
	return s
}

// switchInitModule is the pass's module step: the same, in each function of a module file.
func switchInitModule(_ string, _ *token.FileSet, f *ast.File, _ *types.Info) bool {
	return rewriteModuleStmts(f, func(s ast.Stmt) ast.Stmt { return switchInitStmt(nil, s) })
}
