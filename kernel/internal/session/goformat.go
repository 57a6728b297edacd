package session

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"
)

// Printing a cell's value with %+v or %#v as Go prints it. yaegi builds a cell's struct type
// with reflect, which exports every field (x becomes Xx) and gives the type no name, so fmt
// alone prints {Xx:1 Xy:2} and struct { Xx int; Xy int }{…}. The kernel knows the names from
// its type check: the rewrite (cellformat.go) passes the value with a description of its type
// (a fmtType, as JSON), and the runtime's GoSyntax returns a fmt.Formatter that prints the value
// by fmt's rules (fmt/print.go printValue) with the names from the description. The value's own
// layout is yaegi's: fields in the declared order, each readable.

// A fmtType describes a type for printing: what fmt needs of it that yaegi's reflect type lacks.
type fmtType struct {
	Kind   string     `json:"k"`           // struct, ptr, slice, array, map; go: fmt prints the value itself; raw: fmt prints it as its basic kind, without methods
	Name   string     `json:"n,omitempty"` // Go's name of the type (main.point, []main.point, *main.point)
	Fields []fmtField `json:"f,omitempty"` // struct
	Elem   *fmtType   `json:"e,omitempty"` // ptr, slice, array, map: the element's
	Key    *fmtType   `json:"x,omitempty"` // map
}

type fmtField struct {
	Name string   `json:"n"`
	Type *fmtType `json:"t"`
}

// fmtTypes caches the descriptions by their JSON: a cell's call passes the same one each time.
var fmtTypes sync.Map // string → *fmtType

// goSyntax is the runtime's GoSyntax: v, printed with the names of desc for %+v and %#v.
func goSyntax(v any, desc string) fmt.Formatter {
	d, ok := fmtTypes.Load(desc)
	if !ok {
		t := new(fmtType)
		if err := json.Unmarshal([]byte(desc), t); err != nil {
			panic(fmt.Sprintf("gptnotes: a type description the kernel wrote does not decode: %v", err))
		}
		d, _ = fmtTypes.LoadOrStore(desc, t)
	}
	return goSyntaxValue{reflect.ValueOf(v), d.(*fmtType)}
}

type goSyntaxValue struct {
	v reflect.Value
	t *fmtType
}

// Format prints the value for %v, %+v and %#v; other verbs are fmt's, on the value itself.
func (g goSyntaxValue) Format(f fmt.State, verb rune) {
	if verb != 'v' {
		fmt.Fprintf(f, fmt.FormatString(f, verb), g.v.Interface())
		return
	}
	p := &valuePrinter{plus: f.Flag('+'), sharp: f.Flag('#')}
	p.value(g.v, g.t, 0)
	f.Write([]byte(p.b.String()))
}

// A valuePrinter writes a value as fmt's printValue does for %v, %+v (plus) or %#v (sharp).
type valuePrinter struct {
	b           strings.Builder
	plus, sharp bool
}

// verb is the verb with its flags, for what fmt prints itself.
func (p *valuePrinter) verb() string {
	switch {
	case p.sharp:
		return "%#v"
	case p.plus:
		return "%+v"
	}
	return "%v"
}

