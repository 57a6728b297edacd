package session

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"io"
	"log"
	"strconv"
)

// Source lines in package log's output. With log.Lshortfile or log.Llongfile, a logger writes
// the file and line of the call that logged ("main.go:12: "), which it finds with
// runtime.Caller. A cell's call is made by the interpreter through reflect, so the caller it
// found was the interpreter's (value.go:586). The kernel rewrites every call of package log's
// printing functions and of a *log.Logger's printing methods to pass the call's position, as
// the kernel names positions in its errors (cell:3, line 3 of the cell that declares the call):
//
//	log.Println(a, b)  →  __gptnotes.LogStdAt("cell:3", 0, __gptnotes_fmt.Sprintln(a, b))
//	l.Fatalf(f, x)     →  __gptnotes.LogAt(l, "cell:3", 1, __gptnotes_fmt.Sprintf(f, x))
//	l.Output(1, s)     →  __gptnotes.LogOutput(l, "cell:3", 1, s)
//
// The message is made by the cells' own fmt (the kernel's printers), as log makes it with fmt.
// The runtime (logAt) writes it as the logger would, with the cell's position where Go writes
// the file and line; then a Fatal function ends the cell as os.Exit(1) does and a Panic function
// panics with the message. Both file flags give the same cell:3 (a cell has no directory). A
// pasted file (a package clause) and a //line directive name the lines as Go would: main.go:3,
// example_test.go:19 (sourcenames.go).
// Output(calldepth, s) with a calldepth other than 1 names a caller further up, which the
// kernel cannot know from the call: with a file flag set, that is refused when it runs.
// slog's AddSource stays refused: slog reads the position from a program counter, which only
// the interpreter's frames have.

// logCalls are package log's printing functions and *log.Logger's printing methods, with what
// each does after writing (logPrint, logFatal, logPanic) and the fmt function that makes its
// message.
var logCalls = map[string]struct {
	kind   int
	sprint string
}{
	"Print": {logPrint, "Sprint"}, "Printf": {logPrint, "Sprintf"}, "Println": {logPrint, "Sprintln"},
	"Fatal": {logFatal, "Sprint"}, "Fatalf": {logFatal, "Sprintf"}, "Fatalln": {logFatal, "Sprintln"},
	"Panic": {logPanic, "Sprint"}, "Panicf": {logPanic, "Sprintf"}, "Panicln": {logPanic, "Sprintln"},
}

const (
	logPrint = iota
	logFatal
	logPanic
)

// A logCall is a call of a log function or method the pass rewrites, as the check saw it.
type logCall struct {
	name     string   // the function or method: Println, Output
	method   bool     // a method of *log.Logger
	embedded []string // the embedded fields the method is promoted through, outermost first
	addr     bool     // the receiver is a log.Logger variable: Go calls the method on its address
	pos      string   // the call's position as the kernel names it: cell:3
}

// findLogCalls finds the calls of log's printing functions and methods in the cell's pieces,
// before other passes replace the nodes the check's information is keyed by.
func findLogCalls(c *cellCtx) {
	c.logCalls = map[*ast.CallExpr]*logCall{}
	for _, p := range c.pieces {
		ast.Inspect(p.root(), func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if lc := c.logCallOf(call); lc != nil {
					c.logCalls[call] = lc
				}
			}
			return true
		})
	}
}

// logCallOf describes call when it calls one of log's printing functions or methods or Output.
func (c *cellCtx) logCallOf(call *ast.CallExpr) *logCall {
	fn := c.callee(call)
	if fn == nil || fn.Pkg() == nil {
		return nil
	}
	if recv := fn.Signature().Recv(); fn.Pkg().Path() != "log" && (recv == nil || !c.isCellLogger(recv.Type())) {
		return nil
	}
	if _, ok := logCalls[fn.Name()]; !ok && (fn.Name() != "Output" || len(call.Args) != 2) {
		return nil
	}
	p := c.s.fset.Position(call.Pos())
	lc := &logCall{name: fn.Name(), pos: c.sources.position(p.Line)}
	if fn.Signature().Recv() == nil {
		return lc
	}
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil
	}
	s := c.checked.info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal {
		return nil
	}
	lc.method = true
	t := s.Recv()
	path := s.Index()
	for _, i := range path[:len(path)-1] {
		if p, ok := t.Underlying().(*types.Pointer); ok {
			t = p.Elem()
		}
		st, ok := t.Underlying().(*types.Struct)
		if !ok {
			return nil
		}
		lc.embedded = append(lc.embedded, st.Field(i).Name())
		t = st.Field(i).Type()
	}
	_, isPtr := t.Underlying().(*types.Pointer)
	lc.addr = !isPtr
	return lc
}

