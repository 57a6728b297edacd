package session

import (
	"fmt"
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/traefik/yaegi/interp"

	"github.com/gptnotes/gptnotes/kernel/symbols"
	"github.com/gptnotes/gptnotes/kernel/symbols/stdlib"
)

// importerTables flattens yaegi's exports, keyed "path/name", to tables and names by import path,
// as the kernel does. The "." key (yaegi's wrapper map) and yaegi's hooks are no packages.
func importerTables(exports ...interp.Exports) (map[string]map[string]reflect.Value, map[string]string) {
	tables, names := map[string]map[string]reflect.Value{}, map[string]string{}
	for _, e := range exports {
		for key, table := range e {
			i := strings.LastIndex(key, "/")
			if i < 0 || key[:i] == yaegiHooks {
				continue
			}
			tables[key[:i]], names[key[:i]] = table, key[i+1:]
		}
	}
	return tables, names
}

// stdlibImporter is an importer of yaegi's standard library tables and of sources.
func stdlibImporter(sources map[string]string) *importer {
	tables, names := importerTables(stdlib.Symbols)
	return newImporter(tables, names, sources)
}

// checkFile type-checks src, a file of package main, importing through im: Go's error messages.
func checkFile(t *testing.T, im *importer, src string) []string {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "cell.go", src, 0)
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, src)
	}
	var errs []string
	conf := types.Config{Importer: im, Error: func(err error) { errs = append(errs, err.Error()) }}
	conf.Check("main", fset, []*ast.File{f}, nil)
	return errs
}

