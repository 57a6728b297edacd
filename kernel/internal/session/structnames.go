package session

import (
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"strconv"
	"strings"
)

// Struct names in tags: yaegi v0.16.1 builds an interpreted struct type as reflect.StructOf of
// its fields, without a name, so two named struct types of one structure are one reflect type,
// and an interface holding either answers yes to an assertion to both (lookalike.go). go-cmp's
// `type ignore struct{ core }` and `type validator struct{ core }` are such a pair: its
// Options.filter read every validator as ignore, and cmp.Equal([]int{1}, []int{2}) was true.
// A field's tag is part of a reflect struct type's identity, and yaegi hands each field's tag
// to reflect.StructOf; so the kernel writes the type's name into the tag of its first field:
//
//	type ignore struct{ core }
//	type validator struct{ core }
//
// become, in package github.com/google/go-cmp/cmp,
//
//	type ignore struct {
//		core `gptnotes:"github.com/google/go-cmp/cmp.ignore"`
//	}
//	type validator struct {
//		core `gptnotes:"github.com/google/go-cmp/cmp.validator"`
//	}
//
// and the two are two reflect types. A type declared inside a function has its file and line
// in the tag too. The key is appended to a tag the field has, so Tag.Get and the encoders read
// what they read before. What fmt prints of a value (%v, %+v) has no tags, the size is the
// same, and Go converts between struct types whose fields differ only in tags, as reflect's
// Convert does. What changes is yaegi's name for the type (%T, %#v, reflect's String), which
// was the structure, not Go's name, before too, and a field's whole tag read through reflect.
// A struct without fields has no field to carry a name: two such types are still refused
// (modulerefuse.go). The pass runs on module packages only; a cell's look-alikes are refused
// (lookalike.go), as a cell's program may print its struct tags.

// structNameKey is the tag key that carries a struct type's name.
const structNameKey = "gptnotes"

// nameStructs writes, into the first field's tag of each struct type f declares (package path
// path), the type's name: the module pass above. It reports whether it changed the file.
func nameStructs(path string, fset *token.FileSet, f *ast.File, info *types.Info) bool {
	changed := false
	ast.Inspect(f, func(n ast.Node) bool {
		ts, ok := n.(*ast.TypeSpec)
		if !ok || ts.Assign.IsValid() {
			return true
		}
		st, ok := ts.Type.(*ast.StructType)
		if !ok || st.Fields == nil || len(st.Fields.List) == 0 {
			return true
		}
		name := path + "." + ts.Name.Name
		if obj := info.Defs[ts.Name]; obj != nil && obj.Pkg() != nil && obj.Parent() != obj.Pkg().Scope() {
			p := fset.Position(ts.Name.Pos())
			name += " " + filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line)
		}
		field := st.Fields.List[0]
		tag := ""
		if field.Tag != nil {
			var err error
			if tag, err = strconv.Unquote(field.Tag.Value); err != nil {
				return true // not a string go/types accepted: leave it
			}
			tag += " "
		}
		tag += structNameKey + ":" + strconv.Quote(name)
		lit := "`" + tag + "`"
		if strings.Contains(tag, "`") {
			lit = strconv.Quote(tag)
		}
		pos := field.Type.End()
		if field.Tag != nil {
			pos = field.Tag.Pos()
		}
		field.Tag = &ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: lit}
		changed = true
		return true
	})
	return changed
}

// namedStruct reports whether the interpreter's type for n carries n's name (nameStructs): a
// struct type with fields of a module package it interprets.
func namedStruct(n *types.Named, interpreted func(*types.Named) bool) bool {
	p := n.Obj().Pkg()
	if p == nil || p.Path() == "main" || !interpreted(n) {
		return false
	}
	s, ok := n.Underlying().(*types.Struct)
	return ok && s.NumFields() > 0
}