// isCellLogger reports whether t is log.Logger, or a pointer to it, as cells see it: the
// kernel's symbols give cells a wrapper of *log.Logger whose Fatal methods do not end the
// process (kernel/symbols/stdlib/restricted.go), a type of the symbols' package to the check.
func (c *cellCtx) isCellLogger(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	pkg, err := c.s.imp.Import("log") // cached: a cell that logs has imported log
	if err != nil {
		return false
	}
	obj := pkg.Scope().Lookup("Logger")
	return obj != nil && types.Identical(t, obj.Type())
}

// logSourceWrap rewrites a call found by findLogCalls (orig as the cell wrote it, e as the
// passes before left it); other expressions stay as they are.
func logSourceWrap(c *cellCtx, orig, e ast.Expr) ast.Expr {
	oc, ok := orig.(*ast.CallExpr)
	if !ok || c.logCalls[oc] == nil {
		return e
	}
	lc := c.logCalls[oc]
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return e
	}
	sel, isSel := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !isSel || sel.Sel.Name != lc.name {
		return e // not a call of the function any more
	}
	at := call.Pos()
	var args []ast.Expr // the logger, for a method
	fun := "Std"        // the runtime's functions of the standard logger: LogStd, LogStdOutput
	if lc.method {
		fun = ""
		logger := sel.X
		for _, f := range lc.embedded {
			logger = &ast.SelectorExpr{X: logger, Sel: &ast.Ident{Name: f, NamePos: at}}
		}
		if lc.addr {
			logger = &ast.UnaryExpr{OpPos: at, Op: token.AND, X: logger}
		}
		args = append(args, logger)
	}
	args = append(args, &ast.BasicLit{ValuePos: at, Kind: token.STRING, Value: strconv.Quote(lc.pos)})
	if lc.name == "Output" {
		return &ast.CallExpr{Fun: runtimeFuncAt("Log"+fun+"Output", at), Lparen: call.Lparen, Rparen: call.Rparen,
			Args: append(args, call.Args[0], call.Args[1])}
	}
	how := logCalls[lc.name]
	msg := &ast.CallExpr{
		Fun:    &ast.SelectorExpr{X: &ast.Ident{Name: "__gptnotes_fmt", NamePos: at}, Sel: &ast.Ident{Name: how.sprint, NamePos: at}},
		Lparen: call.Lparen, Args: call.Args, Ellipsis: call.Ellipsis, Rparen: call.Rparen,
	}
	kind := &ast.BasicLit{ValuePos: at, Kind: token.INT, Value: strconv.Itoa(how.kind)}
	return &ast.CallExpr{Fun: runtimeFuncAt("Log"+fun+"At", at), Lparen: call.Lparen, Rparen: call.Rparen,
		Args: append(args, kind, msg)}
}

// --- the runtime ------------------------------------------------------------------------------

// A logger is a *log.Logger, or the wrapper of one cells get from log.New.
type logger interface {
	Flags() int
	Prefix() string
	Writer() io.Writer
	Output(calldepth int, s string) error
}

// logAt is the runtime's LogAt: msg written by l as from a call at pos, then what the function
// does after writing (kind). LogStdAt is the same with the standard logger.
func (s *Session) logAt(l logger, pos string, kind int, msg string) {
	writeLog(l, pos, msg)
	switch kind {
	case logFatal:
		s.exit(1)
	case logPanic:
		panic(msg)
	}
}

// logOutput is the runtime's LogOutput: l.Output(calldepth, msg) called at pos. LogStdOutput
// is the same with the standard logger.
func (s *Session) logOutput(l logger, pos string, calldepth int, msg string) error {
	if calldepth != 1 && l.Flags()&fileFlags != 0 {
		s.refuse(refused(pos, callerFrames, fmt.Sprintf("Output(%d, …) of a logger with Lshortfile or Llongfile (the line of a caller up the stack)", calldepth)))
		return nil
	}
	return writeLog(l, pos, msg)
}

const fileFlags = log.Lshortfile | log.Llongfile

// writeLog writes msg with l's header, pos as the header's file and line. Without a file flag it
// is l.Output. With one, the line is made by a logger of the same flags without the file, whose
// message prefix (log.Lmsgprefix: after the date and time, where the file goes) starts with pos,
// and written to l's writer in one Write, as l writes a line.
func writeLog(l logger, pos, msg string) error {
	flags := l.Flags()
	if flags&fileFlags == 0 {
		return l.Output(1, msg)
	}
	var buf bytes.Buffer
	prefix := l.Prefix()
	if flags&log.Lmsgprefix == 0 {
		buf.WriteString(prefix) // first on the line, before the date
		prefix = ""
	}
	line := log.New(&buf, pos+": "+prefix, flags&^fileFlags|log.Lmsgprefix)
	if err := line.Output(1, msg); err != nil {
		return err
	}
	_, err := l.Writer().Write(buf.Bytes())
	return err
}
