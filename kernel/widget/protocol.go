package widget

import (
	"fmt"
	"os"
	"sync"

	"github.com/gptnotes/gptnotes/kernel/comm"
)

// A protocol is one version of the widget protocol's wire format: the keys a model's state
// carries besides its control's own, and how messages are shaped. Two are spoken: 1.0
// (ipywidgets 6, the classic notebook's jupyter-js-widgets 2.1; protocol1.go) and 2.1
// (ipywidgets 8, the front end of JupyterLab 4, Notebook 7 and VS Code; protocol2.go).
type protocol interface {
	// name is the version, "1.0" or "2.1".
	name() string
	// base returns the keys every model of modelName/viewName carries in this version, with
	// the defaults of the keys this version adds to the control's own.
	base(modelName, viewName string) map[string]any
	// style returns the style model a control of modelName has, and its state ("": none).
	style(modelName string) (styleModel string, state map[string]any)
	// layoutKeys are the CSS properties of a LayoutModel.
	layoutKeys() []string
	// open returns the comm_open's data, metadata and buffers for a model's full state.
	open(state map[string]any) (data, metadata map[string]any, buffers [][]byte)
	// update returns the comm_msg that sets keys of state in the front end.
	update(state map[string]any) (map[string]any, [][]byte)
	// echo returns the comm_msg that tells every front end of a change one of them made
	// (nil: this version has none).
	echo(state map[string]any) (map[string]any, [][]byte)
	// display returns the comm_msg data sent before a view is shown (nil: none).
	display() map[string]any
	// view returns the MIME bundle entries that show model id's view.
	view(id string) map[string]any
	// decode reads a message from the front end, with its binary buffers.
	decode(data map[string]any, buffers [][]byte) (frontendMsg, error)
}

// A frontendMsg is a message from the front end, decoded.
type frontendMsg struct {
	method  string         // methodState, methodRequestState or methodCustom
	state   map[string]any // for methodState: the keys the front end changed
	content map[string]any // for methodCustom
}

// decodeCommon decodes the messages both versions send alike: request_state and custom; any
// other method is unknown.
func decodeCommon(m frontendMsg, data map[string]any) (frontendMsg, error) {
	switch m.method {
	case methodRequestState:
	case methodCustom:
		c, ok := data["content"].(map[string]any)
		if !ok {
			return m, fmt.Errorf("custom message without content object")
		}
		m.content = c
	default:
		return m, fmt.Errorf("unknown method %q", m.method)
	}
	return m, nil
}

// Methods of the messages both ways.
const (
	methodBackbone     = "backbone" // 1.0: the front end changed state
	methodUpdate       = "update"   // the kernel changed state (both); 2.x: the front end did
	methodEchoUpdate   = "echo_update"
	methodRequestState = "request_state"
	methodCustom       = "custom"
	methodDisplay      = "display"
	methodState        = "state" // a decoded backbone (1.0) or update (2.x) from the front end
)

// The comm targets of the protocol: one comm per model, 1.0's version handshake, and 2.1's
// control comm that asks for every model's state at once.
const (
	TargetWidget  = "jupyter.widget"
	TargetVersion = "jupyter.widget.version"
	TargetControl = "jupyter.widget.control"
)

// MIMEWidgetView is the MIME type of a widget's view in a display_data.
const MIMEWidgetView = "application/vnd.jupyter.widget-view+json"

// EnvProtocol names the environment variable that forces a protocol version, "1.0" or "2.1",
// whatever the front ends say.
const EnvProtocol = "GPTNOTES_WIDGET_PROTOCOL"

// Which protocol a new widget speaks. The kernel cannot ask; it learns from the front end's
// own messages: the 1.0 front end opens jupyter.widget.version when it connects and sends
// "backbone" changes, a 2.x front end opens jupyter.widget.control and sends "update"s. A
// widget is made in the version the front end that spoke last speaks, 2.1 while none has
// spoken (nbclient, which runs `make docs`, never does), and keeps it for its life: its
// comm_open has told the front ends its module. EnvProtocol overrides all of this.
var (
	protoMu sync.Mutex
	heard   protocol // the last front end's version, nil until one speaks
	forced  = forcedProtocol(os.Getenv(EnvProtocol))
)

// forcedProtocol reads EnvProtocol's value; "" or a value it does not know forces nothing.
func forcedProtocol(v string) protocol {
	switch v {
	case "1.0", "1":
		return v1{}
	case "2.1", "2":
		return v2{}
	}
	return nil
}

// speaking is the protocol a widget made now speaks.
func speaking() protocol {
	protoMu.Lock()
	defer protoMu.Unlock()
	switch {
	case forced != nil:
		return forced
	case heard != nil:
		return heard
	}
	return v2{}
}

// heardFrom records that a front end spoke p.
func heardFrom(p protocol) {
	protoMu.Lock()
	changed := heard == nil || heard.name() != p.name()
	heard = p
	protoMu.Unlock()
	if changed && forced == nil {
		comm.Logf("widget: a front end speaks protocol %s: widgets made from now on speak it", p.name())
	}
}
