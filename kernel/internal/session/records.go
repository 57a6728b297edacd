package session

import (
	"fmt"
	"io"
	"reflect"
	"sync"

	"github.com/gptnotes/gptnotes/kernel/symbols/stdlib"
)

// yaegi v0.16.1 keeps a value of a cell's type that has methods, once stored in an interface
// variable, slice element, map value or struct field, as an internal record (a node pointer and
// a reflect.Value). Compiled code that receives such a record inside another value prints or
// encodes the record: fmt.Println([]any{v}) prints {0xc000… {0x… 0x… 409}} where Go prints the
// value. No rewrite reaches every way a record gets inside a value, so the printing functions
// cells call look for one first and refuse with an Unsupported error instead of printing it.

// isRecord reports whether t is yaegi's record type (interp.valueInterface).
func isRecord(t reflect.Type) bool {
	return t.Name() == "valueInterface" && t.PkgPath() == "github.com/traefik/yaegi/interp"
}

// mayHoldRecord caches, per type, whether a value of it can hold a record: whether an interface
// is reachable through its elements and fields. Most arguments (numbers, strings, []float32)
// are then checked at the cost of one map look-up.
var mayHoldRecord sync.Map // reflect.Type → bool

func canHoldRecord(t reflect.Type) bool {
	if v, ok := mayHoldRecord.Load(t); ok {
		return v.(bool)
	}
	mayHoldRecord.Store(t, false) // a recursive type: its cycle adds nothing
	held := false
	switch t.Kind() {
	case reflect.Interface:
		held = true
	case reflect.Struct:
		held = isRecord(t)
		for i := 0; i < t.NumField() && !held; i++ {
			held = canHoldRecord(t.Field(i).Type)
		}
	case reflect.Pointer, reflect.Slice, reflect.Array:
		held = canHoldRecord(t.Elem())
	case reflect.Map:
		held = canHoldRecord(t.Key()) || canHoldRecord(t.Elem())
	}
	mayHoldRecord.Store(t, held)
	return held
}

// holdsRecord reports whether v holds a record where fmt would print it: in an element, map
// entry or field at any depth, or behind the pointer of an argument (fmt prints &{…} there and an
// address deeper down).
func holdsRecord(v reflect.Value, depth int) bool {
	if !v.IsValid() || depth > 64 || !canHoldRecord(v.Type()) {
		return false
	}
	switch v.Kind() {
	case reflect.Interface:
		return !v.IsNil() && holdsRecord(v.Elem(), depth+1)
	case reflect.Pointer:
		return depth == 0 && !v.IsNil() && holdsRecord(v.Elem(), depth+1)
	case reflect.Struct:
		if isRecord(v.Type()) {
			return true
		}
		for i := 0; i < v.NumField(); i++ {
			if holdsRecord(v.Field(i), depth+1) {
				return true
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if holdsRecord(v.Index(i), depth+1) {
				return true
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if holdsRecord(it.Key(), depth+1) || holdsRecord(it.Value(), depth+1) {
				return true
			}
		}
	}
	return false
}

// recordIn is the Unsupported error for an argument of the printing function fn that holds a
// record, nil when none does.
func recordIn(fn string, args []any) *CellError {
	for _, a := range args {
		if a != nil && holdsRecord(reflect.ValueOf(a), 0) {
			return refused("cell", printedRecord, fn)
		}
	}
	return nil
}

// printers are fmt's printing functions for cells: each refuses a record before printing
// (refuseRecords). Print, Printf and Println write to the cell's stdout; Fprint and its kin write
// a write to os.Stdout or os.Stderr there too, in order with the rest (orderedWriter, capture.go),
// so that fmt.Fprintln(os.Stderr, …) keeps its place among a cell's fmt.Println calls.
func (s *Session) printers() map[string]any {
	no := func(fn string, a []any) { s.refuse(recordIn(fn, a)) }
	return map[string]any{
		"Print":    func(a ...any) (int, error) { no("fmt.Print", a); return fmt.Fprint(cellStdout, a...) },
		"Println":  func(a ...any) (int, error) { no("fmt.Println", a); return fmt.Fprintln(cellStdout, a...) },
		"Sprint":   func(a ...any) string { no("fmt.Sprint", a); return fmt.Sprint(a...) },
		"Sprintln": func(a ...any) string { no("fmt.Sprintln", a); return fmt.Sprintln(a...) },
		"Printf": func(format string, a ...any) (int, error) {
			no("fmt.Printf", a)
			return fmt.Fprintf(cellStdout, format, a...)
		},
		"Sprintf": func(format string, a ...any) string {
			no("fmt.Sprintf", a)
			return fmt.Sprintf(format, a...)
		},
		"Errorf": func(format string, a ...any) error {
			no("fmt.Errorf", a)
			return fmt.Errorf(format, a...)
		},
		"Fprint": func(w io.Writer, a ...any) (int, error) {
			no("fmt.Fprint", a)
			return fmt.Fprint(orderedWriter(w), a...)
		},
		"Fprintf": func(w io.Writer, format string, a ...any) (int, error) {
			no("fmt.Fprintf", a)
			return fmt.Fprintf(orderedWriter(w), format, a...)
		},
		"Fprintln": func(w io.Writer, a ...any) (int, error) {
			no("fmt.Fprintln", a)
			return fmt.Fprintln(orderedWriter(w), a...)
		},
		"Append": func(b []byte, a ...any) []byte { no("fmt.Append", a); return fmt.Append(b, a...) },
		"Appendf": func(b []byte, format string, a ...any) []byte {
			no("fmt.Appendf", a)
			return fmt.Appendf(b, format, a...)
		},
		"Appendln": func(b []byte, a ...any) []byte { no("fmt.Appendln", a); return fmt.Appendln(b, a...) },
	}
}

// fmtKey loads printers over package fmt. It is "fmt/fmt" in another spelling: yaegi reads the
// same package from it, but only the exact "fmt/fmt" makes it install its own Print, Printf and
// Println (and stdio symbols, over os.Args and flag.CommandLine) again.
const fmtKey = "fmt/./fmt"

// printerSymbols is printers as a symbol table.
func (s *Session) printerSymbols() map[string]reflect.Value {
	syms := map[string]reflect.Value{}
	for name, f := range s.printers() {
		syms[name] = reflect.ValueOf(f)
	}
	return syms
}

// printerMapTypes adds to m the interface wrappers yaegi gives the arguments of fmt's own
// functions (package stdlib's MapTypes), for the printers in syms, so interpreted values keep
// their String and Error methods.
func printerMapTypes(syms map[string]reflect.Value, m map[reflect.Value][]reflect.Type) map[reflect.Value][]reflect.Type {
	for name, v := range syms {
		if mt, ok := stdlib.MapTypes[stdlib.Symbols["fmt/fmt"][name]]; ok {
			m[v] = mt
		}
	}
	return m
}

// refuse ends the running cell with err (nil: nothing happens). Like os.Exit (Session.exit), it
// parks the calling goroutine: a panic would be caught by the cell's own recover, and the
// program would go on with a value Go never gives it.
func (s *Session) refuse(err *CellError) {
	if err == nil {
		return
	}
	if onKernelStack() {
		panic(err)
	}
	s.endRunning(err, err.Value, nil)
}
