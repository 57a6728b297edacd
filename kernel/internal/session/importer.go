package session

import (
	"errors"
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/gptnotes/gptnotes/kernel/modules"
)

// importer is a go/types importer of the packages cells can import, built from what the kernel
// holds at run time: the yaegi symbol tables of the compiled packages, read through reflect, and
// the Go source of the kernel's own source packages. It needs no Go toolchain, GOROOT source or
// export data. Packages are built on first import and cached.
//
// What the tables cannot tell, the packages lack: parameter names, generic functions and types
// (yaegi extract skips them; an instantiation reflect shows, such as atomic.Pointer[T], becomes an
// opaque named type of that name), a concrete type's unexported methods (see seal), and whether
// an untyped integer constant was a rune (unicode.MaxRune is an untyped int here).
//
// An importer is not safe for concurrent use.
type importer struct {
	tables  map[string]map[string]reflect.Value // compiled packages: import path → symbol → value
	names   map[string]string                   // import path → package name
	sources map[string]string                   // source packages: import path → one file
	fset    *token.FileSet                      // the source packages' files

	// modules finds a module's package (modules.go): its directory and the files to check.
	// nil: no modules. checked hears of each module package checked, with its files, and may
	// refuse it (a construct the interpreter gets wrong).
	modules func(path string) (dir string, files []string, err error)
	checked func(path string, fset *token.FileSet, files []*ast.File, info *types.Info) error

	imported map[string]importResult        // Import's answers, by path
	pkgs     map[string]*types.Package      // every package a type or an import named, by path
	named    map[reflect.Type]*types.Named  // the named types made so far
	concrete []reflect.Type                 // the named non-interface types, in order made
	sealed   []reflect.Type                 // the named interfaces with unexported methods
	paired   struct{ concrete, sealed int } // how many of each seal has paired
}

// importResult is what Import answered for a path.
type importResult struct {
	pkg *types.Package
	err error
}

// noSuchPackage is the importer's reason for a path it has no package for.
const noSuchPackage = "the kernel has no such package"

// newImporter returns an importer of the compiled packages in tables (import path → symbol name →
// value, as yaegi's interp.Exports keyed "path/name" flattened to path by the caller), named by
// names (import path → package name), and of the source packages in sources (import path → one
// file's source, package clause included; used for the kernel's own "slices" replacement). A path
// in both is the source package.
func newImporter(tables map[string]map[string]reflect.Value, names map[string]string, sources map[string]string) *importer {
	return &importer{
		tables:   tables,
		names:    names,
		sources:  sources,
		fset:     token.NewFileSet(),
		imported: map[string]importResult{},
		pkgs:     map[string]*types.Package{},
		named:    map[reflect.Type]*types.Named{},
	}
}

// Import returns the package at path, complete, building it on first use.
func (im *importer) Import(path string) (*types.Package, error) {
	if r, ok := im.imported[path]; ok {
		return r.pkg, r.err
	}
	var r importResult
	if _, ok := im.tables[path]; ok && path == "unsafe" {
		// The kernel has package unsafe: Go's own. Its builtins (Sizeof, Offsetof, Slice, …)
		// are no functions a table can describe, and its Pointer must be go/types' (typ
		// converts reflect's unsafe.Pointer kind to types.Typ[types.UnsafePointer]).
		r.pkg = types.Unsafe
	} else if src, ok := im.sources[path]; ok {
		// The answer while path is being checked: a source package importing itself.
		im.imported[path] = importResult{err: fmt.Errorf("import cycle through %s", path)}
		r.pkg, r.err = im.check(path, src)
	} else if table, ok := im.tables[path]; ok {
		r.pkg = im.compiled(path, table)
	} else if dir, files, err := im.module(path); !errors.Is(err, modules.ErrNotModulePath) {
		if err != nil {
			// Not remembered: the network may be back, or a pin changed, on the next try.
			delete(im.imported, path)
			return nil, err
		}
		im.imported[path] = importResult{err: fmt.Errorf("import cycle through %s", path)}
		r.pkg, r.err = im.checkDir(path, dir, files)
		if r.err != nil {
			delete(im.imported, path)
			return nil, r.err
		}
	} else {
		r.err = fmt.Errorf("could not import %s (%s)", path, noSuchPackage)
	}
	im.imported[path] = r
	return r.pkg, r.err
}

