// A function literal made in a loop and handed to compiled code sees its own iteration's
// variables, as in Go: wg.Go, a goroutine running a compiled callback, time.AfterFunc,
// sort.Slice, http.HandlerFunc, slices.SortFunc, a callback a plugin keeps (comm.Register),
// with `j := i` in the body too, in a function and at the top of a cell.
import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/gptnotes/gptnotes/kernel/comm"
)
var mu sync.Mutex
var got []int
func add(v int) { mu.Lock(); got = append(got, v); mu.Unlock() }
func result() []int { mu.Lock(); defer mu.Unlock(); r := slices.Clone(got); sort.Ints(r); got = nil; return r }
// ---
func viaWaitGroup() []int {
	var wg sync.WaitGroup
	for i := 1; i <= 3; i++ {
		wg.Go(func() { add(i) })
	}
	wg.Wait()
	return result()
}
viaWaitGroup()
// ---
var wg sync.WaitGroup
for i := 1; i <= 3; i++ {
	j := i * 10
	wg.Go(func() { add(j) })
}
wg.Wait()
result()
// ---
for i := 1; i <= 3; i++ {
	f := func() { add(i) }
	wg.Add(1)
	go func() { defer wg.Done(); time.AfterFunc(0, f) }()
}
wg.Wait()
time.Sleep(100 * time.Millisecond)
result()
// ---
for i := 1; i <= 3; i++ {
	time.AfterFunc(time.Millisecond, func() { add(i) })
}
time.Sleep(100 * time.Millisecond)
result()
// ---
var sorters []func([]int)
for k := 0; k < 2; k++ {
	sorters = append(sorters, func(xs []int) { sort.Slice(xs, func(a, b int) bool { return (xs[a] < xs[b]) == (k == 0) }) })
}
up, down := []int{2, 3, 1}, []int{2, 3, 1}
sorters[0](up)
sorters[1](down)
fmt.Println(up, down)
// ---
var handlers []http.HandlerFunc
for i := 1; i <= 3; i++ {
	handlers = append(handlers, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, i) }))
}
for _, h := range handlers {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/", nil))
	fmt.Print(rec.Body.String(), " ")
}
fmt.Println()
// ---
var cmps []func(a, b int) int
for sign := -1; sign <= 1; sign += 2 {
	cmps = append(cmps, func(a, b int) int { return sign * (a - b) })
}
xs := []int{2, 3, 1}
slices.SortFunc(xs, cmps[0])
fmt.Print(xs, " ")
slices.SortFunc(xs, cmps[1])
fmt.Println(xs)
// ---
for i := 1; i <= 3; i++ {
	comm.Register(fmt.Sprint("target", i), func(c *comm.Comm, data map[string]any) { add(i) })
}
for i := 1; i <= 3; i++ {
	comm.HandleOpen(fmt.Sprint("id", i), fmt.Sprint("target", i), nil)
}
result()
// Output:
// Out: [1 2 3]
// Out: [10 20 30]
// Out: [1 2 3]
// Out: [1 2 3]
// [1 2 3] [3 2 1]
// 1 2 3 
// [3 2 1] [1 2 3]
// Out: [1 2 3]
