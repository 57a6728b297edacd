package widget

import "fmt"

// A protocol is one version of the widget protocol's wire format: what a model's state carries
// besides its own keys, and how messages are shaped. Version 1.0 (ipywidgets 6) is the one the
// front end here speaks; 2.x (ipywidgets 7 and 8: "@jupyter-widgets/…" modules, state inside
// {"state": …, "buffer_paths": …}, the version in the message metadata) can be added as a
// second implementation without changing a control.
type protocol interface {
	// base returns the keys every model of modelName/viewName carries.
	base(modelName, viewName string) map[string]any
	// open returns the comm_open data for a model's full state.
	open(state map[string]any) map[string]any
	// update returns the comm_msg data that sets keys of state in the front end.
	update(state map[string]any) map[string]any
	// display returns the comm_msg data sent before a view is shown (nil: none).
	display() map[string]any
	// view returns the MIME bundle entries that show model id's view.
	view(id string) map[string]any
	// decode reads a message from the front end.
	decode(data map[string]any) (frontendMsg, error)
}

// A frontendMsg is a message from the front end, decoded.
type frontendMsg struct {
	method  string         // "backbone" (state changed), "request_state" or "custom"
	state   map[string]any // for backbone
	content map[string]any // for custom
}

// Methods of the messages both ways.
const (
	methodBackbone     = "backbone"
	methodRequestState = "request_state"
	methodCustom       = "custom"
	methodUpdate       = "update"
	methodDisplay      = "display"
)

// The comm targets of the protocol: one comm per model, and the version handshake.
const (
	TargetWidget  = "jupyter.widget"
	TargetVersion = "jupyter.widget.version"
)

// MIMEWidgetView is the MIME type of a widget's view in a display_data.
const MIMEWidgetView = "application/vnd.jupyter.widget-view+json"

// v1 is protocol 1.0, as ipywidgets 6.0 speaks it to jupyter-js-widgets 2.1.
type v1 struct{}

// frontendVersion is the semver range of jupyter-js-widgets a 6.0 kernel asks for.
const frontendVersion = "~2.1.4"

func (v1) base(modelName, viewName string) map[string]any {
	return map[string]any{
		"_model_module":         "jupyter-js-widgets",
		"_model_module_version": frontendVersion,
		"_model_name":           modelName,
		"_view_module":          "jupyter-js-widgets",
		"_view_module_version":  frontendVersion,
		"_view_name":            viewName,
		"msg_throttle":          1,
	}
}

// open sends the state as 1.0 does, plus one key for nbclient (nbconvert --execute), which
// reads every comm_open as 2.x does and fails on a 1.0 one without "state". The 1.0 front end
// keeps the extra key as an attribute nothing uses.
func (v1) open(state map[string]any) map[string]any {
	data := make(map[string]any, len(state)+1)
	for k, v := range state {
		data[k] = v
	}
	data[compatStateKey] = state
	return data
}

// compatStateKey is the key of open's copy of the state for nbclient.
const compatStateKey = "state"

func (v1) update(state map[string]any) map[string]any {
	return map[string]any{"method": methodUpdate, "state": state, "buffers": []any{}}
}

func (v1) display() map[string]any { return map[string]any{"method": methodDisplay} }

func (v1) view(id string) map[string]any {
	return map[string]any{MIMEWidgetView: map[string]any{"model_id": id}}
}

func (v1) decode(data map[string]any) (frontendMsg, error) {
	method, _ := data["method"].(string)
	m := frontendMsg{method: method}
	switch method {
	case methodBackbone:
		s, ok := data["sync_data"].(map[string]any)
		if !ok {
			return m, fmt.Errorf("backbone message without sync_data object")
		}
		m.state = s
	case methodRequestState:
	case methodCustom:
		c, ok := data["content"].(map[string]any)
		if !ok {
			return m, fmt.Errorf("custom message without content object")
		}
		m.content = c
	default:
		return m, fmt.Errorf("unknown method %q", method)
	}
	return m, nil
}

// current is the protocol spoken.
var current protocol = v1{}