// forget drops what Import answered for path: the next import checks it again (a package
// beside the notebook that changed).
func (im *importer) forget(path string) { delete(im.imported, path) }

// ImportFrom is Import: the kernel's packages do not depend on the importing directory or mode.
func (im *importer) ImportFrom(path, dir string, mode types.ImportMode) (*types.Package, error) {
	return im.Import(path)
}

// check type-checks the source package at path, importing what it imports through im.
func (im *importer) check(path, src string) (*types.Package, error) {
	f, err := parser.ParseFile(im.fset, path+".go", src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	conf := types.Config{Importer: im}
	return conf.Check(path, im.fset, []*ast.File{f}, nil)
}

// module asks im.modules for the module package at path.
func (im *importer) module(path string) (dir string, files []string, err error) {
	if im.modules == nil {
		return "", nil, modules.ErrNotModulePath
	}
	return im.modules(path)
}

// checkDir type-checks the module package at path from its files in dir. Go's compiler has
// accepted them, so an error here is the importer's gap (a generic function of a compiled
// package it cannot describe), not the module's: the package is kept with what the check
// found. A file that does not parse is an error.
func (im *importer) checkDir(path, dir string, names []string) (*types.Package, error) {
	var files []*ast.File
	for _, name := range names {
		f, err := parser.ParseFile(im.fset, filepath.Join(dir, name), nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, fmt.Errorf("package %s: %w", path, err)
		}
		files = append(files, f)
	}
	conf := types.Config{Importer: im, Error: func(error) {}}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}, Defs: map[*ast.Ident]types.Object{}, Types: map[ast.Expr]types.TypeAndValue{}}
	pkg, _ := conf.Check(path, im.fset, files, info)
	if im.checked != nil {
		if err := im.checked(path, im.fset, files, info); err != nil {
			return nil, err
		}
	}
	return pkg, nil
}

// compiled builds the package at path from its symbol table. Names starting with "_" are yaegi's
// interface wrappers, not the package's.
func (im *importer) compiled(path string, table map[string]reflect.Value) *types.Package {
	pkg := im.pkg(path)
	for name, v := range table {
		if !strings.HasPrefix(name, "_") {
			pkg.Scope().Insert(im.object(pkg, name, v))
		}
	}
	if src, ok := preludeGenerics[path]; ok {
		im.addGenerics(pkg, src)
	}
	im.seal()
	pkg.MarkComplete()
	return pkg
}

// object is the package-level object name of pkg for its symbol table value v, written as yaegi
// extract writes them:
//
//	reflect.ValueOf(&pkg.Var).Elem()                    a variable: addressable
//	reflect.ValueOf(pkg.Func)                           a function
//	reflect.ValueOf((*pkg.Type)(nil))                   a type: a nil pointer to it
//	reflect.ValueOf(constant.MakeFromLiteral(…))        an untyped constant
//	reflect.ValueOf(pkg.Const)                          a typed constant
func (im *importer) object(pkg *types.Package, name string, v reflect.Value) types.Object {
	switch {
	case v.CanAddr():
		return types.NewVar(token.NoPos, pkg, name, im.typ(v.Type()))
	case v.Kind() == reflect.Func:
		return types.NewFunc(token.NoPos, pkg, name, im.signature(v.Type(), nil))
	case v.Kind() == reflect.Pointer && v.IsNil():
		return im.typeName(pkg, name, v.Type().Elem())
	}
	if c, ok := v.Interface().(constant.Value); ok {
		return types.NewConst(token.NoPos, pkg, name, types.Typ[untypedKinds[c.Kind()]], c)
	}
	return im.typedConst(pkg, name, v)
}

