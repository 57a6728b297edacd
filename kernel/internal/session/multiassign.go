package session

import (
	"go/ast"
	"go/token"
)

// Assignments of several values. yaegi v0.16.1 compiles `a, b = x, y` (and `a, b := x, y`,
// `var a, b = x, y`) as one statement, and when a value is a composite literal, a call or a
// receive it has that value written straight into its variable and turns the statement's own
// assignment off: for the whole statement, so the other variables are not assigned at all.
// `best, n := P{}, 0` in a loop keeps n from the previous iteration (notebook 01's
// most-frequent-pair loop found nothing after its first round); `p, n := P{1, 2}, 5` at the top
// of a cell leaves n at 0; `a, b = P{b.x}, a` gives b the new a. The interpreter does not treat
// a value in parentheses as one of those operations, so `a, b = (P{}), 0` assigns every
// variable after evaluating every value, as Go does.

// findMultiValues records the values of the piece's assignments and declarations of several
// variables, once the statement passes wrote them (theirs too: rangeint's `i, __n := n-n, n`).
func findMultiValues(c *cellCtx, root ast.Node) {
	if c.multiValues == nil {
		c.multiValues = map[ast.Expr]bool{}
	}
	mark := func(values []ast.Expr, names int) {
		if names < 2 || len(values) != names {
			return
		}
		for _, v := range values {
			c.multiValues[v] = true
		}
	}
	ast.Inspect(root, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			if n.Tok == token.ASSIGN || n.Tok == token.DEFINE {
				mark(n.Rhs, len(n.Lhs))
			}
		case *ast.ValueSpec:
			mark(n.Values, len(n.Names))
		}
		return true
	})
}

// multiValueWrap puts a recorded value in parentheses when, as the expression passes left it,
// it is one the interpreter would write straight into its variable.
func multiValueWrap(c *cellCtx, orig, e ast.Expr) ast.Expr {
	if !c.multiValues[orig] {
		return e
	}
	switch x := e.(type) {
	case *ast.CompositeLit, *ast.CallExpr:
	case *ast.UnaryExpr:
		if x.Op != token.ARROW {
			return e
		}
	default:
		return e
	}
	return &ast.ParenExpr{Lparen: e.Pos(), X: e, Rparen: e.End()}
}
