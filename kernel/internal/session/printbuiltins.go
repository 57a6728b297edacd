package session

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"strconv"
	"strings"
)

// The print and println builtins. Go's runtime prints their operands itself: print with nothing
// between them, println with spaces; a nil pointer, map, channel or function as 0x0, a slice as
// [len/cap]0xaddress, an interface as (0xtype,0xdata). yaegi v0.16.1 prints each operand with
// fmt's %v and a space between them, in print too: print(x, "\n") wrote "x \n", a nil slice
// "[]" and a nil interface "<nil>". The kernel rewrites
//
//	println(a, s, e)  →  __gptnotes.Print("cell:3", true, "vsi", a, s, e)
//
// with one letter per operand from the check's types (v: a boolean, number or string, printed
// as fmt's %v prints it, which is how Go 1.26's runtime prints them; s: a slice; p: a pointer,
// map, channel, function or unsafe.Pointer; i: an interface), and the runtime prints as Go's
// does. A non-nil interface value is refused when it runs: Go prints the addresses of its type
// descriptor and data, which the interpreter's values do not have.

// printBuiltins is the pass's piece step: each call of print or println in the piece becomes
// the runtime's, in place, before the statements are rewritten (a deferred or go call's
// operands are then bound as any call's are, with the check's types still known).
func printBuiltins(c *cellCtx, root ast.Node) {
	ast.Inspect(root, func(n ast.Node) bool {
		if call, ok := n.(*ast.CallExpr); ok {
			c.printBuiltinCall(call)
		}
		return true
	})
}

// printBuiltinCall rewrites call, in place, when it calls print or println.
func (c *cellCtx) printBuiltinCall(call *ast.CallExpr) {
	if c.checked == nil || call.Ellipsis.IsValid() {
		return
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || (id.Name != "print" && id.Name != "println") {
		return
	}
	if _, builtin := c.checked.info.Uses[id].(*types.Builtin); !builtin {
		return
	}
	var kinds strings.Builder
	for _, a := range call.Args {
		t := c.typeOf(a)
		if t == nil {
			return
		}
		kinds.WriteByte(printKind(t))
	}
	at := call.Pos()
	p := c.s.fset.Position(at)
	lit := func(kind token.Token, v string) ast.Expr { return &ast.BasicLit{ValuePos: at, Kind: kind, Value: v} }
	args := []ast.Expr{
		lit(token.STRING, strconv.Quote(fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column))),
		&ast.Ident{Name: strconv.FormatBool(id.Name == "println"), NamePos: at},
		lit(token.STRING, strconv.Quote(kinds.String())),
	}
	call.Fun = runtimeFuncAt("Print", at)
	call.Args = append(args, call.Args...)
}

// printKind is the letter of an operand of type t (see the file's comment).
func printKind(t types.Type) byte {
	switch u := t.Underlying().(type) {
	case *types.Interface:
		return 'i'
	case *types.Slice:
		return 's'
	case *types.Pointer, *types.Map, *types.Chan, *types.Signature:
		return 'p'
	case *types.Basic:
		if u.Kind() == types.UnsafePointer {
			return 'p'
		}
	}
	return 'v'
}

// printBuiltin is the runtime's Print: the operands as Go's runtime prints them, to the cell's
// stdout (where the interpreter's print writes; Go's goes to stderr).
func (s *Session) printBuiltin(pos string, ln bool, kinds string, args ...any) {
	var b strings.Builder
	for i, a := range args {
		if ln && i > 0 {
			b.WriteByte(' ')
		}
		v := reflect.ValueOf(a)
		switch kinds[i] {
		case 'i':
			if a != nil {
				s.refuse(refused(pos, printedInterface, "a value of type "+v.Type().String()))
				return
			}
			b.WriteString("(0x0,0x0)")
		case 's':
			fmt.Fprintf(&b, "[%d/%d]%#x", v.Len(), v.Cap(), v.Pointer())
		case 'p':
			fmt.Fprintf(&b, "%#x", v.Pointer())
		default:
			fmt.Fprintf(&b, "%v", a)
		}
	}
	if ln {
		b.WriteByte('\n')
	}
	cellStdout.Write([]byte(b.String()))
}
