package session

import (
	"fmt"
	"go/ast"
	"go/token"
	"strings"

	"github.com/traefik/yaegi/interp"
)

// compile turns a piece's AST into a program, converting yaegi's compile panics into errors.
func (s *Session) compile(n ast.Node) (prog *interp.Program, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &compilePanic{value: r}
		}
	}()
	logMu.Lock()
	muteLog = true
	logMu.Unlock()
	defer func() {
		logMu.Lock()
		muteLog = false
		logMu.Unlock()
	}()
	return s.in.CompileAST(n)
}

// compilePanic is a panic raised by yaegi while compiling.
type compilePanic struct{ value any }

func (p *compilePanic) Error() string { return fmt.Sprint(p.value) }

// isVoidResult reports whether compiling the trailing-expression capture failed because the
// expression has no value (a call of a function without results).
func isVoidResult(err error) bool {
	return strings.Contains(err.Error(), " as type ()")
}

// hoistVarDecls takes the top-level `var x T` (no value) out of a statement piece into a
// block of their own, compiled and run before the pieces. The interpreter keeps a variable's
// declaring node for as long as the variable lives, and every node above it: declared in the
// piece, a variable kept the whole cell's syntax alive (about 8 KB a cell); declared alone, a
// few nodes. Such a declaration has no value, so it may come first.
func hoistVarDecls(body *ast.BlockStmt) *ast.BlockStmt {
	var decls, rest []ast.Stmt
	for _, st := range body.List {
		if ds, ok := st.(*ast.DeclStmt); ok {
			if g := ds.Decl.(*ast.GenDecl); g.Tok == token.VAR && noValues(g) {
				decls = append(decls, st)
				continue
			}
		}
		rest = append(rest, st)
	}
	if len(decls) == 0 {
		return nil
	}
	body.List = rest
	return &ast.BlockStmt{Lbrace: decls[0].Pos(), List: decls, Rbrace: decls[len(decls)-1].End()}
}

func noValues(g *ast.GenDecl) bool {
	for _, sp := range g.Specs {
		if len(sp.(*ast.ValueSpec).Values) > 0 {
			return false
		}
	}
	return true
}
