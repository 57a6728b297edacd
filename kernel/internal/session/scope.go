package session

import (
	"reflect"
	"unsafe"
)

// The interpreter's package scope, reached through reflection: yaegi v0.16.1 has no API to
// take a name back, and a notebook needs two things of it. A cell that fails to compile must
// leave the session as it was (yaegi registers a cell's imports and names while it compiles,
// before it finds the error), so the kernel snapshots the scope's names before a cell and puts
// them back when it fails. A cell that declares a type again must get the new type (yaegi
// would keep the old one), so the kernel forgets the old name first. TestScopeReflection
// fails if a new yaegi moves these fields.

// mainScope is the symbol map of the interpreter's package main: name → *symbol, where an
// import of package p in file f is keyed "p/f".
func (s *Session) mainScope() reflect.Value {
	scopes := field(reflect.ValueOf(s.in).Elem(), "scopes")
	sc := scopes.MapIndex(reflect.ValueOf("main"))
	if !sc.IsValid() {
		return reflect.Value{}
	}
	return field(sc.Elem(), "sym")
}

// field is the unexported field name of the addressable struct v, made settable.
func field(v reflect.Value, name string) reflect.Value {
	f := v.FieldByName(name)
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem()
}

// scopeSnapshot is a copy of the package scope's names.
type scopeSnapshot struct{ sym reflect.Value }

// snapshot copies the names of package main.
func (s *Session) snapshot() scopeSnapshot {
	sym := s.mainScope()
	if !sym.IsValid() {
		return scopeSnapshot{}
	}
	cp := reflect.MakeMapWithSize(sym.Type(), sym.Len())
	for it := sym.MapRange(); it.Next(); {
		cp.SetMapIndex(it.Key(), it.Value())
	}
	return scopeSnapshot{sym: cp}
}

// restore puts back the names of a snapshot: what a failed cell declared is gone, what it
// forgot is back.
func (s *Session) restore(snap scopeSnapshot) {
	sym := s.mainScope()
	if !sym.IsValid() || !snap.sym.IsValid() {
		return
	}
	sym.Clear()
	for it := snap.sym.MapRange(); it.Next(); {
		sym.SetMapIndex(it.Key(), it.Value())
	}
}

// forget removes names from package main, so that declaring them again makes new ones.
func (s *Session) forget(names ...string) {
	sym := s.mainScope()
	if !sym.IsValid() {
		return
	}
	for _, n := range names {
		sym.SetMapIndex(reflect.ValueOf(n), reflect.Value{})
	}
}

// dropCompiled lets go of what yaegi v0.16.1 keeps of every cell it compiled for its debugger
// alone, which the kernel does not use: the syntax tree of each compile (Interpreter.roots)
// and the scopes each one opened under the package scope (scope.child). Without it a session
// grows by about 8 KB for every cell, however small (BenchmarkExecuteManyVariables). What later
// cells use of a cell — its functions, types and variables — stays reachable through the
// package scope's names.
func (s *Session) dropCompiled() {
	in := reflect.ValueOf(s.in).Elem()
	field(in, "roots").SetZero()
	scopes := field(in, "scopes")
	for it := scopes.MapRange(); it.Next(); {
		field(it.Value().Elem(), "child").SetZero()
	}
	field(field(in, "universe").Elem(), "child").SetZero()
}

// importOnly makes the source package at path (one of sourcePackages, compiled from a string)
// reachable only through an import, as any package is. yaegi v0.16.1 puts a package it
// compiles from a string in its universe scope, where the name (cmp) wins over every file's
// imports: a module package named cmp (github.com/google/go-cmp/cmp), imported under its own
// name, was the kernel's cmp instead. The kernel takes the name out of the universe, and the
// standard library's empty table for path out of the compiled packages (its functions are all
// generic, which tables cannot hold), so that `import "cmp"` finds the source package.
func (s *Session) importOnly(path string) {
	in := reflect.ValueOf(s.in).Elem()
	field(field(in, "universe").Elem(), "sym").SetMapIndex(reflect.ValueOf(path), reflect.Value{})
	field(in, "binPkg").SetMapIndex(reflect.ValueOf(path), reflect.Value{})
}
