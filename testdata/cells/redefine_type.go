// Redefining a type, the most common fix of all: add a field and run the cell again. The new
// definition wins; functions and methods declared earlier with the type are compiled again for
// it; values made with the old definition are gone, and the cell says which by name; an earlier
// function that no longer compiles is gone too, and the cell says why.
import "fmt"
type point struct{ X int }
// ---
func (p point) String() string { return fmt.Sprint("P(", p.X, ")") }
func show(p point) { fmt.Println("show", p) }
func onlyX(p point) int { return p.X }
func twice(p point) { show(p); show(p) }
a := point{1}
n := 5
// ---
type point struct{ X int }
point{1}
// ---
type point struct{ X, Y int }
b := point{1, 2}
fmt.Println(b, onlyX(b))
twice(b)
fmt.Println(n)
// ---
a
// ---
type point struct{ Y int }
// ---
func onlyX(p point) int { return p.Y }
onlyX(point{7})
// Output:
// Out: P(1)
// P(1) 1
// show P(1)
// show P(1)
// 5
// stderr: note: type point declared again; variable a held a value of the old type and is gone (run the cell that made it again)
// Error: CompileError: cell:1:1: undefined: a
// stderr: note: type point declared again; variable b held a value of the old type and is gone (run the cell that made it again)
// stderr: note: func onlyX no longer compiles with this cell's declarations (p.X undefined (type point has no field or method X)), and is gone; fix it and run its cell again
// stderr: note: method point.String no longer compiles with this cell's declarations (p.X undefined (type point has no field or method X)), and is gone; fix it and run its cell again
// Out: 7
