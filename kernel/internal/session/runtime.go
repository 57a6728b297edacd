package session

import (
	"fmt"
	"log"
	"reflect"
	"runtime"

	"github.com/traefik/yaegi/interp"
)

// The cell runtime: a small compiled package the kernel's rewrites call into, imported by the
// prelude under the name __gptnotes. Cells never name it themselves.
const runtimePath = "gptnotes.internal/cellrt"

// prelude is evaluated once per session: the runtime import and the builtins yaegi v0.16.1 lacks
// (min, max, clear; Go 1.21).
const prelude = `
import (
	__gptnotes "gptnotes.internal/cellrt"
	__gptnotes_errors "errors"
	__gptnotes_fmt "fmt"
)

// errors.AsType (Go 1.26), through the kernel's errors.As.
func __gptnotes_errors_AsType[E error](err error) (E, bool) {
	var e E
	ok := __gptnotes_errors.As(err, &e)
	return e, ok
}

type __gptnotes_ordered interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64 | ~string
}

func min[T __gptnotes_ordered](x T, ys ...T) T {
	m := x
	for _, y := range ys {
		if y < m || y != y {
			m = y
		}
	}
	return m
}

func max[T __gptnotes_ordered](x T, ys ...T) T {
	m := x
	for _, y := range ys {
		if y > m || y != y {
			m = y
		}
	}
	return m
}

func clear(x any) { __gptnotes.Clear(x) }

// Since Go 1.21, panic(v) with v nil panics with a *runtime.PanicNilError, so that recover()
// is never nil in a panic; the kernel passes panic's interface arguments through here.
func __gptnotes_panicValue(v any) any {
	if v == nil {
		return __gptnotes.PanicNil()
	}
	return v
}
`

// runtimeSymbols is the cell runtime's symbol table, bound to s, with the standard library
// symbols the kernel replaces (os.Exit, os.Args, flag, log.Fatal, errors.As). It is loaded after
// the standard library, so its entries win. Since New calls it once per session before any cell,
// it also gives cells the command line of a program just started (newProgram).
func (s *Session) runtimeSymbols() interp.Exports {
	newProgram()
	fatal := reflect.ValueOf(func(v ...any) { s.logFatal(fmt.Sprint(v...)) })
	fatalf := reflect.ValueOf(func(format string, v ...any) { s.logFatal(fmt.Sprintf(format, v...)) })
	fatalln := reflect.ValueOf(func(v ...any) { s.logFatal(fmt.Sprintln(v...)) })
	printers := s.printerSymbols()
	cellrt := map[string]reflect.Value{
		"Result":           reflect.ValueOf(s.result),
		"ResultWith":       reflect.ValueOf(s.resultWith),
		"Live":             reflect.ValueOf(s.live),
		"Rendered":         reflect.ValueOf(rendered),
		"Defer":            reflect.ValueOf(s.deferCall),
		"GoPanic":          reflect.ValueOf(s.goPanic),
		"Clear":            reflect.ValueOf(clearValue),
		"PanicNil":         reflect.ValueOf(func() any { return new(runtime.PanicNilError) }),
		"FreshCommandLine": reflect.ValueOf(freshCommandLine),
		"NilInInterface":   reflect.ValueOf(s.nilInInterface),
		"Recovered":        reflect.ValueOf(s.recovered),
		"AssertionFailed":  reflect.ValueOf(s.assertionFailed),
		"TypeName":         reflect.ValueOf(func(_ any, name string) string { return name }),
		"GoSyntax":         reflect.ValueOf(goSyntax),
		"Dynamic":          reflect.ValueOf(s.dynamicFormat),
		"RefuseVerb":       reflect.ValueOf(s.refuseVerb),
		"JSONUnmarshal":    reflect.ValueOf(jsonUnmarshal),
		"JSONDecode":       reflect.ValueOf(jsonDecode),
		"RunCallback":      reflect.ValueOf(s.runCallback),
		"Print":            reflect.ValueOf(s.printBuiltin),
		"LogAt":            reflect.ValueOf(s.logAt),
		"LogOutput":        reflect.ValueOf(s.logOutput),
		"LogStdAt": reflect.ValueOf(func(pos string, kind int, msg string) {
			s.logAt(log.Default(), pos, kind, msg)
		}),
		"LogStdOutput": reflect.ValueOf(func(pos string, calldepth int, msg string) error {
			return s.logOutput(log.Default(), pos, calldepth, msg)
		}),
	}
	for name, t := range tagSymbols() {
		cellrt[name] = t
	}
	return interp.Exports{
		runtimePath + "/cellrt": cellrt,
		"os/os": {
			"Exit": reflect.ValueOf(s.exit),
			"Args": reflect.ValueOf(&cellArgs).Elem(),
		},
		"flag/flag": cellFlagSymbols(s),
		"log/log":   cellLogSymbols(fatal, fatalf, fatalln),
		"errors/errors": {
			"As": reflect.ValueOf(errorsAs),
		},
		fmtKey: printers,
		// Interpreted values passed to log.Fatal keep their String and Error methods, as
		// they do for log.Print (package stdlib's MapTypes); so do those passed to printers.
		".": {"MapTypes": reflect.ValueOf(printerMapTypes(printers, map[reflect.Value][]reflect.Type{
			fatal: logMapTypes, fatalf: logMapTypes, fatalln: logMapTypes,
		}))},
	}
}

// clearValue is the clear builtin: deletes a map's entries, zeroes a slice's elements.
func clearValue(x any) {
	v := reflect.ValueOf(x)
	switch v.Kind() {
	case reflect.Map, reflect.Slice:
		v.Clear()
	default:
		panic(fmt.Sprintf("invalid argument: clear(%T): argument must be a map or a slice", x))
	}
}