func (p *valuePrinter) value(v reflect.Value, t *fmtType, depth int) {
	if !v.IsValid() {
		p.b.WriteString("<nil>")
		return
	}
	if v.Kind() == reflect.Pointer && t.Kind != "ptr" {
		t = &fmtType{Kind: "ptr", Name: v.Type().String(), Elem: &fmtType{Kind: "go"}}
	}
	switch t.Kind {
	case "struct":
		if p.sharp {
			p.b.WriteString(t.Name)
		}
		p.b.WriteByte('{')
		for i, f := range t.Fields {
			if i > 0 {
				p.b.WriteString(p.sep())
			}
			if p.plus || p.sharp {
				p.b.WriteString(f.Name + ":")
			}
			p.value(v.Field(i), f.Type, depth+1)
		}
		p.b.WriteByte('}')
	case "slice", "array":
		if p.sharp {
			if v.Kind() == reflect.Slice && v.IsNil() {
				p.b.WriteString(t.Name + "(nil)")
				return
			}
			p.b.WriteString(t.Name + "{")
		} else {
			p.b.WriteByte('[')
		}
		for i := range v.Len() {
			if i > 0 {
				p.b.WriteString(p.sep())
			}
			p.value(v.Index(i), t.Elem, depth+1)
		}
		p.b.WriteString(map[bool]string{true: "}", false: "]"}[p.sharp])
	case "map":
		if p.sharp {
			if v.IsNil() {
				p.b.WriteString(t.Name + "(nil)")
				return
			}
			p.b.WriteString(t.Name + "{")
		} else {
			p.b.WriteString("map[")
		}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return lessKey(keys[i], keys[j]) })
		for i, k := range keys {
			if i > 0 {
				p.b.WriteString(p.sep())
			}
			p.value(k, t.Key, depth+1)
			p.b.WriteByte(':')
			p.value(v.MapIndex(k), t.Elem, depth+1)
		}
		p.b.WriteString(map[bool]string{true: "}", false: "]"}[p.sharp])
	case "ptr":
		if depth == 0 && !v.IsNil() {
			switch v.Elem().Kind() {
			case reflect.Array, reflect.Slice, reflect.Struct, reflect.Map:
				p.b.WriteByte('&')
				p.value(v.Elem(), t.Elem, depth+1)
				return
			}
		}
		switch {
		case p.sharp && v.IsNil():
			fmt.Fprintf(&p.b, "(%s)(nil)", t.Name)
		case p.sharp:
			fmt.Fprintf(&p.b, "(%s)(%#x)", t.Name, v.Pointer())
		case v.IsNil():
			p.b.WriteString("<nil>")
		default:
			fmt.Fprintf(&p.b, "%#x", v.Pointer())
		}
	case "raw": // an unexported field's number or string: fmt cannot call its methods
		fmt.Fprintf(&p.b, p.verb(), v.Convert(basicTypes[v.Kind()]).Interface())
	default: // a type fmt names right: print the value with the same verb
		fmt.Fprintf(&p.b, p.verb(), v.Interface())
	}
}

// basicTypes are the types of each basic kind, without a name or methods.
var basicTypes = map[reflect.Kind]reflect.Type{
	reflect.Bool: reflect.TypeFor[bool](), reflect.Int: reflect.TypeFor[int](), reflect.Int8: reflect.TypeFor[int8](),
	reflect.Int16: reflect.TypeFor[int16](), reflect.Int32: reflect.TypeFor[int32](), reflect.Int64: reflect.TypeFor[int64](),
	reflect.Uint: reflect.TypeFor[uint](), reflect.Uint8: reflect.TypeFor[uint8](), reflect.Uint16: reflect.TypeFor[uint16](),
	reflect.Uint32: reflect.TypeFor[uint32](), reflect.Uint64: reflect.TypeFor[uint64](), reflect.Uintptr: reflect.TypeFor[uintptr](),
	reflect.Float32: reflect.TypeFor[float32](), reflect.Float64: reflect.TypeFor[float64](),
	reflect.Complex64: reflect.TypeFor[complex64](), reflect.Complex128: reflect.TypeFor[complex128](),
	reflect.String: reflect.TypeFor[string](),
}

// sep is what goes between fields and elements.
func (p *valuePrinter) sep() string {
	if p.sharp {
		return ", "
	}
	return " "
}

// lessKey orders map keys as fmt does for the kinds the rewrite lets through (numbers, strings,
// booleans: cellformat.go sortableKey).
func lessKey(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return a.Int() < b.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return a.Uint() < b.Uint()
	case reflect.Float32, reflect.Float64:
		return a.Float() < b.Float() || a.Float() != a.Float() && b.Float() == b.Float()
	case reflect.String:
		return a.String() < b.String()
	case reflect.Bool:
		return !a.Bool() && b.Bool()
	}
	return false
}
