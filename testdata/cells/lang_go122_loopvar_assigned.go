// Per-iteration loop variables (Go 1.22) beyond plain closures: a body that takes the variable's
// address and changes it hands each iteration's copy back to the loop; a deferred function
// literal gets its iteration's variables, and its arguments; a literal called where it stands
// sees the changes. Refused, rather than shown another value: changing a variable after a
// literal of the loop reads it.
import "fmt"

func addresses() {
	var ps []*int
	for i := 0; i < 3; i++ {
		ps = append(ps, &i)
		*ps[len(ps)-1] *= 1
	}
	for _, p := range ps {
		fmt.Print(*p, " ")
	}
	fmt.Println()
}
addresses()
// ---
func deferred() {
	for i := 0; i < 3; i++ {
		defer func() { fmt.Print(i, " ") }()
	}
	for _, s := range []string{"a", "b"} {
		t := s + "!"
		defer func() { fmt.Print(t, " ") }()
	}
}
deferred()
fmt.Println()
// ---
for i := 0; i < 5; i++ {
	fmt.Print(func() int { return i }(), " ")
	i++
}
fmt.Println()
// ---
var fs []func()
for i := 0; i < 6; i++ {
	fs = append(fs, func() { fmt.Print(i, " ") })
	i++
}
// ---
func args() {
	for i := 0; i < 3; i++ {
		defer func(n int) { fmt.Print(n, i, " ") }(i * 10)
	}
}
args()
fmt.Println()
// Output:
// 0 1 2 
// b! a! 2 1 0 
// 0 2 4 
// Error: Unsupported: cell:4:2: changing i after a function literal of its loop reads it (Go 1.22 gives each iteration its own variable; the kernel gives the literal a copy) is not supported by the interpreter (yaegi v0.16.1); change it before the literal is made, or declare what the literal reads outside the loop
// 20 2 10 1 0 0 
