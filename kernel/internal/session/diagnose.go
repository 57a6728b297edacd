package session

import (
	"go/ast"
	"strings"
)

// diagnose recognizes yaegi failures that come from a known gap and explains them.
func (c *cellCtx) diagnose(err error) *CellError {
	msg := err.Error()
	pos := c.name
	if i := strings.Index(msg, ": "); i > 0 && strings.HasPrefix(msg, c.name) {
		pos = msg[:i]
	}
	switch {
	case c.hasInterfaceAssertion():
		return refused(pos, interfaceAssertionFailed)
	case strings.Contains(msg, "unable to find source related to"):
		_, rest, _ := strings.Cut(msg, `related to: "`)
		path, _, _ := strings.Cut(rest, `"`)
		return importError(pos, path)
	case strings.Contains(msg, "too many input arguments"):
		return refused(pos, compiledMethodExpr)
	}
	return nil
}

// importError is the error for an import of a package the kernel does not have.
func importError(pos, path string) *CellError {
	v := pos + ": package \"" + path + "\" is not available in this kernel: cells import the standard " +
		"library and the kernel's plugins (kernel/display, gonum.org/v1/plot…, gpt, tokenizer, viz); " +
		`"Adding your own package" in the README shows how to add one`
	return &CellError{Name: "ImportError", Value: v, Traceback: []string{"ImportError: " + v}}
}

// hasInterfaceAssertion reports whether the cell asserts or switches to an interface type.
func (c *cellCtx) hasInterfaceAssertion() bool {
	found := false
	for _, p := range c.pieces {
		root := p.root()
		ast.Inspect(root, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.TypeAssertExpr:
				found = found || (n.Type != nil && c.isInterfaceType(n.Type))
			case *ast.TypeSwitchStmt:
				found = found || c.hasInterfaceCase(n)
			}
			return !found
		})
	}
	return found
}
