package main

import (
	"strings"
	"testing"
)

func TestReproduceUnknownRow(t *testing.T) {
	err := runReproduce([]string{"--out", t.TempDir(), "--only", "config,nope"})
	if err == nil || !strings.Contains(err.Error(), "unknown rows nope") {
		t.Errorf("--only nope: err = %v, want unknown rows nope", err)
	}
}
