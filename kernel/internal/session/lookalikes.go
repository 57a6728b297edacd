package session

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"

	"github.com/gptnotes/gptnotes/kernel/modules"
)

// Look-alike struct types. yaegi v0.16.1 builds an interpreted struct type as a reflect struct
// of its fields, so two named struct types of one structure (go-cmp's `type ignore struct{
// core }` and `type validator struct{ core }`) are one type to it once in an interface: an
// assertion to either holds for both, and a type switch takes the first of them for either.
// go-cmp's Options.filter read every validator as ignore, and cmp.Equal found []int{1} and
// []int{2} equal. Nothing the kernel writes into the file makes them two types, so a module
// package that tells such types apart is refused, naming the switch or assertion.

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
	// lookalike is another type of the package with n's structure that also implements the
	// (non-empty) interface it is asserted from: one the interface may hold instead.
	lookalike := func(n *types.Named, from *types.Interface) *types.Named {
		implements := func(t types.Type) bool {
			return types.Implements(t, from) || types.Implements(types.NewPointer(t), from)
		}
		for _, m := range named {
			if m != n && types.Identical(m.Underlying(), n.Underlying()) && implements(m) && implements(n) {
				return m
			}
		}
		return nil
	}
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
							if types.Identical(s.Underlying(), t.Underlying()) {
								refuse(e.Pos(), s, t, "a type switch telling apart")
								return false
							}
						}
						seen = append(seen, t)
					}
				}
			case *ast.TypeAssertExpr:
				from, ok := typeOfExpr(info, n.X).Underlying().(*types.Interface)
				if n.Type == nil || !ok || from.Empty() {
					break
				}
				if t := caseType(n.Type); t != nil {
					if m := lookalike(t, from); m != nil {
						refuse(n.Pos(), t, m, "a type assertion to one of")
					}
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
