package widget

import (
	"fmt"
	"math"
	"slices"
)

// Conversions of the values the front end sends (JSON: numbers are float64) into the model's.

func asInt(v any) (int, error) {
	f, ok := v.(float64)
	if !ok || f != math.Trunc(f) || math.IsInf(f, 0) || math.Abs(f) > 1<<53 {
		return 0, fmt.Errorf("want an integer, got %T %v", v, v)
	}
	return int(f), nil
}

func asFloat(v any) (float64, error) {
	f, ok := v.(float64)
	if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("want a number, got %T %v", v, v)
	}
	return f, nil
}

func asString(v any) (any, error) {
	s, ok := v.(string)
	if !ok {
		return nil, fmt.Errorf("want a string, got %T %v", v, v)
	}
	return s, nil
}

func asBool(v any) (any, error) {
	b, ok := v.(bool)
	if !ok {
		return nil, fmt.Errorf("want a bool, got %T %v", v, v)
	}
	return b, nil
}

// intIn converts to an int clamped into the model's [min, max], as ipywidgets clamps.
func (m *Model) intIn(v any) (any, error) {
	n, err := asInt(v)
	if err != nil {
		return nil, err
	}
	lo, hi := m.Get("min").(int), m.Get("max").(int)
	return max(lo, min(hi, n)), nil
}

func (m *Model) floatIn(v any) (any, error) {
	f, err := asFloat(v)
	if err != nil {
		return nil, err
	}
	lo, hi := m.Get("min").(float64), m.Get("max").(float64)
	return math.Max(lo, math.Min(hi, f)), nil
}

// domWidget opens a control speaking p as ipywidgets does: its Layout first, then its style
// model (if the protocol gives the control one), then the control, which refers to both.
func domWidget(p protocol, kind, modelName, viewName string, state map[string]any) *Model {
	l := newLayout(p, nil)
	state["_dom_classes"] = []string{}
	state["layout"] = l.ref()
	if styleModel, styleState := p.style(modelName); styleModel != "" {
		st := open(p, styleModel, styleModel, "StyleView", styleState, nil)
		state["style"] = st.ref()
	}
	m := open(p, kind, modelName, viewName, state, nil)
	m.layout = l
	return m
}

// describeValue makes the text fallback say the control's value, printed with format; value
// reads it (nil: the state's "value").
func (m *Model) describeValue(format string, value func() any) {
	if value == nil {
		value = func() any { return m.Get("value") }
	}
	m.describe = func() string {
		d, _ := m.Get("description").(string)
		if d != "" {
			d = fmt.Sprintf(" %q", d)
		}
		return fmt.Sprintf("%s%s = "+format+" (a widget; its view shows in a notebook with widgets)", m.kind, d, value())
	}
}

// IntSlider -------------------------------------------------------------------------------------

// An IntSlider picks an integer in [min, max].
type IntSlider struct{ *Model }

// NewIntSlider makes a slider over min…max in steps of 1, at value.
func NewIntSlider(description string, min, max, value int) *IntSlider {
	m := domWidget(speaking(), "IntSlider", "IntSliderModel", "IntSliderView", map[string]any{
		"continuous_update": true, "description": description, "disabled": false,
		"max": max, "min": min, "orientation": "horizontal", "readout": true, "readout_format": "d",
		"step": 1, "value": value,
	})
	m.settable["value"] = m.intIn
	m.describeValue("%v", nil)
	return &IntSlider{m}
}

// Value is the slider's value.
func (s *IntSlider) Value() int { return s.Get("value").(int) }

// SetValue moves the slider.
func (s *IntSlider) SetValue(v int) { s.Set("value", v) }

// SetStep sets the step between values.
func (s *IntSlider) SetStep(step int) { s.Set("step", step) }

// OnChange runs f with each new value.
func (s *IntSlider) OnChange(f func(v int)) {
	s.Observe("value", func(c Change) { f(c.New.(int)) })
}

// FloatSlider -----------------------------------------------------------------------------------

// A FloatSlider picks a number in [min, max].
type FloatSlider struct{ *Model }

// NewFloatSlider makes a slider over min…max in steps of step, at value, shown with two decimals.
func NewFloatSlider(description string, min, max, step, value float64) *FloatSlider {
	m := domWidget(speaking(), "FloatSlider", "FloatSliderModel", "FloatSliderView", map[string]any{
		"continuous_update": true, "description": description, "disabled": false,
		"max": max, "min": min, "orientation": "horizontal", "readout": true, "readout_format": ".2f",
		"step": step, "value": value,
	})
	m.settable["value"] = m.floatIn
	m.describeValue("%v", nil)
	return &FloatSlider{m}
}