// TestImporterChecksPrograms type-checks programs using the standard library as cells do.
func TestImporterChecksPrograms(t *testing.T) {
	programs := map[string]string{
		"builder": `package main
import ("fmt"; "strings")
func main() {
	var b strings.Builder
	b.WriteString("x")
	fmt.Fprintf(&b, "%d", 1)
	var s string = b.String()
	p := &strings.Builder{}
	p.Grow(10)
	_ = fmt.Sprintf("%s %d %v", s, b.Len(), p)
}`,
		"os": `package main
import ("io"; "io/fs"; "os")
func main() {
	for i, a := range os.Args[1:] { _, _ = i, a+"" }
	var w io.Writer = os.Stdout
	var m fs.FileMode = os.ModeDir | 0o755
	f, err := os.OpenFile("x", os.O_RDONLY|os.O_CREATE, m)
	if err != nil { var pe *fs.PathError; _ = pe; return }
	defer f.Close()
	var fi os.FileInfo
	fi, _ = f.Stat()
	_, _ = w, fi.Mode().IsDir()
}`,
		"time": `package main
import ("fmt"; "time")
func main() {
	d := time.Second * 2
	var x time.Duration = d + 3*time.Millisecond
	fmt.Println(x.Seconds(), time.Now().Add(d).Format(time.RFC3339), time.January.String())
	var minutes [time.Hour / time.Minute]int
	_ = minutes[59]
	select { case <-time.After(time.Millisecond): case <-time.Tick(time.Second): }
}`,
		"math": `package main
import ("crypto/sha256"; "math")
func main() {
	var f float64 = math.Pi * 2
	var g float32 = math.Pi
	var i int64 = math.MaxInt64
	var u uint64 = math.MaxUint64
	_, _, _, _ = math.Sqrt(f)+float64(g), i, u, math.Inf(1)
	var sum [32]byte = sha256.Sum256(nil)
	_ = sum
}`,
		"reader": `package main
import ("bufio"; "io"; "strings")
type zeros struct{}
func (zeros) Read(p []byte) (int, error) { return len(p), nil }
func main() {
	var r io.Reader = zeros{}
	data, err := io.ReadAll(io.LimitReader(r, 10))
	_, _ = data, err
	sc := bufio.NewScanner(strings.NewReader("a\nb"))
	sc.Split(bufio.ScanWords)
	for sc.Scan() { _ = sc.Text() }
	if err := sc.Err(); err != nil { panic(err) }
	var rw io.ReadWriter = bufio.NewReadWriter(bufio.NewReader(r), bufio.NewWriter(io.Discard))
	_ = rw
}`,
		"errors": `package main
import ("errors"; "fmt"; "io/fs"; "os")
var errBase = errors.New("base")
func main() {
	err := fmt.Errorf("wrap: %w", errBase)
	if errors.Is(err, errBase) || errors.Is(err, os.ErrNotExist) { println(err.Error()) }
	var pe *fs.PathError
	_ = errors.As(err, &pe)
	var e error = &os.PathError{Op: "open", Path: "x", Err: errBase}
	_ = e
}`,
		"sort": `package main
import ("sort"; "strconv")
type byLen []string
func (b byLen) Len() int { return len(b) }
func (b byLen) Less(i, j int) bool { return len(b[i]) < len(b[j]) }
func (b byLen) Swap(i, j int) { b[i], b[j] = b[j], b[i] }
func main() {
	xs := []int{3, 1, 2}
	sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
	sort.Sort(sort.Reverse(sort.IntSlice(xs)))
	sort.Sort(byLen{"aa", "b"})
	n, err := strconv.Atoi(strconv.Itoa(xs[0]))
	_, _ = n, err
}`,
		"collections": `package main
import ("context"; "time")
func main() {
	m := map[string][]int{"a": {1}}
	m["b"] = append(m["b"], len(m))
	ch := make(chan int, 3)
	var recv <-chan int = ch
	go func(out chan<- int) { out <- 1 }(ch)
	v, ok := <-recv
	_, _ = v, ok
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	<-ctx.Done()
	_ = ctx.Err()
}`,
		"http": `package main
import ("fmt"; "net/http"; "net/http/httptest")
func main() {
	var h http.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusOK)
		fmt.Fprintln(w, r.URL.Path, r.Header.Get("Accept"))
	})
	mux := http.NewServeMux()
	mux.Handle("/", h)
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	_ = rec.Body.String() + rec.Result().Status
}`,
		"embedded": `package main
import ("bytes"; "io"; "sync")
type logBuf struct {
	bytes.Buffer
	sync.Mutex
	n int
}
func main() {
	var lb logBuf
	lb.Lock()
	lb.WriteString("x")
	lb.Unlock()
	var w io.Writer = &lb
	_, _ = w, lb.Len()+lb.n
}`,
		"json": `package main
import ("encoding/json"; "strings")
type point struct { X, Y int ` + "`json:\"x\"`" + ` }
func main() {
	b, err := json.Marshal(point{1, 2})
	var p point
	err = json.Unmarshal(b, &p)
	var m map[string]any
	err = json.NewDecoder(strings.NewReader("{}")).Decode(&m)
	_ = err
}`,
		"sealed": `package main
import ("go/ast"; "go/constant"; "go/token"; "go/types")
func main() {
	var e ast.Expr = &ast.Ident{Name: "x"}
	var s ast.Stmt = &ast.ExprStmt{X: e}
	var n ast.Node = s
	var o types.Object = types.NewVar(token.NoPos, nil, "x", types.Typ[types.Int])
	var c constant.Value = constant.MakeInt64(1)
	_, _, _ = n, o, c
}`,
		"unicode": `package main
import ("image/color"; "math/rand"; "unicode"; "unicode/utf8")
func main() {
	for _, r := range "héllo" {
		if r == utf8.RuneError || r > unicode.MaxRune || unicode.IsUpper(r) { return }
	}
	var c color.Color = color.RGBA{1, 2, 3, 255}
	r, g, b, a := c.RGBA()
	_, _, _, _ = r, g, b, a
	_ = rand.New(rand.NewSource(1)).Intn(10) + utf8.RuneLen('é')
}`,
	}
	if _, ok := reflect.TypeFor[*sync.WaitGroup]().MethodByName("Go"); ok {
		programs["waitgroup"] = `package main
import "sync"
func main() {
	var wg sync.WaitGroup
	var mu sync.Mutex
	n := 0
	wg.Go(func() { mu.Lock(); n++; mu.Unlock() })
	wg.Wait()
}`
	}
	im := stdlibImporter(nil)
	for _, name := range slices.Sorted(maps.Keys(programs)) {
		if errs := checkFile(t, im, programs[name]); len(errs) > 0 {
			t.Errorf("%s: unexpected errors:\n%s", name, strings.Join(errs, "\n"))
		}
	}
}

