package widget

import "github.com/gptnotes/gptnotes/kernel/display"

// Interact shows controls above an Output and calls f with their values, once now and again on
// every change, its output replacing the last. Values come in the order of controls, each the
// control's "value" (an int for IntSlider and Play, a float64 for FloatSlider, a string for a
// Selection or Text, a bool for Checkbox; nil for a control without a value, like a Button, whose
// click also re-runs f). Changes that queue up while f runs are coalesced: f sees only the newest.
//
//	t := widget.NewFloatSlider("T", 0, 2, 0.1, 1)
//	k := widget.NewIntSlider("top-k", 1, 50, 10)
//	widget.Interact(func(v []any) { fmt.Println(v[0].(float64), v[1].(int)) }, t, k)
func Interact(f func(values []any), controls ...Widget) *Box {
	out := NewOutput()
	call := func() {
		values := make([]any, len(controls))
		for i, c := range controls {
			values[i] = c.model().Get("value")
			if s, ok := c.(*Selection); ok {
				values[i] = s.Value()
			}
		}
		out.Capture(func() {
			display.ClearOutput(true)
			f(values)
		})
	}
	for _, c := range controls {
		if b, ok := c.(*Button); ok {
			b.OnClick(call)
			continue
		}
		key := "value"
		if s, ok := c.(*Selection); ok {
			key = s.key
		}
		c.model().Observe(key, func(Change) { call() })
	}
	call()
	return NewVBox(append(append([]Widget{}, controls...), out)...)
}
