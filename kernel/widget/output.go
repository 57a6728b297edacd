package widget

import (
	"fmt"

	"github.com/gptnotes/gptnotes/kernel/comm"
	"github.com/gptnotes/gptnotes/kernel/display"
)

// An Output shows what code prints and displays inside Capture: a callback redraws a plot in
// place by clearing its Output and displaying the new one.
//
// It works as ipywidgets 6's does: while Capture runs, the model's msg_id is the id of the
// request being served (the cell, or the widget message whose callback runs), and the front end
// puts that request's outputs into the widget instead of the cell.
type Output struct{ *Model }

// NewOutput makes an empty output area.
func NewOutput() *Output {
	m := domWidget(speaking(), "Output", "OutputModel", "OutputView", map[string]any{"msg_id": ""})
	m.describe = func() string { return "Output widget (shows what its callbacks print, in a notebook with widgets)" }
	if m.has("outputs") {
		// 2.1: the outputs a front end captured (nbclient keeps them so, in a saved notebook).
		m.settable["outputs"] = func(v any) (any, error) {
			if l, ok := v.([]any); ok {
				return l, nil
			}
			return nil, fmt.Errorf("want a list of outputs, got %T", v)
		}
	}
	return &Output{m}
}

// Capture runs f with its output shown in o. A panic in f is printed in o, not raised.
func (o *Output) Capture(f func()) {
	id := comm.ParentMsgID()
	prev, _ := o.Get("msg_id").(string)
	if id == "" || prev == id { // no request to capture, or already capturing it
		run(o.Model, f)
		return
	}
	display.Flush() // what was printed before goes where it was printed
	o.Set("msg_id", id)
	defer func() {
		display.Flush()
		o.Set("msg_id", prev)
	}()
	run(o.Model, f)
}

// Clear clears the output; with wait, only when the next output arrives (no flicker).
func (o *Output) Clear(wait bool) {
	o.Capture(func() { display.ClearOutput(wait) })
}

// Display shows v in the output, rendered as display.Display renders it.
func (o *Output) Display(v any) {
	o.Capture(func() { display.Display(v) })
}
