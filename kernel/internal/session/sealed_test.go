package session

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// A sealed cell refuses a predeclared or package name that an earlier cell declared; an
// ordinary cell uses the declaration.
func TestSealedCellRefusesRedefinedNames(t *testing.T) {
	s := newSession(t)
	for _, code := range []string{`import "fmt"`, `func panic(v any) { fmt.Println("not a panic") }`, `type float64 = int`} {
		if _, err := runCell(t, s, code, 10*time.Second); err != nil {
			t.Fatalf("%q: %v", code, err)
		}
	}
	if r, err := runCell(t, s, `panic("x")`, 10*time.Second); err != nil || r.stdout() != "not a panic\n" {
		t.Fatalf("unsealed: %q, %v; want the cell's own panic", r.stdout(), err)
	}
	for code, name := range map[string]string{
		"//gptnotes:check\nif 1 > 0 {\n\tpanic(\"x\")\n}": "panic",
		"//gptnotes:check\nvar x float64 = 1\n_ = x":      "float64",
	} {
		_, err := runCell(t, s, code, 10*time.Second)
		var ce *CellError
		if !errors.As(err, &ce) || ce.Name != "CompileError" || !strings.Contains(ce.Value, "this check uses "+name+", which an earlier cell declared") {
			t.Errorf("%q: err = %v, want a CompileError naming %s", code, err, name)
		}
	}
	// The cell's own names, and the answers it checks, are the cell's to use.
	if _, err := runCell(t, s, "//gptnotes:check\nanswer := func() int { return 2 }\nif n := len(\"ab\"); n != answer() {\n\tfmt.Println(n)\n}", 10*time.Second); err != nil {
		t.Errorf("a sealed cell with its own names: %v", err)
	}
}

// A reserved function is refused in every cell but the ones that carry the kernel's key.
func TestReservedFunctionsAreTheChecksOwn(t *testing.T) {
	readSealEnv()
	key, res := checkKey, reserved
	t.Cleanup(func() { checkKey, reserved = key, res })
	checkKey, reserved = "k3y", map[string]bool{"strings.ToUpper": true, "strings.Builder.String": true}
	s := newSession(t)
	if _, err := runCell(t, s, `import "strings"`, 10*time.Second); err != nil {
		t.Fatal(err)
	}
	for _, code := range []string{
		`strings.ToUpper("a")`,
		"f := strings.ToUpper\n_ = f",
		"var b strings.Builder\nb.String()",
		"//gptnotes:check\nstrings.ToUpper(\"a\")",
		"//gptnotes:check wrong\nstrings.ToUpper(\"a\")",
	} {
		_, err := runCell(t, s, code, 10*time.Second)
		var ce *CellError
		if !errors.As(err, &ce) || !strings.Contains(ce.Value, "is the checks' own in this exam") {
			t.Errorf("%q: err = %v, want the reserved function refused", code, err)
		}
	}
	if _, err := runCell(t, s, "//gptnotes:check k3y\nvar b strings.Builder\nb.WriteString(strings.ToUpper(\"a\"))\nb.String()", 10*time.Second); err != nil {
		t.Errorf("with the key: %v", err)
	}
	if _, err := runCell(t, s, `strings.ToLower("A")`, 10*time.Second); err != nil {
		t.Errorf("a function not reserved: %v", err)
	}
}
