// A switch with an init statement matches its cases when they are constants of a compiled
// package's type (yaegi alone fell to default, with no error): the kernel moves the init
// statement into a block of its own around the switch.
import (
	"fmt"
	"reflect"
)
for _, v := range []any{"hi", 42, func() {}} {
	switch v := reflect.ValueOf(v); v.Kind() {
	case reflect.String:
		fmt.Println(v.String())
	case reflect.Int:
		fmt.Println(v.Int())
	default:
		fmt.Printf("unhandled kind %s\n", v.Kind())
	}
}
// ---
func kind(v any) string {
outer:
	switch w := reflect.ValueOf(v); w.Kind() {
	case reflect.String:
		if w.Len() == 0 {
			break outer
		}
		return "string"
	}
	return "other"
}
fmt.Println(kind("a"), kind(""), kind(1))
// Output:
// hi
// 42
// unhandled kind func
// string other other
