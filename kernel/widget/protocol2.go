package widget

import "fmt"

// v2 is protocol 2.1, as ipywidgets 8.1 speaks it to @jupyter-widgets/base 6 (JupyterLab 4,
// Notebook 7, VS Code): modules named "@jupyter-widgets/…", state inside {"state": …,
// "buffer_paths": …} with binary values anywhere in it sent as buffers, the version in the
// comm_open's metadata, changes from the front end echoed to every front end.
type v2 struct{}

// The module versions ipywidgets 8 names.
const (
	moduleBase      = "@jupyter-widgets/base"
	moduleControls  = "@jupyter-widgets/controls"
	moduleOutput    = "@jupyter-widgets/output"
	versionBase     = "2.0.0" // of base and controls
	versionOutput   = "1.0.0"
	protocolVersion = "2.1.0"
)

func (v2) name() string { return "2.1" }

func (v2) base(modelName, viewName string) map[string]any {
	module, version := moduleControls, versionBase
	viewModule := moduleControls
	switch {
	case modelName == "LayoutModel":
		module, viewModule = moduleBase, moduleBase
	case modelName == "OutputModel":
		module, viewModule, version = moduleOutput, moduleOutput, versionOutput
	case viewName == "StyleView":
		viewModule = moduleBase
	}
	state := map[string]any{
		"_model_module":         module,
		"_model_module_version": version,
		"_model_name":           modelName,
		"_view_module":          viewModule,
		"_view_module_version":  version,
		"_view_name":            nil,
	}
	if viewName != "" {
		state["_view_name"] = viewName
	}
	for k, v := range v2Keys(modelName) {
		state[k] = v
	}
	return state
}

// v2Keys are the keys ipywidgets 8's models add to what a control sets in both versions,
// with their defaults.
func v2Keys(modelName string) map[string]any {
	keys := map[string]any{}
	add := func(kv ...any) {
		for i := 0; i < len(kv); i += 2 {
			keys[kv[i].(string)] = kv[i+1]
		}
	}
	switch modelName {
	case "ButtonModel", "OutputModel", "HBoxModel", "VBoxModel", "ImageModel":
		add("tabbable", nil, "tooltip", nil)
	case "IntSliderModel", "FloatSliderModel", "DropdownModel", "ToggleButtonsModel",
		"RadioButtonsModel", "CheckboxModel", "TextModel", "TextareaModel", "PlayModel",
		"LabelModel", "HTMLModel":
		add("tabbable", nil, "tooltip", nil, "description_allow_html", false)
	}
	switch modelName {
	case "IntSliderModel", "FloatSliderModel":
		add("behavior", "drag-tap")
	case "RadioButtonsModel":
		add("orientation", "vertical")
	case "CheckboxModel":
		add("indent", true)
	case "TextModel", "TextareaModel":
		add("continuous_update", true)
	case "PlayModel":
		add("repeat", false, "show_repeat", true)
	case "OutputModel":
		add("outputs", []any{})
	}
	return keys
}

// ipywidgets 8 gives every control with a description a style model of its own kind.
func (v2) style(modelName string) (string, map[string]any) {
	width := map[string]any{"description_width": ""}
	with := func(kv ...any) map[string]any {
		s := map[string]any{"description_width": ""}
		for i := 0; i < len(kv); i += 2 {
			s[kv[i].(string)] = kv[i+1]
		}
		return s
	}
	switch modelName {
	case "IntSliderModel", "FloatSliderModel":
		return "SliderStyleModel", with("handle_color", nil)
	case "DropdownModel", "RadioButtonsModel", "PlayModel":
		return "DescriptionStyleModel", width
	case "ToggleButtonsModel":
		return "ToggleButtonsStyleModel", with("button_width", "", "font_weight", "")
	case "CheckboxModel":
		return "CheckboxStyleModel", with("background", nil)
	case "TextModel", "TextareaModel":
		return "TextStyleModel", with("background", nil, "font_size", nil, "text_color", nil)
	case "HTMLModel":
		return "HTMLStyleModel", with("background", nil, "font_size", nil, "text_color", nil)
	case "LabelModel":
		return "LabelStyleModel", with("background", nil, "font_family", nil, "font_size", nil,
			"font_style", nil, "font_variant", nil, "font_weight", nil, "text_color", nil, "text_decoration", nil)
	case "ButtonModel":
		return "ButtonStyleModel", map[string]any{"button_color": nil, "font_family": nil, "font_size": nil,
			"font_style": nil, "font_variant": nil, "font_weight": nil, "text_color": nil, "text_decoration": nil}
	}
	return "", nil
}

// layoutKeys are ipywidgets 8's: the border is four keys (Layout.SetBorder sets them all), and
// CSS grid's are there.
func (v2) layoutKeys() []string {
	return []string{"align_content", "align_items", "align_self", "border_bottom", "border_left",
		"border_right", "border_top", "bottom", "display", "flex", "flex_flow", "grid_area",
		"grid_auto_columns", "grid_auto_flow", "grid_auto_rows", "grid_column", "grid_gap", "grid_row",
		"grid_template_areas", "grid_template_columns", "grid_template_rows", "height",
		"justify_content", "justify_items", "left", "margin", "max_height", "max_width", "min_height",
		"min_width", "object_fit", "object_position", "order", "overflow", "padding", "right", "top",
		"visibility", "width"}
}

func (v2) open(state map[string]any) (map[string]any, map[string]any, [][]byte) {
	s, paths, buffers := removeBuffers(state)
	return map[string]any{"state": s, "buffer_paths": paths}, map[string]any{"version": protocolVersion}, buffers
}

func (v2) update(state map[string]any) (map[string]any, [][]byte) {
	return stateMsg(methodUpdate, state)
}

func (v2) echo(state map[string]any) (map[string]any, [][]byte) {
	return stateMsg(methodEchoUpdate, state)
}

func stateMsg(method string, state map[string]any) (map[string]any, [][]byte) {
	s, paths, buffers := removeBuffers(state)
	return map[string]any{"method": method, "state": s, "buffer_paths": paths}, buffers
}

func (v2) display() map[string]any { return nil }

func (v2) view(id string) map[string]any {
	return map[string]any{MIMEWidgetView: map[string]any{"model_id": id, "version_major": 2, "version_minor": 0}}
}

// maxBuffers is the most a message from the front end may carry in binary buffers; a control
// here takes no more than a text box's worth.
const maxBuffers = 16 << 20

func (v2) decode(data map[string]any, buffers [][]byte) (frontendMsg, error) {
	method, _ := data["method"].(string)
	m := frontendMsg{method: method}
	n := 0
	for _, b := range buffers {
		n += len(b)
	}
	if n > maxBuffers {
		return m, fmt.Errorf("%s message with %d bytes of buffers, more than the %d one may carry", method, n, maxBuffers)
	}
	switch method {
	case methodUpdate:
		s, ok := data["state"].(map[string]any)
		if !ok {
			return m, fmt.Errorf("update message without state object")
		}
		paths, ok := data["buffer_paths"].([]any)
		if _, present := data["buffer_paths"]; present && !ok {
			return m, fmt.Errorf("update message's buffer_paths is %T, want a list", data["buffer_paths"])
		}
		if err := putBuffers(s, paths, buffers); err != nil {
			return m, fmt.Errorf("update message: %w", err)
		}
		m.method, m.state = methodState, s
		return m, nil
	}
	return decodeCommon(m, data)
}
