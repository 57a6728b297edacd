package session

import (
	"go/ast"
	"reflect"
)

// replaceExprs calls f on every expression under n, children first, and puts back whatever f
// returns. It is the one generic AST walker the rewrites need (ast.Inspect cannot replace).
func replaceExprs(n ast.Node, f func(ast.Expr) ast.Expr) {
	replaceIn(reflect.ValueOf(n), f)
}

var exprType = reflect.TypeOf((*ast.Expr)(nil)).Elem()

func replaceIn(v reflect.Value, f func(ast.Expr) ast.Expr) {
	switch v.Kind() {
	case reflect.Interface:
		if !v.IsNil() {
			replaceIn(v.Elem(), f)
		}
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if _, ok := v.Interface().(*ast.Object); ok {
			return // the legacy resolver's objects point back into the tree
		}
		if _, ok := v.Interface().(*ast.Scope); ok {
			return
		}
		e := v.Elem()
		if e.Kind() != reflect.Struct {
			return
		}
		for i := 0; i < e.NumField(); i++ {
			fv := e.Field(i)
			if !fv.CanSet() {
				continue
			}
			if fv.Type() == exprType {
				if fv.IsNil() {
					continue
				}
				replaceIn(fv.Elem(), f)
				fv.Set(reflect.ValueOf(f(fv.Interface().(ast.Expr))))
				continue
			}
			replaceIn(fv, f)
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			el := v.Index(i)
			if el.Type() == exprType {
				if el.IsNil() {
					continue
				}
				replaceIn(el.Elem(), f)
				el.Set(reflect.ValueOf(f(el.Interface().(ast.Expr))))
				continue
			}
			replaceIn(el, f)
		}
	}
}
