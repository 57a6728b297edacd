// Package widget is the Jupyter widget protocol in Go: sliders, buttons, text boxes and outputs
// whose models live in the kernel and whose views live in the notebook, kept in step through
// comms (package comm). It speaks the protocol of ipywidgets 6 (protocol version 1.0, the
// jupyter-js-widgets ~2.1.4 front end of Debian's classic notebook); every model's state keys
// and messages equal those Debian's ipywidgets 6.0 sends (testdata/ipywidgets6, recorded by
// testdata/record.py; widget_test.go compares them).
//
// A cell makes a control, shows it, and hooks Go code to its changes:
//
//	t := widget.NewFloatSlider("temperature", 0, 2, 0.05, 1)
//	out := widget.NewOutput()
//	t.OnChange(func(v float64) {
//		out.Capture(func() { fmt.Printf("T = %.2f\n", v) })
//	})
//	widget.NewVBox(t, out) // the cell's result: the slider above its output
//
// or lets Interact do that wiring:
//
//	widget.Interact(func(v []any) { fmt.Println(v[0]) }, t)
//
// Callbacks run as ipykernel runs them: a message from the front end is a shell request, served
// in order between cells (never while a cell runs), with its output captured like a cell's and
// the interrupt button stopping it. A callback that panics prints the panic (into the Output
// that captures it) and the widget keeps working. Changes of one control that queue up while a
// callback runs are coalesced: only the newest value is computed.
//
// Files, in reading order:
//
//	protocol.go  the wire format of one protocol version (1.0 today; 2.x can join behind it)
//	model.go     a widget model: its state, its comm, updates both ways, observers
//	controls.go  the controls: sliders, selections, checkbox, button, text, play, label, HTML
//	output.go    Output, which captures what code prints and displays
//	box.go       HBox, VBox and Layout
//	interact.go  Interact: controls and an Output, re-run on every change
//
// The API is non-generic so the interpreter can call it.
package widget
