package session

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"

	"github.com/gptnotes/gptnotes/kernel/modules"
)

// Module constructs that yaegi v0.16.1 runs wrongly without an error and that no rewrite of
// the kernel fixes: a module package that has one is refused on import, with an
// *modules.UninterpretableError naming the file, line and construct, instead of giving silent
// wrong answers (refuseModule).
//
// Look-alike struct types without fields. yaegi v0.16.1 builds an interpreted struct type as a
// reflect struct of its fields, so two named struct types of one structure are one type to it
// once in an interface: an assertion to either holds for both, and a type switch takes the
// first of them for either. A struct type with fields gets its name in its first field's tag
// (structnames.go) and is then a type of its own; two struct types without fields
// (`type a struct{}`, `type b struct{}`) have no field to carry it, and a module package that
// tells such types apart is refused, naming the switch or assertion. The test of one structure
// is the interpreter's (lookalike.go, shared with the cells' refusal), which also reads the
// package's named types in fields as their structure.
//
// Type switch cases of a source interface on a compiled one. A value in an error, an any or
// another interface of a compiled package, asserted to an interface the module declares (or an
// interface literal), fails where Go's succeeds: pkg/errors' Cause asserts an error to its
// own `causer` and returned the error unchanged. An assertion is written as assertions to the
// module's types (compiledassert.go); a type switch with such a case is refused. A cell doing
// either is refused too (interfaceAssertion).

// refuseModule is the first construct of the module package's files (as checked) that the
// interpreter would run wrongly, as an error; nil when there is none.
func refuseModule(path string, fset *token.FileSet, files []*ast.File, info *types.Info) error {
	if err := lookalikeSwitch(path, fset, files, info); err != nil {
		return err
	}
	return sourceInterfaceAssertion(path, fset, files, info)
}

// sourceInterfaceAssertion finds a type switch case to an interface
// declared in the module's source (or an interface literal) from a value whose static type is
// an interface that compiled code declares (error, any, io.Reader).
func sourceInterfaceAssertion(path string, fset *token.FileSet, files []*ast.File, info *types.Info) error {
	fromCompiled := func(x ast.Expr) (types.Type, bool) {
		t := typeOfExpr(info, x)
		if t == nil || !types.IsInterface(t) {
			return nil, false
		}
		n, ok := types.Unalias(t).(*types.Named)
		return t, !ok || n.Obj().Pkg() == nil || !isSourcePackage(n.Obj().Pkg().Path(), path)
	}
	toSource := func(e ast.Expr) (types.Type, bool) {
		t := typeOfExpr(info, e)
		if t == nil || !types.IsInterface(t) {
			return nil, false
		}
		if n, ok := types.Unalias(t).(*types.Named); ok {
			return t, n.Obj().Pkg() != nil && isSourcePackage(n.Obj().Pkg().Path(), path)
		}
		return t, !t.Underlying().(*types.Interface).Empty() // an interface literal
	}
	var found error
	check := func(x, target ast.Expr, pos token.Pos) {
		from, ok := fromCompiled(x)
		if !ok || found != nil {
			return
		}
		if to, ok := toSource(target); ok {
			p := fset.Position(pos)
			q := func(p *types.Package) string {
				if p.Path() == path {
					return ""
				}
				return p.Name()
			}
			found = &modules.UninterpretableError{ImportPath: path, File: filepath.ToSlash(p.Filename), Line: p.Line,
				Construct: "a type assertion to the interface " + types.TypeString(to, q) + " from a value of type " +
					types.TypeString(from, q) + ", which the interpreter (yaegi v0.16.1) answers no where Go answers yes"}
		}
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.TypeSwitchStmt: // an assertion is written as the module's types (compiledassert.go)
				if x := typeSwitchSubject(n); x != nil {
					for _, cc := range n.Body.List {
						for _, e := range cc.(*ast.CaseClause).List {
							check(x, e, e.Pos())
						}
					}
				}
			}
			return found == nil
		})
	}
	return found
}

// isSourcePackage reports whether the package at pkgPath is interpreted from source: the
// module package being checked, or another package the kernel has no compiled table for.
func isSourcePackage(pkgPath, path string) bool {
	if pkgPath == path {
		return true
	}
	_, ok := modulePackageNames.Load(pkgPath)
	return ok
}

// lookalikeSwitch finds, in a module package's files as checked, a type switch with two cases
// of named struct types of one structure, or a type assertion from a non-empty interface to
// such a type when another one implements the interface too: an *modules.UninterpretableError
// naming it, nil when there is none.
func lookalikeSwitch(path string, fset *token.FileSet, files []*ast.File, info *types.Info) error {
	var named []*types.Named
	for _, f := range files {
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.TYPE {
				continue
			}
			for _, sp := range g.Specs {
				ts := sp.(*ast.TypeSpec)
				if n, ok := typeOfExpr(info, ts.Name).(*types.Named); ok {
					if _, ok := n.Underlying().(*types.Struct); ok && n.TypeParams().Len() == 0 {
						named = append(named, n)
					}
				}
			}
		}
	}
	interpreted := func(n *types.Named) bool { return n.Obj().Pkg() != nil && isSourcePackage(n.Obj().Pkg().Path(), path) }
	var found error
	refuse := func(pos token.Pos, a, b *types.Named, what string) {
		p := fset.Position(pos)
		found = &modules.UninterpretableError{ImportPath: path, File: filepath.ToSlash(p.Filename), Line: p.Line,
			Construct: what + " " + a.Obj().Name() + " and " + b.Obj().Name() + ", struct types of one structure (" +
				types.TypeString(a.Underlying(), types.RelativeTo(a.Obj().Pkg())) +
				"), which the interpreter (yaegi v0.16.1) cannot tell apart in an interface"}
	}
	caseType := func(e ast.Expr) *types.Named {
		if t, ok := typeOfExpr(info, e).(*types.Named); ok {
			if _, ok := t.Underlying().(*types.Struct); ok {
				return t
			}
		}
		return nil
	}
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if found != nil {
				return false
			}
			switch n := n.(type) {
			case *ast.TypeSwitchStmt:
				var seen []*types.Named
				for _, cc := range n.Body.List {
					for _, e := range cc.(*ast.CaseClause).List {
						t := caseType(e)
						if t == nil {
							continue
						}
						for _, s := range seen {
							if sameToInterpreter(s, t, interpreted) {
								refuse(e.Pos(), s, t, "a type switch telling apart")
								return false
							}
						}
						seen = append(seen, t)
					}
				}
			case *ast.TypeAssertExpr:
				xt := typeOfExpr(info, n.X)
				if n.Type == nil || xt == nil {
					break
				}
				from, ok := xt.Underlying().(*types.Interface)
				if !ok || from.Empty() {
					break
				}
				if t, m, ok := lookalikeOf(typeOfExpr(info, n.Type), from, named, interpreted); ok {
					refuse(n.Pos(), t, m, "a type assertion to one of")
				}
			}
			return true
		})
	}
	return found
}

// typeOfExpr is the type e denotes or has in info, nil when the check did not record it.
func typeOfExpr(info *types.Info, e ast.Expr) types.Type {
	if tv, ok := info.Types[e]; ok {
		return tv.Type
	}
	if id, ok := e.(*ast.Ident); ok {
		if obj := info.Uses[id]; obj != nil {
			return obj.Type()
		}
		if obj := info.Defs[id]; obj != nil {
			return obj.Type()
		}
	}
	return nil
}
