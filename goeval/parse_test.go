package goeval

import "testing"

func TestFuncBodyEnd(t *testing.T) {
	cases := []struct {
		name, src string
		want      string // src[:end]; "" when the body never closes
	}{
		{"simple", "func f() { return }\nfunc g() {}", "func f() { return }"},
		{"doc example", "func f() { s := \"}\" }\nfunc g() {}", "func f() { s := \"}\" }"},
		{"brace in a string", "func f() { s := \"}\"; _ = s }", "func f() { s := \"}\"; _ = s }"},
		{"brace in a raw string", "func f() { s := `{\n}}`; _ = s }xx", "func f() { s := `{\n}}`; _ = s }"},
		{"brace in a rune", "func f() { r := '}'; _ = r }", "func f() { r := '}'; _ = r }"},
		{"brace in a line comment", "func f() {\n\t// }\n}\n", "func f() {\n\t// }\n}"},
		{"brace in a block comment", "func f() { /* } */ }", "func f() { /* } */ }"},
		{"nested blocks and a closure", "func f() {\n\tif x {\n\t\tgo func() { y() }()\n\t}\n}\n// more", "func f() {\n\tif x {\n\t\tgo func() { y() }()\n\t}\n}"},
		{"composite literal", "func f() { _ = []int{1, 2} }", "func f() { _ = []int{1, 2} }"},
		{"struct type in the signature", "func f(x struct{ a int }) struct{} { return struct{}{} }", "func f(x struct{ a int }) struct{} { return struct{}{} }"},
		{"interface result", "func f() interface{} { return nil }", "func f() interface{} { return nil }"},
		{"after a header with a var block", "package p\n\nvar v = map[string]int{\"a\": 1}\n\n// f does { nothing\nfunc f() {\n}\nrest", "package p\n\nvar v = map[string]int{\"a\": 1}\n\n// f does { nothing\nfunc f() {\n}"},
		{"method", "func (r *R) M() { r.x++ }", "func (r *R) M() { r.x++ }"},
		{"never closes", "func f() {\n\tif x {\n\t}\n", ""},
		{"unterminated string", "func f() {\n\ts := \"}\n", ""},
		{"no function", "var x = struct{}{}", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			end, ok := FuncBodyEnd(c.src)
			if !ok {
				if c.want != "" {
					t.Errorf("FuncBodyEnd(%q) found no end, want %q", c.src, c.want)
				}
				return
			}
			if got := c.src[:end]; got != c.want {
				t.Errorf("FuncBodyEnd(%q) = %d: %q, want %q", c.src, end, got, c.want)
			}
		})
	}
}

func TestParseFunc(t *testing.T) {
	cases := []struct {
		name, src string
		stmts     int
		ok        bool
	}{
		{"three statements", ParsePrompt + "\n\tx := 1\n\tfmt.Println(x)\n\tos.Exit(0)\n}\n", 3, true},
		{"nested statements count once", ParsePrompt + "\n\tif len(os.Args) > 1 {\n\t\tfmt.Println(1)\n\t\tfmt.Println(2)\n\t}\n}", 1, true},
		{"empty body", ParsePrompt + "\n}", 0, true},
		{"syntax error", ParsePrompt + "\n\tif !v.Errorf(\"g := make %v\", n.Tag\")\n}", 0, false},
		{"unbalanced", ParsePrompt + "\n\tx := []int{1, 2\n}\n", 0, false},
		{"not closed", ParsePrompt + "\n\tfmt.Println(\"}\")\n", 0, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			end, closed := FuncBodyEnd(c.src)
			stmts, ok := ParseFunc(c.src, end, closed)
			if stmts != c.stmts || ok != c.ok {
				t.Errorf("ParseFunc(%q) = %d, %v; want %d, %v", c.src[len(ParsePrompt):], stmts, ok, c.stmts, c.ok)
			}
		})
	}
}
