// Compile errors are Go's own, at the cell's coordinates; an import the kernel lacks is named.
// A cell that fails changes nothing: the corrected cell runs as if the first never had.
x := undefinedFunc(1)
// ---
var q nopkg.T
// ---
import "fmt"
func greet() { fmt.Println(nam) }
// ---
import "fmt"
func greet() { fmt.Println("hi") }
greet()
// ---
var n int = "seven"
// ---
import "no/such/package"
// Output:
// Error: CompileError: cell:3:6: undefined: undefinedFunc
// Error: CompileError: cell:1:7: undefined: nopkg
// Error: CompileError: cell:2:28: undefined: nam
// hi
// Error: CompileError: cell:1:13: cannot use "seven" (untyped string constant) as int value in variable declaration
// Error: ImportError: cell:1:8: package "no/such/package" is not available in this kernel: cells import the standard library and the kernel's plugins (kernel/display, gonum.org/v1/plot…, gpt, tokenizer, viz); "Adding your own package" in the README shows how to add one