// TestImporterReportsErrors: wrong programs fail with Go's own messages.
func TestImporterReportsErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{`import "strings"; func f() { strings.NoSuchFunc() }`, "undefined: strings.NoSuchFunc"},
		{`var x int = "s"`, `cannot use "s" (untyped string constant) as int value in variable declaration`},
		{`import "strings"; func f() { (&strings.Builder{}).WriteString(1) }`,
			"cannot use 1 (untyped int constant) as string value in argument to (&strings.Builder{}).WriteString"},
		{`import ("io"; "strings"); var _ io.Writer = strings.Builder{}`, "method Write has pointer receiver"},
		{`import "time"; var d = time.Second; var i int = d`, "(variable of int64 type time.Duration) as int value"},
		{`import "math"; var _ uint8 = math.MaxUint16`, "math.MaxUint16 (untyped int constant 65535) as uint8 value"},
		{`import "math"; func f() { math.Pi = 3 }`, "cannot assign to math.Pi"},
		{`import "time"; var _ = time.Second.NoMethod()`, "time.Second.NoMethod undefined (type time.Duration has no field or method NoMethod)"},
		{`import "os"; var _ int = os.Args`, "cannot use os.Args (variable of type []string) as int value"},
		{`import ("go/ast"; "go/token"); type fake struct{}
func (fake) Pos() token.Pos { return 0 }
func (fake) End() token.Pos { return 0 }
var _ ast.Expr = fake{}`, "missing method exprNode"},
		{`import "time"; var _ chan time.Time = time.Tick(1)`, "(value of type <-chan time.Time) as chan time.Time value"},
		{`import "time"; func f() { time.After(1) <- time.Now() }`, "cannot send to receive-only channel"},
		{`import "bytes"; var _ = bytes.Buffer{buf: nil}`, "cannot refer to unexported field buf in struct literal of type bytes.Buffer"},
		{`import "fmt"; var _ = fmt.Sprintf(1)`, "cannot use 1 (untyped int constant) as string value in argument to fmt.Sprintf"},
		{`import "nosuch/pkg"`, "could not import nosuch/pkg"},
	}
	im := stdlibImporter(nil)
	for _, tt := range tests {
		errs := checkFile(t, im, "package main\n"+tt.src)
		if !strings.Contains(strings.Join(errs, "\n"), tt.want) {
			t.Errorf("%s\ngot errors %q, want one containing %q", tt.src, errs, tt.want)
		}
	}
	if _, err := im.Import("nosuch/pkg"); err == nil || err.Error() != "could not import nosuch/pkg (the kernel has no such package)" {
		t.Errorf("Import(nosuch/pkg) error = %v", err)
	}
}

// TestImporterConstants: untyped constants keep their kind and exact value, typed ones their type.
func TestImporterConstants(t *testing.T) {
	im := stdlibImporter(nil)
	tests := []struct{ path, name, typ, val string }{
		{"math", "Pi", "untyped float", "3.14159"},
		{"math", "MaxUint64", "untyped int", "18446744073709551615"},
		{"os", "DevNull", "untyped string", `"/dev/null"`},
		{"time", "Second", "time.Duration", "1000000000"},
		{"os", "ModeDir", "io/fs.FileMode", "2147483648"},
		{"os", "O_RDONLY", "int", "0"},
		{"go/token", "ADD", "go/token.Token", "12"},
	}
	for _, tt := range tests {
		pkg, err := im.Import(tt.path)
		if err != nil {
			t.Fatal(err)
		}
		c, ok := pkg.Scope().Lookup(tt.name).(*types.Const)
		if !ok {
			t.Errorf("%s.%s is %v, not a constant", tt.path, tt.name, pkg.Scope().Lookup(tt.name))
			continue
		}
		if got := c.Type().String(); got != tt.typ {
			t.Errorf("%s.%s has type %s, want %s", tt.path, tt.name, got, tt.typ)
		}
		got := c.Val().ExactString()
		if c.Val().Kind() == constant.Float {
			got = c.Val().String() // a float's exact string is a fraction
		}
		if !strings.HasPrefix(got, tt.val) {
			t.Errorf("%s.%s = %s, want %s", tt.path, tt.name, got, tt.val)
		}
	}
}

