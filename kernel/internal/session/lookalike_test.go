package session

import (
	"errors"
	"strings"
	"testing"
)

// TestLookalikeStructs runs cells that assert to, or switch on, a cell's struct type that another
// of the session's struct types looks like to the interpreter (lookalike.go). Without the
// refusal each printed what Go does not (yaegi v0.16.1 answered the assertion ok == true and
// its type switch took no case for a B), so each must fail with an Unsupported error at the
// assertion or case, naming both types.
func TestLookalikeStructs(t *testing.T) {
	cases := []struct{ name, cell, pos, target, other string }{
		{"assertion", "type A struct{ X int }\ntype B struct{ X int }\nvar x any = B{1}\n_, ok := x.(A)\nfmt.Println(ok)", "cell:9:12", "A", "B"},
		{"switch", "type A struct{ X int }\ntype B struct{ X int }\nvar x any = B{1}\nswitch x.(type) {\ncase A:\n\tfmt.Println(\"A\")\ncase B:\n\tfmt.Println(\"B\")\n}", "cell:10:6", "A", "B"},
		{"switch binding", "type A struct{ X int }\ntype B struct{ X int }\nfunc kind(x any) string {\n\tswitch v := x.(type) {\n\tcase B:\n\t\treturn \"B\"\n\tcase A:\n\t\treturn \"A\"\n\tdefault:\n\t\t_ = v\n\t}\n\treturn \"\"\n}\nfmt.Println(kind(A{1}))", "cell:10:7", "B", "A"},
		{"pointer", "type A struct{ X int }\ntype B struct{ X int }\nvar x any = &B{1}\n_, ok := x.(*A)\nfmt.Println(ok)", "cell:9:12", "A", "B"},
		{"empty structs", "type Stop struct{}\ntype Go struct{}\nvar x any = Go{}\n_, ok := x.(Stop)\nfmt.Println(ok)", "cell:9:12", "Stop", "Go"},
		{"named field", "type C float64\ntype A struct{ T C }\ntype B struct{ T float64 }\nvar x any = B{1}\n_, ok := x.(A)\nfmt.Println(ok)", "cell:10:12", "A", "B"},
		{"interface with methods", "type I interface{ M() }\ntype A struct{ X int }\nfunc (A) M() {}\ntype B struct{ X int }\nfunc (B) M() {}\nvar x I = B{1}\n_, ok := x.(A)\nfmt.Println(ok)", "cell:12:12", "A", "B"},
		{"slice", "type A struct{ X int }\ntype B struct{ X int }\nvar x any = []B{{1}}\n_, ok := x.([]A)\nfmt.Println(ok)", "cell:9:12", "A", "B"},
		{"compiled look-alike", "type P struct{ X, Y int }\nvar x any = image.Point{1, 2}\n_, ok := x.(P)\nfmt.Println(ok)", "cell:8:12", "P", "image.Point"},
		{"compiled target", "type P struct{ X, Y int }\nvar x any = P{1, 2}\n_, ok := x.(image.Point)\nfmt.Println(ok)", "cell:8:12", "image.Point", "P"},
		{"%T", "type A struct{ X int }\ntype B struct{ X int }\nvar x any = B{1}\nfmt.Printf(\"%T\\n\", x)", "cell:9:1", "A", "B"},
		{"%#v", "type I interface{ M() }\ntype A struct{ X int }\nfunc (*A) M() {}\ntype B struct{ X int }\nfunc (*B) M() {}\nvar x I = &B{1}\nfmt.Printf(\"%#v\\n\", x)", "cell:12:1", "A", "B"},
		{"== of an any", "type A struct{ X int }\ntype B struct{ X int }\nvar x any = B{1}\nfmt.Println(x == A{1})", "cell:9:15", "A", "B"},
		{"== of two anys", "type A struct{ X int }\ntype B struct{ X int }\nvar x, y any = B{1}, A{1}\nfmt.Println(x != y)", "cell:9:15", "A", "B"},
		{"local type of the same name", "type T struct{ a, b int }\nfunc f(x any) {\n\ttype T struct{ a, b int }\n\t_ = x.(T)\n}", "cell:9:8", "T (declared at cell:8:7)", "T (declared at cell:6:6)"},
		{"local type", "type B struct{ X int }\nfunc f() any {\n\ttype A struct{ X int }\n\treturn A{1}\n}\n_, ok := f().(B)\nfmt.Println(ok)", "cell:11:14", "B", "A"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newSession(t)
			out, _, err := exec(t, s, "import (\n\t\"fmt\"\n\t\"image\"\n)\n_ = image.Point{}\n"+c.cell)
			var ce *CellError
			if !errors.As(err, &ce) || ce.Name != "Unsupported" {
				t.Fatalf("got stdout %q, error %v; want Unsupported", out, err)
			}
			if !strings.HasPrefix(ce.Value, c.pos+": ") || !strings.Contains(ce.Value, "cannot tell "+c.target+" from "+c.other+",") {
				t.Errorf("error %q: want it at %s, naming %s and %s", ce.Value, c.pos, c.target, c.other)
			}
		})
	}
	t.Run("second cell", func(t *testing.T) { // the look-alike declared by an earlier cell
		s := newSession(t)
		if _, _, err := exec(t, s, "import \"fmt\"\ntype A struct{ X int }"); err != nil {
			t.Fatal(err)
		}
		if _, _, err := exec(t, s, "type B struct{ X int }"); err != nil {
			t.Fatal(err)
		}
		_, _, err := exec(t, s, "var x any = B{1}\nv, ok := x.(A)\nfmt.Println(v, ok)")
		if err == nil || !strings.Contains(err.Error(), "cell:2:12: a type assertion to A: the interpreter cannot tell A from B") {
			t.Errorf("error %v: want the assertion to A refused", err)
		}
	})
}