// Value is the slider's value.
func (s *FloatSlider) Value() float64 { return s.Get("value").(float64) }

// SetValue moves the slider.
func (s *FloatSlider) SetValue(v float64) { s.Set("value", v) }

// SetReadoutFormat sets how the value is printed beside the slider, a Python format spec: ".3f".
func (s *FloatSlider) SetReadoutFormat(format string) { s.Set("readout_format", format) }

// OnChange runs f with each new value.
func (s *FloatSlider) OnChange(f func(v float64)) {
	s.Observe("value", func(c Change) { f(c.New.(float64)) })
}

// Selection: Dropdown, ToggleButtons, RadioButtons ------------------------------------------------

// A Selection picks one of a list of options: a Dropdown, ToggleButtons or RadioButtons.
// Protocol 1.0 keeps the option picked in its state as "value"; 2.1 (ipywidgets 8) keeps its
// position, "index".
type Selection struct {
	*Model
	key     string // "value" or "index"
	options []string
}

func newSelection(kind string, extra map[string]any, description string, options []string, value string) *Selection {
	if !slices.Contains(options, value) && len(options) > 0 {
		value = options[0]
	}
	p := speaking()
	s := &Selection{key: "value", options: slices.Clone(options)}
	if p.name() != (v1{}).name() {
		s.key = "index"
	}
	state := map[string]any{"_options_labels": slices.Clone(options), "description": description,
		"disabled": false, s.key: s.wire(value)}
	for k, v := range extra {
		state[k] = v
	}
	s.Model = domWidget(p, kind, kind+"Model", kind+"View", state)
	s.settable[s.key] = func(v any) (any, error) {
		if s.key == "index" {
			i, err := asInt(v)
			if err == nil && (i < 0 || i >= len(options)) {
				return nil, fmt.Errorf("index %d is not one of the %d options'", i, len(options))
			}
			return i, err
		}
		x, err := asString(v)
		if err == nil && !slices.Contains(options, x.(string)) {
			return nil, fmt.Errorf("%q is not one of the options %q", x, options)
		}
		return x, err
	}
	s.describeValue("%q", func() any { return s.Value() })
	return s
}

// wire is option v as the state keeps it.
func (s *Selection) wire(v string) any {
	if s.key == "index" {
		return slices.Index(s.options, v)
	}
	return v
}

// option is the option a state value names.
func (s *Selection) option(v any) string {
	if i, ok := v.(int); ok {
		return s.options[i]
	}
	return v.(string)
}

// NewDropdown makes a drop-down list of options with value selected.
func NewDropdown(description string, options []string, value string) *Selection {
	return newSelection("Dropdown", nil, description, options, value)
}

// NewToggleButtons makes a row of buttons, one per option, value pressed.
func NewToggleButtons(description string, options []string, value string) *Selection {
	return newSelection("ToggleButtons", map[string]any{"button_style": "", "icons": []string{}, "tooltips": []string{}},
		description, options, value)
}

// NewRadioButtons makes a column of radio buttons, one per option, value checked.
func NewRadioButtons(description string, options []string, value string) *Selection {
	return newSelection("RadioButtons", nil, description, options, value)
}

// Value is the option selected.
func (s *Selection) Value() string { return s.option(s.Get(s.key)) }

// Index is the position of the option selected.
func (s *Selection) Index() int { return slices.Index(s.options, s.Value()) }

// SetValue selects an option; one not in the list is ignored.
func (s *Selection) SetValue(v string) {
	if slices.Contains(s.options, v) {
		s.Set(s.key, s.wire(v))
	}
}

// OnChange runs f with each newly selected option.
func (s *Selection) OnChange(f func(v string)) {
	s.Observe(s.key, func(c Change) { f(s.option(c.New)) })
}

// Checkbox --------------------------------------------------------------------------------------

// A Checkbox is on or off.
type Checkbox struct{ *Model }

// NewCheckbox makes a checkbox, checked if value.
func NewCheckbox(description string, value bool) *Checkbox {
	m := domWidget(speaking(), "Checkbox", "CheckboxModel", "CheckboxView", map[string]any{
		"description": description, "disabled": false, "value": value})
	m.settable["value"] = asBool
	m.describeValue("%v", nil)
	return &Checkbox{m}
}

// Value reports whether the box is checked.
func (c *Checkbox) Value() bool { return c.Get("value").(bool) }

// SetValue checks or unchecks the box.
func (c *Checkbox) SetValue(v bool) { c.Set("value", v) }

// OnChange runs f with each new value.
func (c *Checkbox) OnChange(f func(v bool)) {
	c.Observe("value", func(ch Change) { f(ch.New.(bool)) })
}

// Button ----------------------------------------------------------------------------------------