// untypedKinds are the untyped basic types of the go/constant kinds.
var untypedKinds = map[constant.Kind]types.BasicKind{
	constant.Unknown: types.Invalid,
	constant.Bool:    types.UntypedBool,
	constant.String:  types.UntypedString,
	constant.Int:     types.UntypedInt,
	constant.Float:   types.UntypedFloat,
	constant.Complex: types.UntypedComplex,
}

// typedConst is the constant name of pkg with v's type and value. A value of a kind no constant
// has (a table may hold a map, say) is a variable.
func (im *importer) typedConst(pkg *types.Package, name string, v reflect.Value) types.Object {
	var c constant.Value
	switch v.Kind() {
	case reflect.Bool:
		c = constant.MakeBool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		c = constant.MakeInt64(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		c = constant.MakeUint64(v.Uint())
	case reflect.Float32, reflect.Float64:
		c = constant.MakeFloat64(v.Float())
	case reflect.Complex64, reflect.Complex128:
		z := v.Complex()
		c = constant.BinaryOp(constant.MakeFloat64(real(z)), token.ADD, constant.MakeImag(constant.MakeFloat64(imag(z))))
	case reflect.String:
		c = constant.MakeString(v.String())
	default:
		return types.NewVar(token.NoPos, pkg, name, im.typ(v.Type()))
	}
	return types.NewConst(token.NoPos, pkg, name, im.typ(v.Type()), c)
}

// typeName is the type name of pkg for t: t's own name, or an alias when t is declared elsewhere
// or under another name (os.FileMode is io/fs's FileMode).
func (im *importer) typeName(pkg *types.Package, name string, t reflect.Type) *types.TypeName {
	typ := im.typ(t)
	if n, ok := typ.(*types.Named); ok && n.Obj().Pkg() == pkg && n.Obj().Name() == name {
		return n.Obj()
	}
	return types.NewAlias(types.NewTypeName(token.NoPos, pkg, name, nil), typ).Obj()
}

// pkg is the package at path, made on first mention with its name from im.names, else the
// path's last element. A package no table holds (an internal one a type lives in) is complete as
// made: nothing imports it. The empty path (exported members of unnamed types) is no package.
func (im *importer) pkg(path string) *types.Package {
	if path == "" {
		return nil
	}
	if p, ok := im.pkgs[path]; ok {
		return p
	}
	name, ok := im.names[path]
	if !ok {
		name = path[strings.LastIndex(path, "/")+1:]
	}
	p := types.NewPackage(path, name)
	if _, ok := im.tables[path]; !ok {
		p.MarkComplete()
	}
	im.pkgs[path] = p
	return p
}

// typ converts t to its go/types type.
func (im *importer) typ(t reflect.Type) types.Type {
	switch {
	case t == errorType:
		return types.Universe.Lookup("error").Type()
	case t.PkgPath() == "" || t.Kind() == reflect.UnsafePointer:
		return im.structure(t) // unnamed, predeclared or unsafe.Pointer
	}
	return im.namedType(t)
}

var errorType = reflect.TypeFor[error]()

// namedType is the one *types.Named of the named type t, made on first use: the Named first, so
// that a recursive type finds it, then its underlying type and methods. reflect lists the
// exported methods: the value receiver ones of t, and those of *t not in t, which have pointer
// receivers. An interface's methods are its underlying type's.
func (im *importer) namedType(t reflect.Type) *types.Named {
	if n, ok := im.named[t]; ok {
		return n
	}
	pkg := im.pkg(t.PkgPath())
	n := types.NewNamed(types.NewTypeName(token.NoPos, pkg, t.Name(), nil), nil, nil)
	im.named[t] = n
	n.SetUnderlying(im.structure(t))
	if t.Kind() == reflect.Interface {
		if hasUnexported(t) {
			im.sealed = append(im.sealed, t)
		}
		return n
	}
	im.concrete = append(im.concrete, t)
	for i := 0; i < t.NumMethod(); i++ {
		n.AddMethod(im.method(pkg, n, t.Method(i)))
	}
	pt := reflect.PointerTo(t)
	for i := 0; i < pt.NumMethod(); i++ {
		if m := pt.Method(i); !hasMethod(t, m.Name) {
			n.AddMethod(im.method(pkg, types.NewPointer(n), m))
		}
	}
	return n
}

// hasUnexported reports whether the interface t has an unexported method.
func hasUnexported(t reflect.Type) bool {
	for i := 0; i < t.NumMethod(); i++ {
		if t.Method(i).PkgPath != "" {
			return true
		}
	}
	return false
}

// hasMethod reports whether t's method set has the exported method name.
func hasMethod(t reflect.Type, name string) bool {
	_, ok := t.MethodByName(name)
	return ok
}

// method is the method m of pkg with receiver type recv; m.Type has the receiver first.
func (im *importer) method(pkg *types.Package, recv types.Type, m reflect.Method) *types.Func {
	return types.NewFunc(token.NoPos, pkg, m.Name, im.signature(m.Type, types.NewParam(token.NoPos, pkg, "", recv)))
}

// basicKinds are the go/types basic types of reflect's basic kinds.
var basicKinds = map[reflect.Kind]types.BasicKind{
	reflect.Bool: types.Bool, reflect.String: types.String, reflect.UnsafePointer: types.UnsafePointer,
	reflect.Int: types.Int, reflect.Int8: types.Int8, reflect.Int16: types.Int16, reflect.Int32: types.Int32, reflect.Int64: types.Int64,
	reflect.Uint: types.Uint, reflect.Uint8: types.Uint8, reflect.Uint16: types.Uint16, reflect.Uint32: types.Uint32, reflect.Uint64: types.Uint64,
	reflect.Uintptr: types.Uintptr, reflect.Float32: types.Float32, reflect.Float64: types.Float64,
	reflect.Complex64: types.Complex64, reflect.Complex128: types.Complex128,
}

// chanDirs are the go/types channel directions of reflect's.
var chanDirs = map[reflect.ChanDir]types.ChanDir{
	reflect.BothDir: types.SendRecv, reflect.SendDir: types.SendOnly, reflect.RecvDir: types.RecvOnly,
}

// structure is t's type as if unnamed: for a named type, its underlying type.
func (im *importer) structure(t reflect.Type) types.Type {
	if k, ok := basicKinds[t.Kind()]; ok {
		return types.Typ[k]
	}
	switch t.Kind() {
	case reflect.Array:
		return types.NewArray(im.typ(t.Elem()), int64(t.Len()))
	case reflect.Slice:
		return types.NewSlice(im.typ(t.Elem()))
	case reflect.Map:
		return types.NewMap(im.typ(t.Key()), im.typ(t.Elem()))
	case reflect.Chan:
		return types.NewChan(chanDirs[t.ChanDir()], im.typ(t.Elem()))
	case reflect.Pointer:
		return types.NewPointer(im.typ(t.Elem()))
	case reflect.Func:
		return im.signature(t, nil)
	case reflect.Interface:
		return im.interfaceType(t)
	case reflect.Struct:
		return im.structType(t)
	}
	return types.Typ[types.Invalid] // reflect.Invalid: no type
}

// signature converts the function type t; with a receiver, t's first parameter is the receiver's.
func (im *importer) signature(t reflect.Type, recv *types.Var) *types.Signature {
	first := 0
	if recv != nil {
		first = 1
	}
	var params, results []*types.Var
	for i := first; i < t.NumIn(); i++ {
		params = append(params, types.NewParam(token.NoPos, nil, "", im.typ(t.In(i))))
	}
	for i := 0; i < t.NumOut(); i++ {
		results = append(results, types.NewParam(token.NoPos, nil, "", im.typ(t.Out(i))))
	}
	return types.NewSignatureType(recv, nil, nil, types.NewTuple(params...), types.NewTuple(results...), t.IsVariadic())
}

// interfaceType converts the interface type t, whose method set reflect lists whole: exported and
// unexported methods, its embedded interfaces' included. An empty one is any.
func (im *importer) interfaceType(t reflect.Type) types.Type {
	if t.NumMethod() == 0 {
		return types.Universe.Lookup("any").Type().Underlying()
	}
	methods := make([]*types.Func, t.NumMethod())
	for i := range methods {
		m := t.Method(i)
		methods[i] = types.NewFunc(token.NoPos, im.memberPkg(t, m.PkgPath), m.Name, im.signature(m.Type, nil))
	}
	return types.NewInterfaceType(methods, nil).Complete()
}

// structType converts the struct type t: all its fields, unexported and embedded ones included,
// with their tags.
func (im *importer) structType(t reflect.Type) *types.Struct {
	fields := make([]*types.Var, t.NumField())
	tags := make([]string, t.NumField())
	for i := range fields {
		f := t.Field(i)
		fields[i] = types.NewField(token.NoPos, im.memberPkg(t, f.PkgPath), f.Name, im.typ(f.Type), f.Anonymous)
		tags[i] = string(f.Tag)
	}
	return types.NewStruct(fields, tags)
}

// memberPkg is the package of a field or method of t whose reflect PkgPath is path: path for an
// unexported one, else t's own package (none for an unnamed t).
func (im *importer) memberPkg(t reflect.Type, path string) *types.Package {
	if path == "" {
		path = t.PkgPath()
	}
	return im.pkg(path)
}

// seal gives the named types the unexported methods of the sealed interfaces they implement.
// reflect lists no unexported method of a concrete type, yet *ast.Ident is an ast.Expr, which has
// the unexported exprNode: reflect's Implements, which sees them, tells which types have them.
// Each named type is paired once with each sealed interface, as both are made.
func (im *importer) seal() {
	for i, t := range im.concrete {
		from := 0
		if i < im.paired.concrete {
			from = im.paired.sealed // t has met the sealed interfaces before these
		}
		for _, s := range im.sealed[from:] {
			im.addUnexported(t, s)
		}
	}
	im.paired.concrete, im.paired.sealed = len(im.concrete), len(im.sealed)
}

// addUnexported gives the named type t the unexported methods of interface s of t's own package
// if t or *t implements s, with a value or pointer receiver to match. (Another package's it can
// only have by embedding a type that has them.) Named.AddMethod skips those t has already.
func (im *importer) addUnexported(t, s reflect.Type) {
	n := im.named[t]
	recv := types.Type(n)
	if !t.Implements(s) {
		if !reflect.PointerTo(t).Implements(s) {
			return
		}
		recv = types.NewPointer(n)
	}
	pkg := n.Obj().Pkg()
	for m := range im.named[s].Underlying().(*types.Interface).Methods() {
		if !m.Exported() && m.Pkg() == pkg {
			sig := m.Signature()
			r := types.NewParam(token.NoPos, pkg, "", recv)
			n.AddMethod(types.NewFunc(token.NoPos, pkg, m.Name(), types.NewSignatureType(r, nil, nil, sig.Params(), sig.Results(), sig.Variadic())))
		}
	}
}

// addGenerics declares in the compiled package pkg the generic functions whose source (the
// prelude's, preludeGenerics) is src: yaegi's tables cannot hold a generic function, and the
// prelude's version runs in its place (genericsOfPrelude). Only the signatures are checked.
func (im *importer) addGenerics(pkg *types.Package, src string) {
	f, err := parser.ParseFile(im.fset, pkg.Path()+"_generics.go", src, parser.SkipObjectResolution)
	if err != nil {
		panic("session: the prelude's generics of " + pkg.Path() + ": " + err.Error())
	}
	conf := types.Config{Importer: im, IgnoreFuncBodies: true}
	checked, err := conf.Check(pkg.Path(), im.fset, []*ast.File{f}, nil)
	if err != nil {
		panic("session: the prelude's generics of " + pkg.Path() + ": " + err.Error())
	}
	for _, name := range checked.Scope().Names() {
		if obj := checked.Scope().Lookup(name); obj.Exported() {
			pkg.Scope().Insert(obj)
		}
	}
}
