package session

import "github.com/traefik/yaegi/interp"

// errGoexit is the error of a cell whose goroutine ended without returning or panicking:
// runtime.Goexit, or testing.T's FailNow or SkipNow, in the cell or in what it called. The cell
// did not reach its end, so it did not succeed: a check cell that ended so must not pass.
var errGoexit = interp.Panic{Value: &CellError{Name: "Goexit", Value: goexitText, Traceback: []string{"Goexit: " + goexitText}}}

const goexitText = "the cell ended before its last statement: runtime.Goexit (or a testing.T's FailNow or SkipNow) ended its goroutine"