// A Button runs Go code when clicked.
type Button struct{ *Model }

// NewButton makes a button labelled description.
func NewButton(description string) *Button {
	m := domWidget(speaking(), "Button", "ButtonModel", "ButtonView", map[string]any{
		"button_style": "", "description": description, "disabled": false, "icon": ""})
	m.describe = func() string {
		return fmt.Sprintf("Button %q (a widget; its view shows in a notebook with widgets)", m.Get("description"))
	}
	return &Button{m}
}

// OnClick runs f on each click.
func (b *Button) OnClick(f func()) {
	b.OnCustom(func(content map[string]any) {
		if content["event"] == "click" {
			f()
		}
	})
}

// SetDescription changes the button's label.
func (b *Button) SetDescription(s string) { b.Set("description", s) }

// Click does what a click in the front end does: runs the OnClick functions.
func (b *Button) Click() {
	b.handle(map[string]any{"method": methodCustom, "content": map[string]any{"event": "click"}}, nil)
}

// Text and Textarea -----------------------------------------------------------------------------

// A Text is a one-line text box; a Textarea, made by NewTextarea, has several lines.
type Text struct{ *Model }

// NewText makes a one-line text box holding value, showing placeholder while empty.
func NewText(description, placeholder, value string) *Text {
	m := domWidget(speaking(), "Text", "TextModel", "TextView", map[string]any{
		"description": description, "disabled": false, "placeholder": placeholder, "value": value})
	m.settable["value"] = asString
	m.describeValue("%q", nil)
	return &Text{m}
}

// NewTextarea makes a text box of rows lines holding value.
func NewTextarea(description, value string, rows int) *Text {
	m := domWidget(speaking(), "Textarea", "TextareaModel", "TextareaView", map[string]any{
		"description": description, "disabled": false, "placeholder": "\u200b", "rows": rows, "value": value})
	m.settable["value"] = asString
	m.describeValue("%q", nil)
	return &Text{m}
}

// Value is the text.
func (t *Text) Value() string { return t.Get("value").(string) }

// SetValue replaces the text.
func (t *Text) SetValue(s string) { t.Set("value", s) }

// OnChange runs f with the text after each edit (each keystroke, in the front end).
func (t *Text) OnChange(f func(s string)) {
	t.Observe("value", func(c Change) { f(c.New.(string)) })
}

// OnSubmit runs f with the text when the user presses Enter (one-line boxes only).
func (t *Text) OnSubmit(f func(s string)) {
	t.OnCustom(func(content map[string]any) {
		if content["event"] == "submit" {
			f(t.Value())
		}
	})
}

// Play ------------------------------------------------------------------------------------------

// A Play steps a value from min to max on a timer in the front end, for animations; observe it
// like a slider.
type Play struct{ *Model }

// NewPlay makes a player over min…max by step, one step every interval milliseconds.
func NewPlay(description string, min, max, step, interval int) *Play {
	p := speaking()
	playing := "playing" // ipywidgets 6 named it "_playing"
	if p.name() == (v1{}).name() {
		playing = "_playing"
	}
	m := domWidget(p, "Play", "PlayModel", "PlayView", map[string]any{
		playing: false, "description": description, "disabled": false, "interval": interval,
		"max": max, "min": min, "step": step, "value": min})
	m.settable["value"] = m.intIn
	m.settable[playing] = asBool
	m.describeValue("%v", nil)
	return &Play{m}
}

// Value is the current frame.
func (p *Play) Value() int { return p.Get("value").(int) }

// SetValue jumps to a frame.
func (p *Play) SetValue(v int) { p.Set("value", v) }

// OnChange runs f with each new frame.
func (p *Play) OnChange(f func(v int)) {
	p.Observe("value", func(c Change) { f(c.New.(int)) })
}

// Label and HTML --------------------------------------------------------------------------------

// A Label shows a line of text; an HTML, made by NewHTML, shows an HTML fragment.
type Label struct{ *Model }

// NewLabel makes a label showing value.
func NewLabel(value string) *Label { return newText("Label", value) }

// NewHTML makes an HTML widget showing the fragment value.
func NewHTML(value string) *Label { return newText("HTML", value) }

func newText(kind, value string) *Label {
	m := domWidget(speaking(), kind, kind+"Model", kind+"View", map[string]any{
		"description": "", "placeholder": "\u200b", "value": value})
	m.describe = func() string { return fmt.Sprintf("%s: %s", kind, m.Get("value")) }
	return &Label{m}
}

// Value is the text or fragment shown.
func (l *Label) Value() string { return l.Get("value").(string) }

// SetValue replaces it.
func (l *Label) SetValue(s string) { l.Set("value", s) }
