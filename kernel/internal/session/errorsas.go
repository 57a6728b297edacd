package session

import "reflect"

// errorsAs is errors.As for cells: it also finds an error of a type declared in a cell. Such an
// error reaches compiled code inside yaegi's interface wrapper (a struct whose first field,
// IValue, holds the interpreted value), which the standard errors.As cannot see through.
func errorsAs(err error, target any) bool {
	if target == nil {
		panic("errors: target cannot be nil")
	}
	tv := reflect.ValueOf(target)
	if tv.Kind() != reflect.Pointer || tv.IsNil() {
		panic("errors: target must be a non-nil pointer")
	}
	want := tv.Type().Elem()
	return asChain(err, target, tv.Elem(), want)
}

func asChain(err error, target any, dst reflect.Value, want reflect.Type) bool {
	for err != nil {
		v := reflect.ValueOf(err)
		for _, cand := range []reflect.Value{v, unwrapInterp(v)} {
			if cand.IsValid() && cand.Type().AssignableTo(want) {
				dst.Set(cand)
				return true
			}
		}
		if x, ok := err.(interface{ As(any) bool }); ok && x.As(target) {
			return true
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if asChain(e, target, dst, want) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}

// unwrapInterp returns the interpreted value inside a yaegi interface wrapper, if v is one.
func unwrapInterp(v reflect.Value) reflect.Value {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return reflect.Value{}
		}
		v = v.Elem()
	}
	if v.Kind() == reflect.Struct && v.NumField() > 0 && v.Type().Field(0).Name == "IValue" {
		return v.Field(0).Elem()
	}
	return reflect.Value{}
}
