package session_test

import (
	"context"
	"fmt"

	"github.com/gptnotes/gptnotes/kernel/display"
	"github.com/gptnotes/gptnotes/kernel/internal/session"
)

// printSink prints what a cell streams and the text of what it displays.
type printSink struct{}

func (printSink) Stream(name, text string) { fmt.Printf("[%s] %s", name, text) }
func (printSink) Display(b display.Bundle, id string, update bool) {
	fmt.Println("[display]", b.Data[display.MIMEPlain])
}
func (printSink) ClearOutput(wait bool) {}

func ExampleSession_Execute() {
	s, err := session.New()
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	// Declarations and statements mix; the trailing expression is the result; Go 1.22's range
	// over an int works although the interpreter lacks it.
	result, err := s.Execute(ctx, `
import "fmt"
func square(x int) int { return x * x }
sum := 0
for i := range 4 {
	sum += square(i)
}
fmt.Println("sum of squares below 4:", sum)
sum * 10`, printSink{})
	fmt.Println(result.Data["text/plain"], err)

	// A failing cell returns one CellError; the session keeps its state.
	_, err = s.Execute(ctx, "sum += undefinedName", printSink{})
	fmt.Println(err)
	result, _ = s.Execute(ctx, "sum", printSink{})
	fmt.Println(result.Data["text/plain"])
	// Output:
	// [stdout] sum of squares below 4: 14
	// 140 <nil>
	// CompileError: cell:1:8: undefined: undefinedName
	// 14
}
