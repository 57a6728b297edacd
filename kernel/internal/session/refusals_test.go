package session

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestRefusals checks the table: every construct has its entry, each entry is filled in with
// what was found, and no two constructs share a name.
func TestRefusals(t *testing.T) {
	argIndex := regexp.MustCompile(`\{(\d)\}`)
	names := map[string]construct{}
	for k, r := range refusals {
		c := construct(k)
		if r.name == "" || r.detected == "" || r.instead == "" {
			t.Errorf("refusal %d: name %q, detected %q, instead %q: want all three", c, r.name, r.detected, r.instead)
			continue
		}
		if other, dup := names[r.name]; dup {
			t.Errorf("refusals %d and %d are both %q", other, c, r.name)
		}
		names[r.name] = c
		n := 0
		for _, m := range argIndex.FindAllStringSubmatch(r.detected+r.instead, -1) {
			i, _ := strconv.Atoi(m[1])
			n = max(n, i)
		}
		found := make([]string, n)
		for i := range found {
			found[i] = "F" + strconv.Itoa(i+1)
		}
		err := refused("cell:1:1", c, found...)
		if argIndex.MatchString(err.Value) || (n > 0 && !strings.Contains(err.Value, "F1")) {
			t.Errorf("refusal %q: %s", r.name, err.Value)
		}
		if !strings.HasPrefix(err.Value, "cell:1:1: ") || !strings.Contains(err.Value, " is not supported by the interpreter") {
			t.Errorf("refusal %q: %s", r.name, err.Value)
		}
	}
	if len(refusals) != int(lastConstruct)+1 {
		t.Errorf("%d refusals for %d constructs", len(refusals), lastConstruct+1)
	}
}
