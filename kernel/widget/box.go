package widget

import (
	"fmt"
	"strings"
)

// A Layout is a widget's CSS box: width, height, border, margin, padding and the rest of
// ipywidgets 6's layout keys, unset (null) until set. Every widget has its own, from Layout().
type Layout struct{ *Model }

// layoutKeys are the CSS properties of a Layout, as ipywidgets 6 names them.
var layoutKeys = []string{"align_content", "align_items", "align_self", "border", "bottom", "display",
	"flex", "flex_flow", "height", "justify_content", "left", "margin", "max_height", "max_width",
	"min_height", "min_width", "order", "overflow", "overflow_x", "overflow_y", "padding", "right",
	"top", "visibility", "width"}

func newLayout(set map[string]any) *Layout {
	state := map[string]any{}
	for _, k := range layoutKeys {
		state[k] = nil
	}
	for k, v := range set {
		state[k] = v
	}
	return &Layout{open("Layout", "LayoutModel", "LayoutView", state, nil)}
}

// NewLayout makes a layout of the given width and border (CSS values, "" for unset), for a box
// made with its HBox or VBox method.
func NewLayout(width, border string) *Layout {
	set := map[string]any{}
	if width != "" {
		set["width"] = width
	}
	if border != "" {
		set["border"] = border
	}
	return newLayout(set)
}

// Layout is the widget's layout; nil for a Layout itself.
func (m *Model) Layout() *Layout { return m.layout }

// SetWidth sets the CSS width, e.g. "50%" or "300px".
func (l *Layout) SetWidth(w string) { l.Set("width", w) }

// SetHeight sets the CSS height.
func (l *Layout) SetHeight(h string) { l.Set("height", h) }

// SetBorder sets the CSS border, e.g. "1px solid gray".
func (l *Layout) SetBorder(b string) { l.Set("border", b) }

// A Box lays out its children: in a row (HBox) or a column (VBox).
type Box struct {
	*Model
	children []Widget
}

// NewHBox puts children in a row.
func NewHBox(children ...Widget) *Box { return newLayout(nil).box("HBox", children) }

// NewVBox puts children in a column.
func NewVBox(children ...Widget) *Box { return newLayout(nil).box("VBox", children) }

// HBox puts children in a row laid out by l.
func (l *Layout) HBox(children ...Widget) *Box { return l.box("HBox", children) }

// VBox puts children in a column laid out by l.
func (l *Layout) VBox(children ...Widget) *Box { return l.box("VBox", children) }

func (l *Layout) box(kind string, children []Widget) *Box {
	refs := make([]string, len(children))
	for i, c := range children {
		refs[i] = c.model().ref()
	}
	m := open(kind, kind+"Model", kind+"View", map[string]any{
		"_dom_classes": []string{}, "box_style": "", "children": refs, "layout": l.ref()}, nil)
	m.layout = l
	b := &Box{Model: m, children: children}
	m.describe = func() string {
		parts := make([]string, len(b.children))
		for i, c := range b.children {
			parts[i] = strings.TrimSuffix(c.model().String(), " (a widget; its view shows in a notebook with widgets)")
		}
		return fmt.Sprintf("%s of %d widgets: %s", kind, len(parts), strings.Join(parts, "; "))
	}
	return b
}

// Children are the widgets in the box.
func (b *Box) Children() []Widget { return b.children }
