// The generic functions of package slices that students use come from the kernel's
// one-type-parameter replacement (yaegi cannot run the standard library's).
import ("fmt"; "slices")
xs := []int{3, 1, 2}
slices.Sort(xs)
fmt.Println(xs, slices.Contains(xs, 2), slices.Index(xs, 3), slices.Max(xs), slices.Min(xs))
var ys []int
ys = slices.Clone(xs)
slices.Reverse(ys)
fmt.Println(ys, xs, slices.Equal(xs, []int{1, 2, 3}))
words := []string{"pear", "fig", "apple"}
slices.SortFunc(words, func(a, b string) int { return len(a) - len(b) })
fmt.Println(words)
fmt.Println(slices.BinarySearch(xs, 2))
// Output:
// [1 2 3] true 2 3 1
// [3 2 1] [1 2 3] true
// [fig pear apple]
// 1 true
