// The standard library's generic functions and types that the kernel does not carry (slices, maps,
// cmp and errors.AsType it does) are not in the interpreter: the check gives Go's own
// `undefined: sync.OnceValue`, then says the name is generic. An undefined name that is not
// generic keeps Go's message alone.
import "sync"
// ---
sync.OnceValue(func() int { return 1 })
// ---
sync.Nothing(1, 2)
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
// Error: CompileError: cell:1:6: undefined: sync.OnceValue (OnceValue is generic: the interpreter cannot run the standard library's generic functions; write it for your types)
// Error: CompileError: cell:1:6: undefined: sync.Nothing
// Error: CompileError: cell:2:5: undefined: fmt.Printx
// Out: -1