// TestLookalikeUnambiguous runs assertions and type switches that no look-alike makes ambiguous:
// each prints what `go run` prints for the same program.
func TestLookalikeUnambiguous(t *testing.T) {
	cases := []struct{ name, cell, want string }{
		{"distinct shapes", "type A struct{ X int }\ntype B struct{ Y int }\nvar x any = B{1}\na, ok := x.(A)\nb, ok2 := x.(B)\nfmt.Println(a, ok, b, ok2)",
			"{0} false {1} true\n"},
		{"switch on a cell interface", "type I interface{ M() int }\ntype A struct{ X int }\nfunc (a A) M() int { return a.X }\ntype B struct{ X, Y int }\nfunc (b B) M() int { return b.Y }\nfor _, x := range []I{A{1}, B{2, 3}} {\n\tswitch v := x.(type) {\n\tcase A:\n\t\tfmt.Println(\"A\", v.X)\n\tcase B:\n\t\tfmt.Println(\"B\", v.Y)\n\t}\n}",
			"A 1\nB 3\n"},
		{"field names differ", "type A struct{ X int }\ntype B struct{ X, Y int }\ntype C struct{ Z int }\nvar x any = C{3}\n_, ok := x.(A)\nfmt.Println(ok, x.(C).Z)",
			"false 3\n"},
		{"built-in types", "type A struct{ X int }\nfor _, x := range []any{1, \"s\", 2.5, nil} {\n\tswitch v := x.(type) {\n\tcase int:\n\t\tfmt.Println(\"int\", v)\n\tcase string, float64:\n\t\tfmt.Println(\"string or float64\", v)\n\tcase nil:\n\t\tfmt.Println(\"nil\")\n\t}\n}\n_, ok := any(3).(string)\n_, ok2 := any(A{1}).(int)\nfmt.Println(ok, ok2)",
			"int 1\nstring or float64 s\nstring or float64 2.5\nnil\nfalse false\n"},
		{"only the pointer implements", "type I interface{ M() int }\ntype A struct{ X int }\nfunc (a A) M() int { return a.X }\ntype B struct{ X int }\nfunc (b *B) M() int { return -b.X }\nfor _, x := range []I{A{1}, &B{2}} {\n\ta, ok := x.(A)\n\tfmt.Println(a, ok, x.M())\n}",
			"{1} true 1\n{0} false -2\n"},
		{"compiled struct", "var x any = image.Point{1, 2}\np, ok := x.(image.Point)\nfmt.Println(p, ok)",
			"(1,2) true\n"},
		{"pointer to a compiled look-alike", "type P struct{ X, Y int }\nvar x any = &image.Point{1, 2}\n_, ok := x.(*P)\np, ok2 := x.(*image.Point)\nfmt.Println(ok, *p, ok2)",
			"false (1,2) true\n"},
		{"comparisons with a compiled look-alike", "type P struct{ X, Y int }\nvar y any = image.Point{1, 2}\nvar p any = &P{1, 2}\nfmt.Println(y == P{1, 2}, y == image.Pt(1, 2), p == &P{1, 2})",
			"false true false\n"},
		{"pointers of distinct shapes", "type A struct{ X int }\ntype B struct{ X string }\nvar x any = &B{\"b\"}\n_, ok := x.(*A)\nb, ok2 := x.(*B)\nfmt.Println(ok, b.X, ok2)",
			"false b true\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newSession(t)
			out, _, err := exec(t, s, "import (\n\t\"fmt\"\n\t\"image\"\n)\n_ = image.Point{}\n"+c.cell)
			if err != nil || out != c.want {
				t.Errorf("got %q, %v; want %q", out, err, c.want)
			}
		})
	}
}
