package session

import (
	"fmt"
	"go/ast"
	"go/types"
	"os"
	"strings"
	"sync"
)

// Sealed cells: how a grader's check cell gets a verdict that does not depend on names the
// submission declared. A cell whose first line is
//
//	//gptnotes:check KEY
//
// is sealed: every name it uses that Go predeclares (panic, len, int, true, …) or that names a
// compiled package (fmt, gpt, …) must mean that, not a declaration of an earlier cell, or the
// cell does not compile. A submission that declares func panic, var panic or var gpt makes the
// checks that use the name fail, with the reason, instead of pass.
//
// KEY is the grader's secret for this kernel (GPTNOTES_CHECK_KEY, read once at start and taken
// out of the environment). With it, a sealed cell may also use the reserved functions
// (GPTNOTES_RESERVED: "import/path.Func" or "import/path.Type.Method", comma-separated, the
// functions an exam's checks compare with), which every other cell is refused. The submission
// is written before the key exists, so none of its own cells carries it.
const sealDirective = "//gptnotes:check"

// checkKey and reserved are the grader's, from the kernel's environment, read once by the
// first cell (not at init: the confined kernel execs itself, and must pass the key on).
var (
	checkKey  string
	reserved  map[string]bool
	sealSetup sync.Once
)

func readSealEnv() {
	sealSetup.Do(func() {
		checkKey = os.Getenv("GPTNOTES_CHECK_KEY")
		os.Unsetenv("GPTNOTES_CHECK_KEY")
		reserved = map[string]bool{}
		for _, name := range strings.Split(os.Getenv("GPTNOTES_RESERVED"), ",") {
			if name = strings.TrimSpace(name); name != "" {
				reserved[name] = true
			}
		}
	})
}

// sealing says whether src is a sealed cell, and whether it carries the kernel's key.
func sealing(src string) (sealed, keyed bool) {
	first, _, _ := strings.Cut(strings.TrimLeft(src, " \t\r\n"), "\n")
	rest, ok := strings.CutPrefix(strings.TrimSpace(first), sealDirective)
	if !ok || (rest != "" && rest[0] != ' ' && rest[0] != '\t') {
		return false, false
	}
	return true, checkKey != "" && strings.TrimSpace(rest) == checkKey
}

// checkSeal refuses, in a sealed cell, a predeclared or package name that resolves to a
// session declaration, and in any cell without the key, a use of a reserved function. It runs
// after the type check, on the names the cell's own pieces use.
func (c *cellCtx) checkSeal() error {
	readSealEnv()
	sealed, keyed := sealing(c.src)
	if !sealed && (keyed || len(reserved) == 0) {
		return nil
	}
	var problem string
	for _, p := range c.pieces {
		ast.Inspect(p.root(), func(n ast.Node) bool {
			id, ok := n.(*ast.Ident)
			if !ok || problem != "" {
				return problem == ""
			}
			obj := c.checked.info.Uses[id]
			if obj == nil {
				return true
			}
			at := c.s.fset.Position(id.Pos())
			if sealed && c.redefined(id.Name, obj) {
				problem = fmt.Sprintf("%d:%d: this check uses %s, which an earlier cell declared: a check runs only with Go's own %s",
					at.Line, at.Column, id.Name, id.Name)
			} else if !keyed && reserved[reservedName(obj)] {
				problem = fmt.Sprintf("%d:%d: %s is the checks' own in this exam: write it yourself", at.Line, at.Column, types.ObjectString(obj, nil))
			}
			return true
		})
	}
	if problem != "" {
		return compileErrorText(problem)
	}
	return nil
}

// redefined reports whether name, which Go predeclares or which names a compiled package,
// resolves to a declaration in the session's package scope, or to a package of another name.
func (c *cellCtx) redefined(name string, obj types.Object) bool {
	if pn, ok := obj.(*types.PkgName); ok {
		return pn.Imported().Name() != name // a package imported under another's name
	}
	if obj.Pkg() == nil || obj.Parent() != obj.Pkg().Scope() {
		return false
	}
	if types.Universe.Lookup(name) != nil {
		return true
	}
	for _, pkg := range c.s.pkgNames {
		if pkg == name {
			return true
		}
	}
	return false
}

// reservedName is a function's name as GPTNOTES_RESERVED lists it: "path.Func" or
// "path.Type.Method"; "" for anything else.
func reservedName(obj types.Object) string {
	f, ok := obj.(*types.Func)
	if !ok || f.Pkg() == nil {
		return ""
	}
	sig := f.Type().(*types.Signature)
	if sig.Recv() == nil {
		return f.Pkg().Path() + "." + f.Name()
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok {
		return f.Pkg().Path() + "." + n.Obj().Name() + "." + f.Name()
	}
	return ""
}
