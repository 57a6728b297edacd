// Package maps works in cells: the kernel runs its own copy with the standard library's
// signatures and writes out every call's type arguments, which yaegi v0.16.1 cannot infer. Clone
// keeps the map's own type. The iterator functions are refused, with what to write instead.
import (
	"fmt"
	"maps"
	"strings"
)
type Stock map[string]int
func (s Stock) Total() int {
	t := 0
	for _, n := range s {
		t += n
	}
	return t
}
m := map[string]int{"a": 1, "b": 2}
n := maps.Clone(m)
n["c"] = 3
fmt.Println(m, n, maps.Equal(m, n))
maps.Copy(m, n)
maps.DeleteFunc(m, func(k string, v int) bool { return v > 1 })
fmt.Println(m)
upper := map[int]string{1: "A"}
lower := map[int]string{1: "a"}
fmt.Println(maps.EqualFunc(upper, lower, strings.EqualFold))
s := maps.Clone(Stock{"x": 4, "y": 5})
fmt.Println(s.Total(), maps.Clone[map[string]int](nil) == nil)
// ---
keys := maps.Keys(m)
// Output:
// map[a:1 b:2] map[a:1 b:2 c:3] false
// map[a:1]
// true
// 9 true
// Error: Unsupported: cell:1:9: maps.Keys (it returns an iterator, Go 1.23) is not supported by the interpreter (yaegi v0.16.1); range over the map or slice directly
