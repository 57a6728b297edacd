// A whole program pasted into one cell runs: the package clause is dropped, func main runs
// once. A second pasted program that declares main and the same type again runs too. A cell
// with `package foo` and declarations declares them in the session's one package.
package main

import "fmt"

type point struct{ x, y int }

func main() {
	fmt.Println("hello world", point{1, 2})
}
// ---
package main

import (
	"fmt"
	"strings"
)

type point struct {
	x, y int
	name string
}

func main() {
	p := point{3, 4, "p"}
	fmt.Println(strings.ToUpper(p.name), p.x+p.y)
}
// ---
package geometry

func area(w, h int) int { return w * h }
// ---
area(3, 4)
// Output:
// hello world {1 2}
// P 7
// Out: 12
