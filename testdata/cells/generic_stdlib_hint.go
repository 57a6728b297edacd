// The standard library's generic functions and types are not in the interpreter: the check gives
// Go's own `undefined: cmp.Compare`, then says the name is generic. An undefined name that is not
// generic keeps Go's message alone.
import "cmp"
// ---
cmp.Compare(1, 2)
// ---
cmp.Nothing(1, 2)
// ---
import "fmt"
fmt.Printx(1)
// ---
func compare(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
compare(1, 2)
// Output:
// Error: CompileError: cell:1:5: undefined: cmp.Compare (Compare is generic: the interpreter cannot run the standard library's generic functions; write it for your types)
// Error: CompileError: cell:1:5: undefined: cmp.Nothing
// Error: CompileError: cell:2:5: undefined: fmt.Printx
// Out: -1
