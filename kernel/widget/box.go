package widget

import (
	"fmt"
	"slices"
	"strings"
)

// A Layout is a widget's CSS box: width, height, border, margin, padding and the rest of
// the protocol's layout keys, unset (null) until set. Every widget has its own, from Layout().
type Layout struct{ *Model }

func newLayout(p protocol, set map[string]any) *Layout {
	state := map[string]any{}
	for _, k := range p.layoutKeys() {
		state[k] = nil
	}
	for k, v := range set {
		state[k] = v
	}
	return &Layout{open(p, "Layout", "LayoutModel", "LayoutView", state, nil)}
}

// NewLayout makes a layout of the given width and border (CSS values, "" for unset), for a box
// made with its HBox or VBox method.
func NewLayout(width, border string) *Layout {
	p := speaking()
	set := map[string]any{}
	if width != "" {
		set["width"] = width
	}
	if border != "" {
		set = borders(p, set, border)
	}
	return newLayout(p, set)
}

// borders adds the keys of CSS border b to set: "border" in protocol 1.0, each of its four
// sides in 2.1.
func borders(p protocol, set map[string]any, b string) map[string]any {
	if slices.Contains(p.layoutKeys(), "border") {
		set["border"] = b
		return set
	}
	for _, side := range []string{"border_top", "border_right", "border_bottom", "border_left"} {
		set[side] = b
	}
	return set
}

// Layout is the widget's layout; nil for a Layout itself.
func (m *Model) Layout() *Layout { return m.layout }

// SetWidth sets the CSS width, e.g. "50%" or "300px".
func (l *Layout) SetWidth(w string) { l.Set("width", w) }

// SetHeight sets the CSS height.
func (l *Layout) SetHeight(h string) { l.Set("height", h) }

// SetBorder sets the CSS border, e.g. "1px solid gray": in protocol 2.1 each of its four sides.
func (l *Layout) SetBorder(b string) { l.SetState(borders(l.proto, map[string]any{}, b)) }

// A Box lays out its children: in a row (HBox) or a column (VBox).
type Box struct {
	*Model
	children []Widget
}

// NewHBox puts children in a row.
func NewHBox(children ...Widget) *Box { return newLayout(speaking(), nil).box("HBox", children) }

// NewVBox puts children in a column.
func NewVBox(children ...Widget) *Box { return newLayout(speaking(), nil).box("VBox", children) }

// HBox puts children in a row laid out by l.
func (l *Layout) HBox(children ...Widget) *Box { return l.box("HBox", children) }

// VBox puts children in a column laid out by l.
func (l *Layout) VBox(children ...Widget) *Box { return l.box("VBox", children) }

func (l *Layout) box(kind string, children []Widget) *Box {
	refs := make([]string, len(children))
	for i, c := range children {
		refs[i] = c.model().ref()
	}
	m := open(l.proto, kind, kind+"Model", kind+"View", map[string]any{
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
