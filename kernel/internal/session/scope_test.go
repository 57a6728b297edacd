package session

import (
	"reflect"
	"testing"
)

// TestScopeReflection fails if a new yaegi moves the fields scope.go reaches by reflection:
// the package scope's names, the compiled trees and the child scopes.
func TestScopeReflection(t *testing.T) {
	s := newSession(t)
	if _, _, err := exec(t, s, "kept := 1\nfunc helper() int { return kept }"); err != nil {
		t.Fatal(err)
	}
	if !s.declaredInInterpreter("kept") || !s.declaredInInterpreter("helper") {
		t.Fatal("the package scope does not hold the cell's names")
	}
	snap := s.snapshot()
	s.forget("kept")
	if s.declaredInInterpreter("kept") {
		t.Error("forget left the name")
	}
	s.restore(snap)
	if !s.declaredInInterpreter("kept") {
		t.Error("restore did not bring the name back")
	}
	in := reflect.ValueOf(s.in).Elem()
	if n := field(in, "roots").Len(); n != 0 {
		t.Errorf("%d compiled trees kept after a cell", n)
	}
	if n := field(field(in, "scopes").MapIndex(reflect.ValueOf("main")).Elem(), "child").Len(); n != 0 {
		t.Errorf("%d child scopes kept after a cell", n)
	}
	if _, res, err := exec(t, s, "helper()"); err != nil || res != "1" {
		t.Errorf("helper() = %q, %v after dropping the compiled trees", res, err)
	}
}

// declaredInInterpreter reports whether package main has name.
func (s *Session) declaredInInterpreter(name string) bool {
	sym := s.mainScope()
	return sym.IsValid() && sym.MapIndex(reflect.ValueOf(name)).IsValid()
}
