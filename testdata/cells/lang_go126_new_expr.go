// new(expr) (Go 1.26): a pointer to a new variable holding expr. The kernel writes it as
// func() *T { var v T = expr; return &v }() with T the checked type of expr; new(T) is unchanged,
// and a cell's own func new is called as declared.
import ("fmt"; "time")

p := new(42)
fmt.Println(*p)
x := 3
q := new(x + 1)
*q++
fmt.Println(*q, x, *new("s"))
// ---
type point struct{ X, Y int }
pt := new(point{1, 2})
pt.X = 9
fmt.Println(*pt, *new(point))
// ---
type pair[T any] struct{ a, b T }
func ptr[T any](v T) *T { return new(v) }
fmt.Println(*new(pair[int]{1, 2}), *ptr(2.5), *new(time.Second), *new('a'))
// ---
*new(len("abc"))
// ---
import "encoding/json"
r := new(json.NewDecoder(nil).Buffered())
// ---
func new(n int) int { return n + 1 }
fmt.Println(new(41))
// Output:
// 42
// 5 3 s
// {9 2} {0 0}
// {1 2} 2.5 1s 97
// Out: 3
// Error: Unsupported: cell:2:6: new(expr) with expr of type io.Reader, which this cell cannot write (a package it does not import, or an unexported type; the kernel writes Go 1.26's new(expr) with the type of expr), is not supported by the interpreter (yaegi v0.16.1); import the package, or write v := expr; p := &v
// 42
// stderr: note: func ptr no longer compiles with this cell's declarations (cannot use v (variable of type T constrained by any) as int value in argument to new), and is gone; fix it and run its cell again
