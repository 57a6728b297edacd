// A global initialized by a generic call: yaegi cannot type it, so the kernel writes the type
// the check found (var m int; m = slices.Max(xs)). Declared first and then assigned, or inside a
// function, the same call works too.
import ("fmt"; "slices")
xs := []int{3, 1, 2}
// ---
m := slices.Max(xs)
m
// ---
var m2 = slices.Min(xs)
m2
// ---
var m3 int
m3 = slices.Max(xs)
func biggest(v []int) int { b := max(v[0], v[1]); return b }
fmt.Println(m, m3, biggest(xs), min(4, 2))
// Output:
// Out: 3
// Out: 1
// 3 3 3 2