// TestImporterEveryPackage imports each package the kernel loads (the standard library's and the
// plugins' tables) into a file of its own: no panic, no error, every symbol of the table in the
// package's scope as the kind of object its value says.
func TestImporterEveryPackage(t *testing.T) {
	tables, names := importerTables(stdlib.Symbols, symbols.Symbols)
	im := newImporter(tables, names, nil)
	for _, path := range slices.Sorted(maps.Keys(tables)) {
		if errs := checkFile(t, im, "package main\nimport _ "+`"`+path+`"`); len(errs) > 0 {
			t.Errorf("import %s: %s", path, strings.Join(errs, "\n"))
			continue
		}
		pkg, _ := im.Import(path)
		if !pkg.Complete() || pkg.Name() != names[path] || pkg.Path() != path {
			t.Errorf("%s: package %s %q, complete %v", path, pkg.Path(), pkg.Name(), pkg.Complete())
		}
		for name, v := range tables[path] {
			if strings.HasPrefix(name, "_") {
				continue
			}
			obj := pkg.Scope().Lookup(name)
			var ok bool
			switch {
			case v.CanAddr():
				_, ok = obj.(*types.Var)
			case v.Kind() == reflect.Func && path == "unsafe":
				_, ok = obj.(*types.Builtin) // Go's unsafe: the table's functions stand for its builtins
			case v.Kind() == reflect.Func:
				_, ok = obj.(*types.Func)
			case v.Kind() == reflect.Pointer && v.IsNil():
				_, ok = obj.(*types.TypeName)
			default:
				_, isConst := obj.(*types.Const)
				_, isVar := obj.(*types.Var) // a value of a kind no constant has
				ok = isConst || isVar
			}
			if !ok {
				t.Errorf("%s.%s: table value %v, scope object %v", path, name, v.Type(), obj)
			}
		}
	}
}

// TestImporterAgreesWithReflect: for every type in the tables, go/types and reflect agree on the
// exported method sets of T and *T, and on which of the package's interfaces (and a few common
// ones) T and *T implement.
func TestImporterAgreesWithReflect(t *testing.T) {
	tables, names := importerTables(stdlib.Symbols, symbols.Symbols)
	im := newImporter(tables, names, nil)
	common := []reflect.Type{reflect.TypeFor[error]()}
	for _, p := range [][2]string{{"fmt", "Stringer"}, {"io", "Reader"}, {"io", "Writer"}, {"io", "Closer"}, {"go/ast", "Expr"}} {
		common = append(common, tables[p[0]][p[1]].Type().Elem())
	}
	for _, path := range slices.Sorted(maps.Keys(tables)) {
		if _, err := im.Import(path); err != nil {
			t.Fatal(err)
		}
		var concrete, ifaces []reflect.Type
		for name, v := range tables[path] {
			if strings.HasPrefix(name, "_") || v.Kind() != reflect.Pointer || !v.IsNil() || v.CanAddr() {
				continue
			}
			if rt := v.Type().Elem(); rt.Kind() == reflect.Interface {
				ifaces = append(ifaces, rt)
			} else {
				concrete = append(concrete, rt, reflect.PointerTo(rt))
			}
		}
		for _, rt := range concrete {
			tt := im.typ(rt)
			if rt.Kind() == reflect.Struct {
				if got, want := fieldsOf(tt.Underlying().(*types.Struct)), reflectFields(rt); !slices.Equal(got, want) {
					t.Errorf("%v: go/types fields %q, reflect fields %q", rt, got, want)
				}
			}
			if got, want := exportedMethods(types.NewMethodSet(tt)), reflectMethods(rt); !slices.Equal(got, want) {
				t.Errorf("%v: go/types methods %v, reflect methods %v", rt, got, want)
			}
			for _, it := range append(ifaces, common...) {
				iface := im.typ(it).Underlying().(*types.Interface)
				if got, want := types.Implements(tt, iface), rt.Implements(it); got != want {
					t.Errorf("%v implements %v: go/types %v, reflect %v", rt, it, got, want)
				}
			}
		}
	}
}

// fieldsOf describes the fields of s: name, package if unexported, embedded, tag.
func fieldsOf(s *types.Struct) []string {
	var fields []string
	for i := range s.NumFields() {
		f, path := s.Field(i), ""
		if !f.Exported() && f.Pkg() != nil {
			path = f.Pkg().Path()
		}
		fields = append(fields, fmt.Sprintf("%s %s %v %s", f.Name(), path, f.Embedded(), s.Tag(i)))
	}
	return fields
}

// reflectFields describes the fields of t as fieldsOf does.
func reflectFields(t reflect.Type) []string {
	var fields []string
	for i := range t.NumField() {
		f := t.Field(i)
		fields = append(fields, fmt.Sprintf("%s %s %v %s", f.Name, f.PkgPath, f.Anonymous, f.Tag))
	}
	return fields
}

// exportedMethods are the names of the exported methods in ms, sorted.
func exportedMethods(ms *types.MethodSet) []string {
	var names []string
	for i := range ms.Len() {
		if obj := ms.At(i).Obj(); obj.Exported() {
			names = append(names, obj.Name())
		}
	}
	slices.Sort(names)
	return names
}

