package session

import "testing"

// TestOneEdit: the typos nearName takes for a type the cell could mean, and what it does not.
func TestOneEdit(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"flaot64", "float64", true}, {"floa64", "float64", true}, {"float644", "float64", true},
		{"Pionts", "Points", true}, {"strin", "string", true}, {"element", "elements", true},
		{"element", "List", false}, {"int", "int", false}, {"widget", "width", false}, {"ab", "ba", true},
	} {
		if got := oneEdit(tc.a, tc.b); got != tc.want {
			t.Errorf("oneEdit(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
