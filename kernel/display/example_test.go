package display_test

import (
	"fmt"
	"strconv"

	"github.com/gptnotes/gptnotes/kernel/display"
)

// A library type renders as HTML by having an HTML method; it never imports display.
type Score float64

func (s Score) HTML() string { return fmt.Sprintf("<meter value=%.2f></meter>", float64(s)) }

func ExampleRender() {
	b := display.Render(Score(0.75))
	fmt.Println(b.Data["text/html"])
	fmt.Println(b.Data["text/plain"])
	// Output:
	// <meter value=0.75></meter>
	// 0.75
}

// printer is a Publisher that prints what a cell would show.
type printer struct{}

func (printer) Display(b display.Bundle, id string, update bool) {
	fmt.Printf("update=%v %s\n", update, b.Data["text/html"])
}
func (printer) ClearOutput(wait bool) { fmt.Println("clear") }

func ExampleHandle() {
	display.SetPublisher(printer{})
	defer display.SetPublisher(nil)
	h := display.New()
	for i := 1; i <= 3; i++ {
		h.Update(display.HTMLString(fmt.Sprintf("<progress value=%d max=3></progress>", i)))
	}
	// Output:
	// update=false <progress value=1 max=3></progress>
	// update=true <progress value=2 max=3></progress>
	// update=true <progress value=3 max=3></progress>
}

func ExampleCheck() {
	defer func() { fmt.Println("stopped:", recover()) }()
	display.Check(nil) // nothing happens
	_, err := strconv.Atoi("twelve")
	display.Check(err)
	fmt.Println("not reached")
	// Output:
	// stopped: strconv.Atoi: parsing "twelve": invalid syntax
}