// reflectMethods are the names of t's exported methods, sorted.
func reflectMethods(t reflect.Type) []string {
	var names []string
	for i := range t.NumMethod() {
		if m := t.Method(i); m.IsExported() {
			names = append(names, m.Name)
		}
	}
	slices.Sort(names)
	return names
}

// TestImporterSourcePackage imports generic source packages: one importing another and the
// standard library, and the kernel's own slices replacement.
func TestImporterSourcePackage(t *testing.T) {
	im := stdlibImporter(map[string]string{
		"example.com/ord": `package ord
type Ordered interface { ~int | ~string | ~float64 }`,
		"example.com/pairs": `package pairs
import ("example.com/ord"; "fmt"; "sort")
type Pair[K ord.Ordered, V any] struct { Key K; Val V }
func (p Pair[K, V]) String() string { return fmt.Sprint(p.Key, "=", p.Val) }
func Sorted[K ord.Ordered, V any](m map[K]V) []Pair[K, V] {
	var ps []Pair[K, V]
	for k, v := range m { ps = append(ps, Pair[K, V]{k, v}) }
	sort.Slice(ps, func(i, j int) bool { return ps[i].Key < ps[j].Key })
	return ps
}`,
		"slices":   slicesSource,
		"cycle/a":  "package a\nimport _ \"cycle/b\"",
		"cycle/b":  "package b\nimport _ \"cycle/a\"",
		"broken/x": "package x\nvar X int = \"s\"",
	})
	ok := `package main
import ("example.com/pairs"; "fmt"; "slices")
func main() {
	ps := pairs.Sorted(map[string]int{"b": 2, "a": 1})
	var s fmt.Stringer = ps[0]
	var k string = ps[0].Key
	xs := []float64{3, 1, 2}
	slices.Sort(xs)
	i, found := slices.BinarySearch(xs, 2)
	_, _, _, _ = s, k, i, found
}`
	if errs := checkFile(t, im, ok); len(errs) > 0 {
		t.Errorf("unexpected errors:\n%s", strings.Join(errs, "\n"))
	}
	bad := `package main
import "example.com/pairs"
var _ int = pairs.Sorted(map[string]int{})[0].Key
var _ = pairs.Sorted(map[bool]int{})`
	errs := strings.Join(checkFile(t, im, bad), "\n")
	for _, want := range []string{"(variable of type string) as int value", "bool does not satisfy ord.Ordered"} {
		if !strings.Contains(errs, want) {
			t.Errorf("errors %q, want one containing %q", errs, want)
		}
	}
	p1, err1 := im.Import("example.com/pairs")
	p2, err2 := im.Import("example.com/pairs")
	if p1 != p2 || err1 != nil || err2 != nil {
		t.Errorf("second import: %p, %v; first %p, %v", p2, err2, p1, err1)
	}
	if _, err := im.Import("cycle/a"); err == nil || !strings.Contains(err.Error(), "import cycle") {
		t.Errorf("import cycle/a: %v", err)
	}
	if _, err := im.Import("broken/x"); err == nil || !strings.Contains(err.Error(), `cannot use "s"`) {
		t.Errorf("import broken/x: %v", err)
	}
}

// Types of a hand-made table, for what the standard library's tables do not show.
type (
	impNode struct { // recursive, with an unexported field
		Next *impNode
		Kids []impNode
		val  int
	}
	impExpr interface { // embeds an interface of another package with an unexported method
		ast.Expr
		Eval() int
	}
	impLit     struct{ *ast.BasicLit } // an ast.Expr by embedding
	impHandler func(int) error
)

func (impLit) Eval() int { return 0 }

var impHook func() error

