package session

import (
	"go/ast"
	"go/types"
	"sync"
)

// A cell's types seen by a module's reflection: yaegi v0.16.1 builds a cell's types as reflect
// types without names (a struct is reflect.StructOf of its fields, a named number its number)
// and without methods, with its unexported fields exported (n becomes Xn). A compiled package
// that reads them by reflection is refused by name where it would print or decide wrongly
// (records.go, printing.go); a module package is interpreted from source the kernel reads, so
// it is refused when its source (or a module package it imports) reads types by reflection —
// a reflect.Type's or reflect.Value's name, package path, String, methods or fields — and a cell
// hands it a value whose type mentions a cell's type. go-cmp's Diff printed
// `struct{ SSID string; … }{` where Go prints `cmp_test.Gateway{`, and its Equal did not call
// the Equal method of a cell's type.

// reflectionReads are the methods of reflect's types (reflect.Type's and reflect.Value's among
// them) whose answers differ for a cell's type: its name, package, methods and fields.
var reflectionReads = map[string]bool{
	"Name": true, "PkgPath": true, "String": true,
	"Method": true, "MethodByName": true, "NumMethod": true, "Implements": true,
	"Field": true, "FieldByName": true, "FieldByIndex": true, "FieldByNameFunc": true, "NumField": true,
}

// moduleReadsTypes maps a module package's import path to whether it, or a module package it
// imports, reads types by reflection (noteModuleReflection).
var moduleReadsTypes sync.Map

// noteModuleReflection records whether the module package at path (its files as checked) reads
// types by reflection: a use of one of reflectionReads, a method of reflect's, or
// an import of a module package that does. Imports are checked before the packages importing
// them, so theirs are known.
func noteModuleReflection(path string, files []*ast.File, info *types.Info) {
	reads := false
	for _, f := range files {
		for _, sp := range f.Imports {
			if v, ok := moduleReadsTypes.Load(importPath(sp)); ok && v.(bool) {
				reads = true
			}
		}
	}
	for _, obj := range info.Uses {
		if reads {
			break
		}
		fn, ok := obj.(*types.Func)
		if !ok || fn.Pkg() == nil || fn.Pkg().Path() != "reflect" || !reflectionReads[fn.Name()] {
			continue
		}
		// A method of reflect's (the kernel's importer builds reflect.Type's methods with
		// the interface itself as receiver, so the receiver is not named Type).
		if fn.Type().(*types.Signature).Recv() != nil {
			reads = true
		}
	}
	moduleReadsTypes.Store(path, reads)
}

// importPath is the path an import spec names, "" when it does not parse.
func importPath(sp *ast.ImportSpec) string {
	s := sp.Path.Value
	if len(s) >= 2 {
		return s[1 : len(s)-1]
	}
	return ""
}

// reflectedCellType finds a call of a function or method of a module package that reads types
// by reflection with an argument whose type mentions a cell's type (a struct, a named number,
// anything a cell declares; through pointers, slices, arrays, maps, channels, struct fields and
// function signatures): the function's name and the argument's type, "" when there is none.
func (c *cellCtx) reflectedCellType(call *ast.CallExpr) (fn, typ string) {
	f := c.callee(call)
	if f == nil || f.Pkg() == nil || f.Pkg().Path() == "main" {
		return "", ""
	}
	if v, ok := moduleReadsTypes.Load(f.Pkg().Path()); !ok || !v.(bool) {
		return "", ""
	}
	for _, a := range call.Args {
		t := c.typeOf(a)
		if t != nil && mentionsCellTypeDeep(t) {
			return funcName(f), types.TypeString(t, cellQualifier)
		}
	}
	return "", ""
}

// mentionsCellTypeDeep reports whether t is or holds a type a cell declares, as mentionsCellType
// does, and in channels and function signatures too.
func mentionsCellTypeDeep(t types.Type) bool {
	seen := map[types.Type]bool{}
	var walk func(types.Type) bool
	walk = func(t types.Type) bool {
		t = types.Unalias(t)
		if seen[t] {
			return false
		}
		seen[t] = true
		switch u := t.(type) {
		case *types.Named:
			if u.Obj().Pkg() != nil && u.Obj().Pkg().Path() == "main" {
				return true
			}
			for i := range u.TypeArgs().Len() {
				if walk(u.TypeArgs().At(i)) {
					return true
				}
			}
		case *types.Pointer:
			return walk(u.Elem())
		case *types.Slice:
			return walk(u.Elem())
		case *types.Array:
			return walk(u.Elem())
		case *types.Chan:
			return walk(u.Elem())
		case *types.Map:
			return walk(u.Key()) || walk(u.Elem())
		case *types.Struct:
			for i := range u.NumFields() {
				if walk(u.Field(i).Type()) {
					return true
				}
			}
		case *types.Signature:
			for _, tup := range []*types.Tuple{u.Params(), u.Results()} {
				for i := range tup.Len() {
					if walk(tup.At(i).Type()) {
						return true
					}
				}
			}
		}
		return false
	}
	return walk(t)
}
