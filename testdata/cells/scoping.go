// Names resolve by Go's scoping: a parameter that shadows a top-level function is the
// parameter; a struct with an interface field is a struct; a one-line interface is an interface.
import "fmt"
func headers() {}
// ---
func show(headers []string) {
	for _, h := range headers {
		fmt.Println(h)
	}
}
show([]string{"Accept", "Host"})
// ---
type holder struct{ w fmt.Stringer }
type named interface{ Name() string }
type dog struct{}
func (dog) Name() string { return "rex" }
func (dog) String() string { return "dog" }
var a any = holder{dog{}}
h, ok := a.(holder)
var n named = dog{}
fmt.Println(h.w, ok, n.Name())
// Output:
// Accept
// Host
// dog true rex
