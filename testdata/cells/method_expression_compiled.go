// A method expression on a compiled package's type cannot be rewritten (the kernel does not know
// its signature): the error says to write the function literal.
import "strings"
length := (*strings.Builder).Len
var b strings.Builder
length(&b)
// Output:
// Error: Unsupported: cell:4:11: a method expression T.M on a type of a compiled package is not supported by the interpreter (yaegi v0.16.1); write a function literal: func(t T, args…) { return t.M(args…) }
