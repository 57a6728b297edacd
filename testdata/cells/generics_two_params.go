// Generic functions with one type parameter or several run, judged by their output: the kernel
// writes each call's inferred type arguments out (yaegi alone inferred them wrongly), so
// constraints with ~, a multi-value call as the argument (Must(strconv.Atoi("7"))), functions
// returning generic closures and named slice types all give Go's answer.
import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)
func double[T int | float64](x T) T { return 2 * x }
fmt.Println(double(21), double(1.25))
// ---
func SlicesIndex[S ~[]E, E comparable](s S, v E) int {
	for i := range s {
		if v == s[i] {
			return i
		}
	}
	return -1
}
func Map[T, U any](s []T, f func(T) U) []U {
	r := make([]U, 0, len(s))
	for _, v := range s {
		r = append(r, f(v))
	}
	return r
}
fmt.Println(SlicesIndex([]string{"a", "b"}, "b"), SlicesIndex([]int{1, 2, 3}, 5))
fmt.Println(Map([]int{1, 2}, strconv.Itoa), Map([]string{"a", "bb"}, func(s string) int { return len(s) }))
// ---
func Must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
Must(strconv.Atoi("7")) + 1
// ---
type Number interface{ ~int | ~float64 }
type myInt int
func SumMap[K comparable, V Number](m map[K]V) V {
	var s V
	for _, v := range m {
		s += v
	}
	return s
}
func Reduce[T, A any](s []T, init A, f func(A, T) A) A {
	acc := init
	for _, v := range s {
		acc = f(acc, v)
	}
	return acc
}
fmt.Println(SumMap(map[string]int{"a": 1, "b": 2}), SumMap(map[int]float64{1: 1.5, 2: 2.5}), SumMap(map[string]myInt{"x": 4}))
fmt.Println(Reduce([]string{"a", "b"}, "", func(a string, s string) string { return a + strings.ToUpper(s) }),
	Reduce([]int{1, 2, 3}, 0.5, func(a float64, v int) float64 { return a + float64(v) }))
// ---
func Compose[A, B, C any](f func(A) B, g func(B) C) func(A) C {
	return func(a A) C { return g(f(a)) }
}
h := Compose(func(i int) string { return fmt.Sprint(i * 2) }, func(s string) int { return len(s) })
fmt.Println(h(50), h(5))
// ---
func SortedKeys[K interface{ ~int | ~string }, V any](m map[K]V) []K {
	ks := make([]K, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return ks[i] < ks[j] })
	return ks
}
func Filter[S ~[]E, E any](s S, keep func(E) bool) S {
	var r S
	for _, v := range s {
		if keep(v) {
			r = append(r, v)
		}
	}
	return r
}
type names []string
ns := Filter(names{"ann", "bob", "al"}, func(s string) bool { return s[0] == 'a' })
fmt.Println(SortedKeys(map[string]bool{"b": true, "a": false}), SortedKeys(map[int]string{3: "", 1: ""}))
fmt.Printf("%v %d %T\n", ns, len(ns), []string(ns))
// Output:
// 42 2.5
// 1 -1
// [1 2] [1 2]
// Out: 8
// 3 4 4
// AB 6.5
// 3 2
// [a b] [1 3]
// [ann al] 2 []string
