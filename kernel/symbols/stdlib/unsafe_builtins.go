package stdlib

// What package unsafe needs beyond its generated table (unsafe.go: the Pointer type), as in
// yaegi's stdlib/unsafe (v0.16.1, Apache License 2.0): the builtins Add, Sizeof, Alignof and
// Offsetof as functions (and String and StringData, which yaegi's lacks) (yaegi's compiler handles Sizeof, Alignof and Offsetof itself; the table
// gives their signatures), and the hook that converts unsafe.Pointer to and from uintptr and
// other pointers. This file's name sorts after unsafe.go: its init must run after that file's,
// which makes the "unsafe/unsafe" table.

import (
	"reflect"
	"unsafe"
)

func init() {
	// yaegi's hooks ("github.com/traefik/yaegi" is its selfPrefix): conversions the
	// interpreter cannot do through reflect.
	Symbols["github.com/traefik/yaegi/yaegi"] = map[string]reflect.Value{
		"convert": reflect.ValueOf(convert),
	}
	u := Symbols["unsafe/unsafe"]
	u["Add"] = reflect.ValueOf(add)
	u["Sizeof"] = reflect.ValueOf(sizeof)
	u["Alignof"] = reflect.ValueOf(alignof)
	u["Offsetof"] = reflect.ValueOf(func(any) uintptr { return 0 }) // for its signature only
	// Go 1.20's String and StringData, not in yaegi's. (Slice and SliceData are generic: no
	// function can stand for them.)
	u["String"] = reflect.ValueOf(func(ptr *byte, n any) string { return unsafe.String(ptr, length(n)) })
	u["StringData"] = reflect.ValueOf(func(s string) *byte { return unsafe.StringData(s) })
}

func convert(from, to reflect.Type) func(src, dest reflect.Value) {
	switch {
	case to.Kind() == reflect.UnsafePointer && from.Kind() == reflect.Uintptr:
		return uintptrToUnsafePtr
	case to.Kind() == reflect.UnsafePointer:
		return func(src, dest reflect.Value) {
			dest.SetPointer(unsafe.Pointer(src.Pointer()))
		}
	case to.Kind() == reflect.Uintptr && from.Kind() == reflect.UnsafePointer:
		return func(src, dest reflect.Value) {
			ptr := src.Interface().(unsafe.Pointer)
			dest.Set(reflect.ValueOf(uintptr(ptr)))
		}
	case from.Kind() == reflect.UnsafePointer:
		return func(src, dest reflect.Value) {
			ptr := src.Interface().(unsafe.Pointer)
			v := reflect.NewAt(dest.Type().Elem(), ptr)
			dest.Set(v)
		}
	default:
		return nil
	}
}

// add is unsafe.Add. Its length, like String's, is any integer (the cell was type-checked with
// Go's package unsafe): an any the function converts.
func add(ptr unsafe.Pointer, n any) unsafe.Pointer { return unsafe.Add(ptr, length(n)) }

// length is the integer n as an int.
func length(n any) int {
	v := reflect.ValueOf(n)
	if v.CanUint() {
		return int(v.Uint())
	}
	return int(v.Int())
}

func sizeof(i any) uintptr { return reflect.ValueOf(i).Type().Size() }

func alignof(i any) uintptr { return uintptr(reflect.ValueOf(i).Type().Align()) }

//go:nocheckptr
func uintptrToUnsafePtr(src, dest reflect.Value) {
	u := uintptr(src.Uint())
	dest.SetPointer(*(*unsafe.Pointer)(unsafe.Pointer(&u))) // unsafe.Pointer(u), which vet flags
}
