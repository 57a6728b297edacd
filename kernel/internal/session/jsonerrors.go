package session

import (
	"encoding/json"
	"errors"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// encoding/json's type errors name the struct that holds the field ("json: cannot unmarshal
// string into Go struct field response.page of type int"). A cell's struct types are unnamed to
// reflect (yaegi builds them with reflect.StructOf), so the error said "Go struct field .page".
// The kernel rewrites json.Unmarshal(data, v) and dec.Decode(v), v of a type holding a cell's
// structs, to pass the names of those structs by their JSON path along:
// __gptnotes.JSONUnmarshal(data, v, names), __gptnotes.JSONDecode(dec, v, names). The runtime
// puts the name back into the error.

// jsonStructNames maps the JSON path of each cell struct reachable from t ("" for t itself, then
// the field keys joined by ".", through pointers, slices, arrays and map values, as
// encoding/json builds UnmarshalTypeError.Field) to the struct's name. Nil when t holds none.
func jsonStructNames(t types.Type) map[string]string {
	names := map[string]string{}
	var walk func(t types.Type, path string, depth int)
	walk = func(t types.Type, path string, depth int) {
		if depth > 8 {
			return
		}
		switch u := t.Underlying().(type) {
		case *types.Pointer:
			walk(u.Elem(), path, depth+1)
		case *types.Slice:
			walk(u.Elem(), path, depth+1)
		case *types.Array:
			walk(u.Elem(), path, depth+1)
		case *types.Map:
			walk(u.Elem(), path, depth+1)
		case *types.Struct:
			if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil && n.Obj().Pkg().Path() == "main" {
				if _, seen := names[path]; seen {
					return
				}
				names[path] = n.Obj().Name()
			}
			for i := 0; i < u.NumFields(); i++ {
				f := u.Field(i)
				key := jsonKey(f.Name(), u.Tag(i))
				if !f.Exported() || key == "" {
					continue
				}
				if path != "" {
					key = path + "." + key
				}
				walk(f.Type(), key, depth+1)
			}
		}
	}
	walk(t, "", 0)
	if len(names) == 0 {
		return nil
	}
	return names
}

// jsonKey is the key encoding/json uses for a field: its json tag's name, else its name; "" for
// a field the tag leaves out ("-").
func jsonKey(name, tag string) string {
	v, ok := reflect.StructTag(tag).Lookup("json")
	if !ok {
		return name
	}
	if v == "-" {
		return ""
	}
	if k, _, _ := strings.Cut(v, ","); k != "" {
		return k
	}
	return name
}

// jsonCall rewrites a call of json.Unmarshal or (*json.Decoder).Decode whose target holds a
// cell's structs (see the file's comment); other calls stay as they are.
func (c *cellCtx) jsonCall(call *ast.CallExpr) ast.Expr {
	fn := c.callee(call)
	if fn == nil {
		return call
	}
	var target ast.Expr
	var args []ast.Expr
	switch fn.FullName() {
	case "encoding/json.Unmarshal":
		if len(call.Args) != 2 {
			return call
		}
		target, args = call.Args[1], []ast.Expr{call.Args[0], call.Args[1]}
	case "(*encoding/json.Decoder).Decode":
		sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
		if !ok || len(call.Args) != 1 {
			return call
		}
		target, args = call.Args[0], []ast.Expr{sel.X, call.Args[0]}
	default:
		return call
	}
	t := c.typeOf(target)
	if t == nil {
		return call
	}
	names := jsonStructNames(t)
	if names == nil {
		return call
	}
	pos := call.Pos()
	keys := make([]string, 0, len(names))
	for k := range names {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var elts []ast.Expr
	for _, k := range keys {
		elts = append(elts, &ast.KeyValueExpr{
			Key:   &ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(k)},
			Value: &ast.BasicLit{ValuePos: pos, Kind: token.STRING, Value: strconv.Quote(names[k])}})
	}
	table := &ast.CompositeLit{Type: &ast.MapType{Map: pos, Key: ast.NewIdent("string"), Value: ast.NewIdent("string")}, Lbrace: pos, Elts: elts, Rbrace: pos}
	name := "JSONUnmarshal"
	if fn.Name() == "Decode" {
		name = "JSONDecode"
	}
	return &ast.CallExpr{Fun: runtimeFuncAt(name, pos), Lparen: call.Lparen, Args: append(args, table), Rparen: call.Rparen}
}

// jsonUnmarshal is the runtime's JSONUnmarshal: json.Unmarshal, with the cell's struct names in
// its type error.
func jsonUnmarshal(data []byte, v any, names map[string]string) error {
	return nameStruct(json.Unmarshal(data, v), names)
}

// jsonDecode is the runtime's JSONDecode: dec.Decode, with the cell's struct names in its type
// error.
func jsonDecode(dec *json.Decoder, v any, names map[string]string) error {
	return nameStruct(dec.Decode(v), names)
}

// nameStruct puts the name of the struct that holds the field into err, a *json.UnmarshalTypeError
// whose struct is unnamed (a cell's).
func nameStruct(err error, names map[string]string) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Struct != "" || te.Field == "" {
		return err
	}
	parent := ""
	if i := strings.LastIndex(te.Field, "."); i >= 0 {
		parent = te.Field[:i]
	}
	te.Struct = names[parent]
	return err
}

// jsonExpr is the pass's expression step (jsonCall).
func jsonExpr(c *cellCtx, e ast.Expr) ast.Expr {
	if call, ok := e.(*ast.CallExpr); ok {
		return c.jsonCall(call)
	}
	return e
}
