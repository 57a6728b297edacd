package session

import (
	"fmt"
	"go/ast"
	"go/types"
	"regexp"
	"strings"
)

// What recover() returns. A cell's runtime error is often yaegi's own panic, in reflect's words
// ("reflect: slice index out of range" where Go says "runtime error: index out of range [5] with
// length 2"), and a failed type assertion carries the interpreter's position ("cell:3:7:
// interface conversion: …"). The kernel passes every recover() through the runtime's Recovered:
// a panic whose Go value it knows becomes that value (a runtime.Error with Go's words); one whose
// Go words hold numbers the interpreter does not keep (the index, the length) fails the cell
// with an Unsupported error, rather than hand the program a value Go would never give it.

// runtimeError is a runtime.Error with Go's words.
type runtimeError string

func (e runtimeError) Error() string { return string(e) }
func (e runtimeError) RuntimeError() {}

// positioned matches the interpreter's position before a runtime error's words.
var positioned = regexp.MustCompile(`^cell[0-9]*:[0-9]+:[0-9]+: (interface conversion: .*)$`)

// recovered is the runtime's Recovered: the value recover() returns in Go for the value v it
// returned in the interpreter.
func (s *Session) recovered(v any) any {
	if v == nil {
		return nil
	}
	switch v.(type) {
	case string, error:
	default:
		return v
	}
	text := fmt.Sprint(v)
	if m := positioned.FindStringSubmatch(text); m != nil {
		return runtimeError(m[1])
	}
	goText, ok := reflectPanics[text]
	if !ok {
		return v
	}
	if strings.Contains(goText, "nil pointer dereference") {
		return runtimeError(goText)
	}
	s.refuse(refused("cell", recoveredReflectPanic, text, goText))
	return nil // not reached: refuse parks the goroutine
}

// recoverCall reports whether call is the universe's recover().
func (c *cellCtx) recoverCall(call *ast.CallExpr) bool {
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	return ok && len(call.Args) == 0 && c.checked != nil && c.checked.info.Uses[id] == types.Universe.Lookup("recover")
}

// recoveredCall writes recover() as __gptnotes.Recovered(recover()).
func recoveredCall(call *ast.CallExpr) ast.Expr {
	return &ast.CallExpr{Fun: runtimeFuncAt("Recovered", call.Pos()), Lparen: call.Pos(), Args: []ast.Expr{call}, Rparen: call.End()}
}

// recoveredExpr is the pass's expression step: recover() becomes recoveredCall's call.
func recoveredExpr(c *cellCtx, e ast.Expr) ast.Expr {
	if call, ok := e.(*ast.CallExpr); ok && c.recoverCall(call) {
		return recoveredCall(call)
	}
	return e
}
