package interp_test

import (
	"fmt"
	"log"

	"github.com/gptnotes/gptnotes/interp"
)

// The shipped model, steered towards errors: the direction "// error" − "// loop" at the
// stream entering block 3, added at half strength to every position, turns a string test
// into error handling.
func ExampleSteer() {
	m, tok := shipped()
	v, err := interp.SteeringVector(m, tok.Encode("// error"), tok.Encode("// loop"), 3)
	if err != nil {
		log.Fatal(err)
	}
	s, err := interp.Steer(m, tok, "func main() {\n", interp.Steering{Layer: 3, Vector: v, Coeff: 0.5}, 16)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(s)
	fmt.Println("differs:", s.Differs())
	// Output:
	// prompt:   "func main() {\n"
	// plain:    "\tif !strings.HasPrefix(os.HasPrefix(os.Args, \""
	// steered:  "\tif err := os.Stat(path)\n\tif err != nil"
	// differs: true
}
