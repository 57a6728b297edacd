package kernel

import (
	"strings"
	"testing"
)

func TestParseMemoryLimit(t *testing.T) {
	for in, want := range map[string]int64{
		"": 0, "0": 0, "536870912": 512 << 20, "512MiB": 512 << 20, "512M": 512 << 20, " 2GiB ": 2 << 30,
		"1.5G": 3 << 29, "64k": 64 << 10, "1 TiB": 1 << 40,
	} {
		got, err := ParseMemoryLimit(in)
		if err != nil || got != want {
			t.Errorf("ParseMemoryLimit(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"lots", "12 parsecs", "-1G", "G"} {
		if got, err := ParseMemoryLimit(in); err == nil {
			t.Errorf("ParseMemoryLimit(%q) = %d, want an error", in, got)
		}
	}
}

func TestMemoryLimitErrorSaysLimitAndUse(t *testing.T) {
	e := &MemoryLimitError{Limit: 2 << 30, Before: 100 << 20, At: 2200 << 20, After: 110 << 20}
	ce := e.cellError()
	if ce.Name != "MemoryLimit" {
		t.Errorf("name %q", ce.Name)
	}
	for _, want := range []string{"2.00 GiB", MemoryLimitEnv, "2.15 GiB", "added 2.05 GiB", "100 MiB the session held"} {
		if !strings.Contains(ce.Value, want) {
			t.Errorf("value %q lacks %q", ce.Value, want)
		}
	}
	if !strings.Contains(ce.Traceback[1], "110 MiB") || !strings.Contains(ce.Traceback[1], "freed") {
		t.Errorf("traceback %q", ce.Traceback)
	}
	e.After = 3 << 30
	if tb := e.cellError().Traceback[1]; !strings.Contains(tb, "still holds 3.00 GiB") {
		t.Errorf("after the stop, over the limit: %q", tb)
	}
}
