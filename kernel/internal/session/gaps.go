package session

import (
	"go/ast"
	"go/token"
	"strconv"
	"strings"
)

// Gaps the kernel cannot close answer with an Unsupported error that names the feature and what
// to write instead, found before yaegi runs (check) or from yaegi's failure (diagnose).

// iteratorFuncs are standard-library functions that return iterators (iter.Seq, Go 1.23).
var iteratorFuncs = map[string]bool{
	"maps.Keys": true, "maps.Values": true, "maps.All": true, "slices.All": true, "slices.Values": true,
	"slices.Backward": true, "strings.SplitSeq": true, "strings.FieldsSeq": true, "strings.Lines": true,
	"bytes.SplitSeq": true, "bytes.Lines": true,
}

// check finds unsupported features in the parsed cell.
func (c *cellCtx) check() error {
	var err error
	fail := func(pos token.Pos, feature, workaround string) {
		if err == nil {
			err = unsupported(c.pos(pos), feature, workaround)
		}
	}
	for _, p := range c.pieces {
		var root ast.Node = p.body
		if p.kind == declPiece {
			root = p.file
		}
		ast.Inspect(root, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ImportSpec:
				if path, _ := strconv.Unquote(n.Path.Value); path == "iter" {
					fail(n.Pos(), `package iter (range-over-func iterators, Go 1.23)`,
						"return a slice, or pass a callback: seq(func(v T) bool { …; return true })")
				}
			case *ast.TypeSpec:
				if old, ok := c.s.types[n.Name.Name]; ok && old != c.source(n) {
					fail(n.Pos(), "redefining type "+n.Name.Name+" (the interpreter would silently keep the old definition)",
						"give the new type another name, or restart the kernel")
				}
			case *ast.RangeStmt:
				if c.rangesOverFunc(n.X) {
					fail(n.For, "range over a function (iterators, Go 1.23)",
						"call it with a yield callback instead: f(func(v T) bool { …; return true })")
				}
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok && iteratorFuncs[x.Name+"."+n.Sel.Name] && c.isPackage(x) {
					fail(n.Pos(), x.Name+"."+n.Sel.Name+" (it returns an iterator, Go 1.23)",
						"range over the map or slice directly")
				}
			}
			return true
		})
	}
	return err
}

// rangesOverFunc reports whether a range expression is a function: a literal, a function or
// func-typed variable, or a call of an iterator-returning function.
func (c *cellCtx) rangesOverFunc(x ast.Expr) bool {
	if c.kindOf(x) == kindFunc {
		return true
	}
	call, ok := x.(*ast.CallExpr)
	if !ok {
		return false
	}
	switch f := call.Fun.(type) {
	case *ast.SelectorExpr:
		if id, ok := f.X.(*ast.Ident); ok && iteratorFuncs[id.Name+"."+f.Sel.Name] {
			return true
		}
	case *ast.Ident:
		if d := c.funcDecl(f.Name); d != nil && d.Type.Results != nil && len(d.Type.Results.List) == 1 {
			switch t := d.Type.Results.List[0].Type.(type) {
			case *ast.FuncType:
				return true
			case *ast.IndexExpr: // iter.Seq[T]
				if s, ok := t.X.(*ast.SelectorExpr); ok && s.Sel.Name == "Seq" {
					return true
				}
			case *ast.IndexListExpr: // iter.Seq2[K, V]
				if s, ok := t.X.(*ast.SelectorExpr); ok && s.Sel.Name == "Seq2" {
					return true
				}
			}
		}
	}
	return false
}

// retryRewrite handles a failed compile of p that a second rewrite may fix: ranges over
// expressions of unknown kind, now taken as integers. It re-parses p from the cell's source.
func (c *cellCtx) retryRewrite(p *piece, err error) bool {
	if p.kind != stmtPiece || len(c.unknownRanges) == 0 || c.rangeUnknownAsInt || !strings.Contains(err.Error(), "nil type") {
		return false
	}
	c.rangeUnknownAsInt = true
	c.unknownRanges = nil
	hadTrailing := c.trailing != nil
	fresh := []piece{{kind: p.kind, start: p.start, end: p.end}}
	if parsePieces(c.s.fset, c.name, c.src, fresh) != nil {
		return false
	}
	*p = fresh[0]
	c.rewritePiece(p)
	if p.kind == declPiece {
		c.prepareDecls(p)
	} else if hadTrailing {
		c.captureTrailing(p)
	}
	return true
}

// diagnose recognizes yaegi failures that come from a known gap and explains them.
func (c *cellCtx) diagnose(err error) *CellError {
	msg := err.Error()
	pos := c.name
	if i := strings.Index(msg, ": "); i > 0 && strings.HasPrefix(msg, c.name) {
		pos = msg[:i]
	}
	switch {
	case strings.Contains(msg, "nil type") && c.rangeUnknownAsInt:
		return unsupported(pos, "this range loop (yaegi supports range over slices, arrays, strings, maps, "+
			"channels and, through the kernel, integers; not over functions)",
			"for an iterator function, call it with a yield callback")
	case strings.Contains(msg, "too many input arguments"):
		return unsupported(pos, "a method expression T.M on a type of a compiled package",
			"write a function literal: func(t T, args…) { return t.M(args…) }")
	}
	return nil
}

// pos formats a position of the cell.
func (c *cellCtx) pos(p token.Pos) string {
	return c.s.fset.Position(p).String()
}
