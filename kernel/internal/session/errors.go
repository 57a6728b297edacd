package session

import (
	"context"
	"errors"
	"fmt"
	"go/scanner"
	"strings"

	"github.com/traefik/yaegi/interp"
)

// A cell fails in one of four ways, each one CellError: it does not parse (SyntaxError), yaegi
// rejects it (CompileError, or Unsupported when the kernel knows the Go feature is missing), it
// panics (Panic, GoroutinePanic, Exit), or it is interrupted (Interrupted). Positions are the
// cell's own ("cell:2:5" is line 2, column 5).

func syntaxError(err error) *CellError {
	var lines []string
	if l, ok := err.(scanner.ErrorList); ok {
		for _, e := range l {
			lines = append(lines, e.Error())
		}
	} else {
		lines = []string{err.Error()}
	}
	return &CellError{Name: "SyntaxError", Value: strings.Join(lines, "\n"), Traceback: lines}
}

func compileErrorText(msg string) *CellError {
	return &CellError{Name: "CompileError", Value: msg, Traceback: []string{"CompileError: " + msg}}
}

// runtimeError turns an execution failure into the cell's one error.
func (s *Session) runtimeError(ctx context.Context, err error) *CellError {
	var ce *CellError
	if errors.As(context.Cause(ctx), &ce) {
		return ce // a goroutine the cell started panicked
	}
	var exit exitError
	if errors.As(context.Cause(ctx), &exit) {
		s.trace.take()
		return exitCellError(exit.code) // os.Exit, in the cell or a goroutine (see Session.exit)
	}
	if ctx.Err() != nil {
		s.trace.take()
		v := "the cell was interrupted; variables keep the values they had at that moment"
		return &CellError{Name: "Interrupted", Value: v, Traceback: []string{"Interrupted: " + v}}
	}
	var p interp.Panic
	if !errors.As(err, &p) {
		s.trace.take()
		return &CellError{Name: "Error", Value: err.Error(), Traceback: []string{"Error: " + err.Error()}}
	}
	if ce, ok := p.Value.(*CellError); ok {
		s.trace.take()
		return ce // a refusal found while the cell ran (records.go)
	}
	trace := frames(s.trace.take())
	v := panicText(p.Value)
	tb := []string{"panic: " + v}
	if compiled := compiledFrames(p.Stack); len(compiled) > 0 {
		tb = append(tb, "", "in compiled code:")
		tb = append(tb, compiled...)
	}
	if len(trace) > 0 {
		tb = append(tb, "", "in the cell:")
		tb = append(tb, trace...)
	}
	return &CellError{Name: "Panic", Value: v, Traceback: tb}
}

// exitCellError is the error of a cell that os.Exit ended. It has no interpreted call stack: the
// exit unwinds nothing (see Session.exit).
func exitCellError(code int) *CellError {
	v := fmt.Sprintf("os.Exit(%d) ended the cell; the kernel keeps running with every variable "+
		"intact (restart the kernel to start over)", code)
	return &CellError{Name: "Exit", Value: v, Traceback: []string{"Exit: " + v}}
}

// panicText is the value of a panic as a cell shows it: as fmt prints it (an error by its
// Error method), with a reflect panic of yaegi's translated (reflectPanics).
func panicText(p any) string {
	v := fmt.Sprint(p)
	if plain, ok := reflectPanics[v]; ok {
		v = plain + " (" + v + ")"
	}
	return v
}

// reflectPanics translates the reflect panics yaegi raises where compiled Go would raise a
// runtime error, into that runtime error's words.
var reflectPanics = map[string]string{
	"reflect: call of reflect.Value.Field on zero Value":     "runtime error: invalid memory address or nil pointer dereference",
	"reflect: call of reflect.Value.Method on zero Value":    "runtime error: invalid memory address or nil pointer dereference",
	"reflect: call of reflect.Value.Call on zero Value":      "runtime error: call of a nil function",
	"reflect: slice index out of range":                      "runtime error: index out of range",
	"reflect: array index out of range":                      "runtime error: index out of range",
	"reflect: string index out of range":                     "runtime error: index out of range",
	"reflect: call of reflect.Value.Elem on zero Value":      "runtime error: invalid memory address or nil pointer dereference",
	"reflect: call of reflect.Value.Interface on zero Value": "runtime error: invalid memory address or nil pointer dereference",
}

// frames formats interpreted panic frames, innermost first.
func frames(trace []string) []string {
	out := make([]string, 0, len(trace))
	for i, f := range trace {
		if i > 0 && f == trace[i-1] {
			continue
		}
		out = append(out, "    "+f)
	}
	return out
}

// compiledFrames picks from a goroutine stack (debug.Stack format) the frames of compiled code a
// cell called into: not the runtime, reflect, yaegi or this package.
func compiledFrames(stack []byte) []string {
	if stack == nil {
		return nil
	}
	lines := strings.Split(string(stack), "\n")
	var out []string
	for i := 1; i+1 < len(lines); i += 2 {
		fn, loc := lines[i], strings.TrimSpace(lines[i+1])
		if fn == "" || strings.HasPrefix(fn, "goroutine ") {
			i--
			continue
		}
		if skipFrame(fn) {
			continue
		}
		if j := strings.LastIndex(loc, " +0x"); j > 0 {
			loc = loc[:j]
		}
		if k := strings.LastIndex(fn, "("); k > 0 {
			fn = fn[:k]
		}
		out = append(out, fmt.Sprintf("    %s (%s)", fn, loc))
		if len(out) == 20 {
			break
		}
	}
	return out
}

func skipFrame(fn string) bool {
	for _, p := range []string{"runtime.", "runtime/", "reflect.", "panic(", "github.com/traefik/yaegi/",
		"github.com/gptnotes/gptnotes/kernel/internal/session.", "created by "} {
		if strings.HasPrefix(fn, p) {
			return true
		}
	}
	return false
}

func joinLines(l []string) string { return strings.Join(l, "\n") + "\n" }
