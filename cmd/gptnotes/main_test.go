package main

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// The package comment lists every registered subcommand, so that a new one cannot leave it
// stale (it once listed 4 of 9).
func TestDocListsEveryCommand(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "main.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	doc := f.Doc.Text()
	for name := range commands {
		if !strings.Contains(doc, "gptnotes "+name+" ") && !strings.Contains(doc, "gptnotes "+name+"\n") {
			t.Errorf("main.go's package comment does not list `gptnotes %s`", name)
		}
	}
}