// TestImporterCustomTable checks a program against a hand-made table: recursive and generic
// types, aliases, an interface embedding a sealed one, a map value, a plain bool constant.
func TestImporterCustomTable(t *testing.T) {
	tables := map[string]map[string]reflect.Value{"example.com/custom": {
		"Node":     reflect.ValueOf((*impNode)(nil)),
		"Expr":     reflect.ValueOf((*impExpr)(nil)),
		"Lit":      reflect.ValueOf((*impLit)(nil)),
		"Handler":  reflect.ValueOf((*impHandler)(nil)),
		"Pointer":  reflect.ValueOf((*atomic.Pointer[ast.Ident])(nil)),
		"Registry": reflect.ValueOf(map[string]int{}),
		"Hook":     reflect.ValueOf(&impHook).Elem(),
		"Ready":    reflect.ValueOf(true),
		"Walk":     reflect.ValueOf(func(n *impNode, visit ...func(*impNode) bool) {}),
	}}
	std, names := importerTables(stdlib.Symbols)
	maps.Copy(tables, std)
	im := newImporter(tables, names, nil)
	ok := `package main
import ("example.com/custom"; "go/ast")
func main() {
	var n custom.Node
	n.Next = &n
	n.Kids = append(n.Kids, *n.Next.Next)
	custom.Walk(&n, func(*custom.Node) bool { return true })
	var e custom.Expr = custom.Lit{&ast.BasicLit{}}
	var x ast.Expr = e
	var h custom.Handler = func(int) error { return nil }
	var p custom.Pointer
	p.Store(&ast.Ident{})
	custom.Registry["a"]++
	custom.Hook = func() error { return nil }
	const ready = custom.Ready
	if ready { _, _, _ = x.Pos(), h(1), p.Load().Name + e.(custom.Lit).Value }
}`
	if errs := checkFile(t, im, ok); len(errs) > 0 {
		t.Errorf("unexpected errors:\n%s", strings.Join(errs, "\n"))
	}
	bad := `package main
import ("example.com/custom"; "go/ast")
var _ custom.Expr = &ast.Ident{}
var _ = custom.Node{}.val
var _ custom.Handler = func(string) error { return nil }`
	errs := strings.Join(checkFile(t, im, bad), "\n")
	for _, want := range []string{"missing method Eval", "cannot refer to unexported field val", "as custom.Handler value"} {
		if !strings.Contains(errs, want) {
			t.Errorf("errors %q, want one containing %q", errs, want)
		}
	}
}

// TestImporterCaches: a package is built once, and a type is one go/types type wherever it appears.
func TestImporterCaches(t *testing.T) {
	im := stdlibImporter(nil)
	os1, _ := im.Import("os")
	os2, _ := im.ImportFrom("os", "/anywhere", 0)
	fs, _ := im.Import("io/fs")
	if os1 != os2 {
		t.Error("os imported twice")
	}
	if !types.Identical(os1.Scope().Lookup("FileMode").Type(), fs.Scope().Lookup("FileMode").Type()) {
		t.Error("os.FileMode and fs.FileMode differ")
	}
	open := os1.Scope().Lookup("Open").Type().(*types.Signature)
	if file := open.Results().At(0).Type().(*types.Pointer).Elem(); file != os1.Scope().Lookup("File").Type() {
		t.Errorf("os.Open returns %v, not *os.File", file)
	}
}

// TestImporterUnsafe: package unsafe is go/types' own, with its builtins, when the kernel has a
// table for it, and no package when it has none.
func TestImporterUnsafe(t *testing.T) {
	im := stdlibImporter(nil)
	pkg, err := im.Import("unsafe")
	if err != nil || pkg != types.Unsafe {
		t.Fatalf("Import(unsafe) = %v, %v; want types.Unsafe", pkg, err)
	}
	src := `package main
import ("os"; "unsafe")
type T struct { A int8; B int64 }
func main() {
	var t T
	p := unsafe.Pointer(&t)
	q := (*int64)(unsafe.Add(p, unsafe.Offsetof(t.B)))
	*q = int64(unsafe.Sizeof(t) + unsafe.Alignof(t.B) + uintptr(p))
	b := []byte("hey")
	_ = unsafe.String(&b[0], len(b)) + string(*unsafe.StringData("s"))
	f, _ := os.Open("x")
	_ = unsafe.Pointer(f)
}`
	if errs := checkFile(t, im, src); len(errs) > 0 {
		t.Errorf("unexpected errors:\n%s", strings.Join(errs, "\n"))
	}
	if errs := checkFile(t, im, "package main\nimport \"unsafe\"\nvar _ int = unsafe.Sizeof(1)"); len(errs) == 0 ||
		!strings.Contains(errs[0], "unsafe.Sizeof(1) (constant 8 of type uintptr) as int value") {
		t.Errorf("errors %q, want Go's for a uintptr constant used as int", errs)
	}

	tables, names := importerTables(stdlib.Symbols)
	delete(tables, "unsafe")
	if _, err := newImporter(tables, names, nil).Import("unsafe"); err == nil {
		t.Error("Import(unsafe) without a table: no error")
	}
}
