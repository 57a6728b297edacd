// fmt calls a value's String or Error method on an argument, and on each element, map entry and
// exported field inside it. The interpreter gives fmt the methods of an argument only: the other
// cases are refused, with what to write instead, rather than printed without their methods.
import "fmt"
type State int
func (s State) String() string { return [...]string{"idle", "busy"}[s] }
type Job struct {
	Name  string
	State State
}
s := State(1)
fmt.Println(s, Job{"build", 0}.State)
fmt.Printf("%v %s %q %x|%6v|\n", s, s, s, s, s)
var any1 any = s
fmt.Println(any1)
// ---
fmt.Println([]State{0, 1})
// ---
fmt.Println(Job{"build", 1})
// ---
fmt.Printf("%d\n", s)
// ---
fmt.Printf("%d\n", int(s))
// ---
// A value the interpreter keeps as an internal record inside another value is refused when
// printed, wherever it came from.
type Shape interface{ Area() int }
type Sq struct{ side int }
func (q Sq) Area() int { return q.side * q.side }
shapes := []Shape{Sq{1}, Sq{2}}
for _, x := range shapes {
	fmt.Println(x, x.Area())
}
fmt.Println(shapes)
// Output:
// busy idle
// busy busy "busy" 62757379|  busy|
// busy
// Error: Unsupported: cell:1:1: fmt.Println of []State (its State values), whose String method Go's fmt calls (the interpreter hides a cell type's methods from fmt inside slices, arrays, maps and fields) is not supported by the interpreter (yaegi v0.16.1); print the values one by one, or call String() yourself
// Error: Unsupported: cell:1:1: fmt.Println of Job (its State values), whose String method Go's fmt calls (the interpreter hides a cell type's methods from fmt inside slices, arrays, maps and fields) is not supported by the interpreter (yaegi v0.16.1); print the values one by one, or call String() yourself
// Error: Unsupported: cell:1:1: %d of State, a cell's type with the method String (the interpreter hands fmt a wrapper, and %d would print the wrapper's fields) is not supported by the interpreter (yaegi v0.16.1); convert to the underlying type, e.g. int(v)
// 1
// {1} 1
// {2} 4
// Error: Unsupported: cell: fmt.Println of a value holding a cell's type with methods in an interface (an any or interface-typed variable, element, map entry or field: the interpreter keeps such a value as an internal record, and fmt.Println would print the record, not the value) is not supported by the interpreter (yaegi v0.16.1); print such values one by one, each by its own variable
