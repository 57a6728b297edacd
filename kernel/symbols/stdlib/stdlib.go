// Package stdlib holds the yaegi symbol tables of the standard library of the Go that builds the
// kernel: one generated file per importable package of `go list std` (internal, vendor and cmd
// packages left out; see gen for the few others and why), written by `yaegi extract` of the
// yaegi version in go.mod. Regenerate with `go generate` here (or `make generate`);
// TestSymbolsMatchGo fails when a package or an exported symbol of the building Go is missing,
// and TestGeneratedUpToDate when a file differs from what regenerating writes.
//
// It replaces yaegi's own stdlib package, generated for an older Go and split in restricted
// tables (stdlib) and the unrestricted ones (stdlib/unrestricted, stdlib/syscall,
// stdlib/unsafe). These tables are unrestricted where yaegi's are not: os/exec, the whole of
// syscall and unsafe are here. What stays restricted, as in yaegi (restricted.go): os.Exit,
// os.FindProcess of the process itself, log.Fatal and the Fatal methods of the loggers log.New
// makes, none of which ends the process. (The kernel loads its own os.Exit and log.Fatal over
// these; see package session.) yaegi's special handling of os, log and flag at load time
// (interp.Use: stdio, the interpreter's os.Args, flag.CommandLine) applies to these tables as to
// its own, since it keys on the "fmt/fmt" entry.
//
// Besides the tables, gen writes generic.go: Generic, the exported generic functions and types
// of each package, which the tables lack (the kernel names them in its errors).
//
// The hand-written files are this one, restricted.go, unsafe_builtins.go, maptypes.go and
// wrapper_composed.go; every other non-test file is generated.
package stdlib

import "reflect"

//go:generate go run ./gen

// Symbols maps "importpath/pkgname" to the package's exported symbols, as interp.Use wants it.
// It also holds "." (MapTypes) and yaegi's hook for unsafe conversions (unsafe_builtins.go).
var Symbols = map[string]map[string]reflect.Value{}

// MapTypes maps functions taking an interface{} parameter that behave differently when the
// argument implements some interface (fmt.Println and fmt.Stringer) to those interfaces, so
// that yaegi wraps interpreted values with the methods the function looks for.
var MapTypes = map[reflect.Value][]reflect.Type{}

func init() {
	Symbols["."] = map[string]reflect.Value{"MapTypes": reflect.ValueOf(MapTypes)}
}
