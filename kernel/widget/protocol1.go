package widget

import "fmt"

// v1 is protocol 1.0, as ipywidgets 6.0 speaks it to jupyter-js-widgets 2.1 (Debian's classic
// notebook). Binary buffers are top-level state keys only, listed by name beside the state.
type v1 struct{}

// frontendVersion is the semver range of jupyter-js-widgets a 6.0 kernel asks for.
const frontendVersion = "~2.1.4"

func (v1) name() string { return "1.0" }

func (v1) base(modelName, viewName string) map[string]any {
	state := map[string]any{
		"_model_module":         "jupyter-js-widgets",
		"_model_module_version": frontendVersion,
		"_model_name":           modelName,
		"_view_module":          "jupyter-js-widgets",
		"_view_module_version":  frontendVersion,
		"_view_name":            nil,
		"msg_throttle":          1,
	}
	if viewName != "" {
		state["_view_name"] = viewName
	}
	for k, v := range v1Keys[modelName] {
		state[k] = v
	}
	return state
}

// v1Keys are the keys ipywidgets 6's models have that 8's do not, with their defaults.
var v1Keys = map[string]map[string]any{
	"IntSliderModel":   {"_range": false},
	"FloatSliderModel": {"_range": false, "slider_color": nil},
	"ButtonModel":      {"tooltip": ""},
	"LabelModel":       {"disabled": false},
	"HTMLModel":        {"disabled": false},
}

// In ipywidgets 6 only sliders and buttons have style models.
func (v1) style(modelName string) (string, map[string]any) {
	switch modelName {
	case "IntSliderModel":
		return "SliderStyleModel", map[string]any{"handle_color": nil}
	case "ButtonModel":
		return "ButtonStyleModel", map[string]any{"button_color": nil, "font_weight": ""}
	}
	return "", nil
}

func (v1) layoutKeys() []string {
	return []string{"align_content", "align_items", "align_self", "border", "bottom", "display",
		"flex", "flex_flow", "height", "justify_content", "left", "margin", "max_height", "max_width",
		"min_height", "min_width", "order", "overflow", "overflow_x", "overflow_y", "padding", "right",
		"top", "visibility", "width"}
}

// open sends the state as 1.0 does, plus one key for nbclient (nbconvert --execute), which
// reads every comm_open as 2.x does and fails on a 1.0 one without "state". The 1.0 front end
// keeps the extra key as an attribute nothing uses.
// Binary values are not in it: as ipywidgets 6 does, the model sends them in an update right
// after (model.go), since a 1.0 comm_open cannot name its buffers.
func (p v1) open(state map[string]any) (map[string]any, map[string]any, [][]byte) {
	data, _ := p.split(state)
	data[compatStateKey], _ = p.split(state)
	return data, nil, nil
}

// compatStateKey is the key of open's copy of the state for nbclient.
const compatStateKey = "state"

func (p v1) update(state map[string]any) (map[string]any, [][]byte) {
	data, buffers := p.split(state)
	names := make([]any, 0, len(buffers))
	for k, v := range state {
		if _, ok := v.([]byte); ok {
			names = append(names, k)
		}
	}
	delete(data, compatStateKey)
	return map[string]any{"method": methodUpdate, "state": data, "buffers": names}, buffers
}

// split copies state without its binary values, which it returns as buffers in key order.
func (v1) split(state map[string]any) (map[string]any, [][]byte) {
	data := make(map[string]any, len(state)+1)
	var buffers [][]byte
	for _, k := range sortedKeys(state) {
		if b, ok := state[k].([]byte); ok {
			buffers = append(buffers, b)
			continue
		}
		data[k] = state[k]
	}
	return data, buffers
}

func (v1) echo(map[string]any) (map[string]any, [][]byte) { return nil, nil }

func (v1) display() map[string]any { return map[string]any{"method": methodDisplay} }

func (v1) view(id string) map[string]any {
	return map[string]any{MIMEWidgetView: map[string]any{"model_id": id}}
}

func (v1) decode(data map[string]any, buffers [][]byte) (frontendMsg, error) {
	method, _ := data["method"].(string)
	m := frontendMsg{method: method}
	switch method {
	case methodBackbone:
		s, ok := data["sync_data"].(map[string]any)
		if !ok {
			return m, fmt.Errorf("backbone message without sync_data object")
		}
		keys, _ := data["buffer_keys"].([]any)
		if len(keys) != len(buffers) {
			return m, fmt.Errorf("backbone message names %d buffers and carries %d", len(keys), len(buffers))
		}
		for i, k := range keys {
			name, ok := k.(string)
			if !ok {
				return m, fmt.Errorf("buffer key %v is not a string", k)
			}
			s[name] = buffers[i]
		}
		m.method, m.state = methodState, s
		return m, nil
	}
	return decodeCommon(m, data)
}
