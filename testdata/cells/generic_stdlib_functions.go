// The standard library's generic functions that a cell reaches for run in the kernel: package cmp
// is the kernel's source copy (cmp.Compare, cmp.Less, cmp.Or, the Ordered constraint), and
// errors.AsType (Go 1.26) runs through the kernel's errors.As.
import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"slices"
)
type item struct {
	name  string
	price float64
}
items := []item{{"b", 2}, {"a", 2}, {"c", 1}}
slices.SortFunc(items, func(x, y item) int {
	return cmp.Or(cmp.Compare(x.price, y.price), cmp.Compare(x.name, y.name))
})
fmt.Println(items)
func biggest[T cmp.Ordered](xs ...T) T {
	m := xs[0]
	for _, x := range xs {
		if cmp.Less(m, x) {
			m = x
		}
	}
	return m
}
fmt.Println(biggest(3, 9, 4), biggest("x", "yz"), cmp.Compare(math.NaN(), 0))
// ---
type notFound struct{ name string }
func (e *notFound) Error() string { return e.name + " not found" }
_, err := os.Open("/no/such/file")
if pe, ok := errors.AsType[*fs.PathError](err); ok {
	fmt.Println("path error at", pe.Path)
}
nf, ok := errors.AsType[*notFound](fmt.Errorf("load: %w", &notFound{"vocab"}))
fmt.Println(nf.name, ok)
// Output:
// [{c 1} {a 2} {b 2}]
// 9 yz -1
// path error at /no/such/file
// vocab true
