// Generic type aliases (Go 1.24) are refused, with the way around them; an alias without type
// parameters works.
type Set[T comparable] = map[T]bool
// ---
type IntSet = map[int]bool
s := IntSet{1: true}
s[1]
// Output:
// Error: Unsupported: cell:3:6: a generic type alias (Set, Go 1.24) is not supported by the interpreter (yaegi v0.16.1); declare a defined type: the same declaration without the = (type Set[…] …), or write the aliased type out
// Out: true
