// Package widget is the Jupyter widget protocol in Go: sliders, buttons, text boxes, images and
// outputs whose models live in the kernel and whose views live in the notebook, kept in step
// through comms (package comm). It speaks two versions of the protocol from the same cells:
//
//   - 2.1, as ipywidgets 8.1 does (the front end of JupyterLab 4, Notebook 7 and VS Code):
//     modules @jupyter-widgets/controls and base 2.0.0, output 1.0.0; every model's keys and
//     defaults equal ipywidgets 8's schema (testdata/jupyter-widgets-schema-0.5.6, checked by
//     protocol2_test.go);
//   - 1.0, as ipywidgets 6 does (the jupyter-js-widgets ~2.1.4 of Debian's classic notebook);
//     every model's state keys and messages equal those Debian's ipywidgets 6.0 sends
//     (testdata/ipywidgets6, recorded by testdata/record.py; widget_test.go compares them).
//
// The kernel learns which one its front end speaks from the front end's own messages; a widget
// speaks the version of the front end that spoke last, 2.1 before any has (protocol.go says
// the rule), and GPTNOTES_WIDGET_PROTOCOL=1.0 or 2.1 forces one.
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
//	protocol.go   what a protocol version is, and which one a new widget speaks
//	protocol2.go  version 2.1 (ipywidgets 8)
//	protocol1.go  version 1.0 (ipywidgets 6)
//	buffers.go    binary values in a state, sent as buffers
//	targets.go    the comms a front end opens: 1.0's version handshake, 2.1's control comm
//	model.go      a widget model: its state, its comm, updates both ways, observers
//	controls.go   the controls: sliders, selections, checkbox, button, text, play, label, HTML
//	image.go      Image, whose bytes travel as a buffer
//	output.go     Output, which captures what code prints and displays
//	box.go        HBox, VBox and Layout
//	link.go       Link: two widgets' keys kept equal in the front end (jslink, jsdlink)
//	interact.go   Interact: controls and an Output, re-run on every change
//
// The API is non-generic so the interpreter can call it.
package widget
