package stdlib

import (
	"bytes"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestSymbolsMatchGo compares the tables with the standard library of the Go running the test,
// read from its export data: every package gen extracts has a table, and every exported symbol
// yaegi can use (not generic, not a constraint) is in its package's table, and nothing else is;
// Generic lists exactly the exported generic functions, types and aliases of each package. It fails when the Go that builds the kernel is newer (or older) than the one that generated
// the tables: run go generate here.
func TestSymbolsMatchGo(t *testing.T) {
	pkgs := strings.Fields(goOutput(t, "run", "./gen", "-list"))
	if len(pkgs) < 150 {
		t.Fatalf("gen -list lists %d packages", len(pkgs))
	}
	have := map[string]bool{}
	for key := range Symbols {
		have[filepath.Dir(key)] = true
	}
	var checked []string
	for _, path := range pkgs {
		switch {
		case path == "syscall" && Symbols["syscall/syscall"] == nil:
			t.Logf("no syscall table for %s/%s: not checked", runtime.GOOS, runtime.GOARCH)
		case path == "runtime/cgo" && Symbols["runtime/cgo/cgo"] == nil:
			t.Log("no runtime/cgo table (a build without cgo): not checked")
		case !have[path]:
			t.Errorf("%s: no table: run go generate", path)
		default:
			checked = append(checked, path)
		}
		delete(have, path)
	}
	delete(have, ".")
	delete(have, "github.com/traefik/yaegi") // yaegi's hooks: unsafe_builtins.go
	for path := range have {
		t.Errorf("%s: a table for a package gen does not extract: run go generate", path)
	}
	extracted := map[string]bool{}
	for _, path := range pkgs {
		extracted[path] = true
	}
	for path := range Generic {
		if !extracted[path] {
			t.Errorf("Generic has %s, a package gen does not extract: run go generate", path)
		}
	}

	// The export data of the packages, all compiled in one go list.
	exports := map[string]string{}
	lines := goOutput(t, append([]string{"list", "-export", "-f", "{{.ImportPath}}\t{{.Export}}"}, checked...)...)
	for _, line := range strings.Split(strings.TrimSpace(lines), "\n") {
		path, file, _ := strings.Cut(line, "\t")
		exports[path] = file
	}
	imp := importer.ForCompiler(token.NewFileSet(), "gc", func(path string) (io.ReadCloser, error) {
		if f, ok := exports[path]; ok && f != "" {
			return os.Open(f)
		}
		// A dependency not in the list (an internal package): ask go list.
		f := strings.TrimSpace(goOutput(t, "list", "-export", "-f", "{{.Export}}", path))
		return os.Open(f)
	})
	for _, path := range checked {
		pkg, err := imp.Import(path)
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		table := Symbols[path+"/"+pkg.Name()]
		if table == nil {
			t.Errorf("%s: no table keyed %s/%s", path, path, pkg.Name())
			continue
		}
		var missing, extra, generic []string
		for _, name := range pkg.Scope().Names() {
			if obj := pkg.Scope().Lookup(name); usable(obj) {
				if _, ok := table[name]; !ok {
					missing = append(missing, name)
				}
			} else if obj.Exported() && isGeneric(obj) {
				generic = append(generic, name) // sorted, as Names is
			}
		}
		if !slices.Equal(Generic[path], generic) {
			t.Errorf("%s: Generic lists %q, Go's package has the generic %q: run go generate", path, Generic[path], generic)
		}
		for name := range table {
			if strings.HasPrefix(name, "_") || path == "unsafe" && unsafeBuiltins[name] {
				continue // an interface wrapper; a builtin of unsafe_builtins.go
			}
			if obj := pkg.Scope().Lookup(name); obj == nil || !usable(obj) {
				extra = append(extra, name)
			}
		}
		slices.Sort(missing)
		slices.Sort(extra)
		if len(missing) > 0 {
			t.Errorf("%s: the table lacks %s: run go generate", path, strings.Join(missing, ", "))
		}
		if len(extra) > 0 {
			t.Errorf("%s: the table has %s, which Go's package does not export: run go generate", path, strings.Join(extra, ", "))
		}
	}
}

// unsafeBuiltins are the builtins of package unsafe its table has as functions.
var unsafeBuiltins = map[string]bool{"Add": true, "Sizeof": true, "Alignof": true, "Offsetof": true,
	"String": true, "StringData": true}

// usable reports whether yaegi extract writes obj in a table: an exported symbol, not a generic
// function or type, nor an interface that only constrains type parameters, nor a builtin
// (unsafe's).
func usable(obj types.Object) bool {
	if !obj.Exported() {
		return false
	}
	if isGeneric(obj) {
		return false
	}
	switch o := obj.(type) {
	case *types.Builtin:
		return false
	case *types.TypeName:
		if i, ok := o.Type().Underlying().(*types.Interface); ok && i.NumMethods() == 0 && i.NumEmbeddeds() != 0 {
			return false
		}
	}
	return true
}

// isGeneric reports whether obj is a generic function, a generic type or a generic alias (what
// yaegi extract leaves out, and Generic lists).
func isGeneric(obj types.Object) bool {
	switch o := obj.(type) {
	case *types.Func:
		sig := o.Type().(*types.Signature)
		return sig.TypeParams().Len() > 0 || sig.RecvTypeParams().Len() > 0
	case *types.TypeName:
		if n, ok := o.Type().(*types.Named); ok && n.TypeParams().Len() > 0 {
			return true
		}
		if o.IsAlias() {
			if a, ok := o.Type().(*types.Alias); ok && a.TypeParams().Len() > 0 {
				return true
			}
		}
	}
	return false
}

// The special entries of the tables, made by hand.
func TestSpecialSymbols(t *testing.T) {
	for _, key := range []string{"unsafe/unsafe.Add", "unsafe/unsafe.Sizeof", "unsafe/unsafe.Pointer",
		"os/exec/exec.Command", "github.com/traefik/yaegi/yaegi.convert", "log/log.New", "os/os.Exit"} {
		i := strings.LastIndex(key, ".")
		pkg, name := key[:i], key[i+1:]
		if !Symbols[pkg][name].IsValid() {
			t.Errorf("Symbols[%q][%q] is missing", pkg, name)
		}
	}
	if Symbols["."]["MapTypes"].Interface().(map[reflect.Value][]reflect.Type) == nil {
		t.Error("no MapTypes")
	}
	// The restricted symbols do not end the process.
	func() {
		defer func() {
			if p := recover(); p != "os.Exit(3)" {
				t.Errorf("os.Exit(3) panicked with %v, want os.Exit(3)", p)
			}
		}()
		Symbols["os/os"]["Exit"].Interface().(func(int))(3)
	}()
	var buf bytes.Buffer
	l := Symbols["log/log"]["New"].Call([]reflect.Value{reflect.ValueOf(&buf), reflect.ValueOf("p: "), reflect.ValueOf(0)})[0]
	l.MethodByName("SetPrefix").Call([]reflect.Value{reflect.ValueOf("q: ")})
	func() {
		defer func() {
			if p := recover(); p != "bye" {
				t.Errorf("Logger.Fatal panicked with %v, want bye", p)
			}
		}()
		l.MethodByName("Fatal").Call([]reflect.Value{reflect.ValueOf("bye")})
	}()
	if got := buf.String(); got != "q: bye\n" {
		t.Errorf("Logger.Fatal wrote %q, want %q", got, "q: bye\n")
	}
}

// TestGeneratedUpToDate regenerates the tables in a scratch directory and fails if a file
// differs from the one here, or is missing, or is here but not generated. It runs yaegi extract
// on the whole standard library, 3 to 6 minutes on two cores: it runs only with
// GPTNOTES_REGEN=1 set (TestSymbolsMatchGo catches a Go whose API changed in seconds).
func TestGeneratedUpToDate(t *testing.T) {
	if os.Getenv("GPTNOTES_REGEN") != "1" {
		t.Skip("regenerating the standard library's tables takes minutes: set GPTNOTES_REGEN=1")
	}
	tmp, err := os.MkdirTemp("", "regen")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, "stdlib")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	goOutput(t, "run", "./gen", "-o", dir)

	generated, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	onDisk, _ := filepath.Glob("*.go")
	want := map[string]bool{}
	for _, f := range onDisk {
		if b, _ := os.ReadFile(f); bytes.HasPrefix(b, []byte("// Code generated by 'yaegi extract ")) || bytes.HasPrefix(b, []byte(genHeader)) {
			want[f] = true
		}
	}
	for _, g := range generated {
		name := filepath.Base(g)
		delete(want, name)
		fresh, _ := os.ReadFile(g)
		old, err := os.ReadFile(name)
		if err != nil {
			t.Errorf("%s would be generated but is missing: run go generate", name)
			continue
		}
		if !bytes.Equal(fresh, old) {
			t.Errorf("%s is out of date: run go generate", name)
		}
	}
	for name := range want {
		t.Errorf("%s is not generated by gen: delete it or run go generate", name)
	}
}

// Every file but the hand-written ones is generated.
func TestGeneratedFilesMarked(t *testing.T) {
	handWritten := map[string]bool{"stdlib.go": true, "restricted.go": true, "unsafe_builtins.go": true,
		"maptypes.go": true, "wrapper_composed.go": true}
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if handWritten[f] || strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(string(b), "\n")
		if first != genHeader && (!strings.HasPrefix(first, "// Code generated by 'yaegi extract ") || !strings.HasSuffix(first, "DO NOT EDIT.")) {
			t.Errorf("%s: first line %q, want yaegi extract's Code generated … DO NOT EDIT. header, or gen's %q", f, first, genHeader)
		}
	}
}

// genHeader is the first line of the files gen writes itself (generic.go), not yaegi extract.
const genHeader = "// Code generated by 'go run ./gen'. DO NOT EDIT."

func goOutput(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command("go", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return string(out)
}
