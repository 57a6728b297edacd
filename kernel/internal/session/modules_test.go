package session

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gptnotes/gptnotes/kernel/modules"
	"github.com/gptnotes/gptnotes/kernel/modules/modtest"
)

// fixtureModules are the modules of the tests' file:// proxy.
var fixtureModules = []modtest.Module{
	{Path: "example.com/greet", Version: "v1.0.0", Files: map[string]string{
		"greet.go": "// Package greet greets.\npackage greet\n\nimport \"example.com/names\"\n\n// Hello greets who.\nfunc Hello(who string) string { return \"hello, \" + who + \" (\" + names.Default + \")\" }\n",
		"go.mod":   "module example.com/greet\n\ngo 1.21\n\nrequire example.com/names v1.1.0\n",
	}},
	{Path: "example.com/greet", Version: "v1.2.0", Files: map[string]string{
		"greet.go": "package greet\n\n// Hello greets who.\nfunc Hello(who string) string { return \"hi, \" + who }\n",
	}},
	{Path: "example.com/names", Version: "v1.0.0", Files: map[string]string{
		"names.go": "package names\n\nconst Default = \"v1.0.0 names\"\n",
	}},
	{Path: "example.com/names", Version: "v1.1.0", Files: map[string]string{
		"names.go":     "package names\n\nconst Default = \"v1.1.0 names\"\n",
		"names_arm.go": "package names\n\nthis file is for another arch and never parsed\n",
	}},
	{Path: "example.com/acc", Version: "v1.0.0", Files: map[string]string{
		"acc.go": "package acc\n\n// Sum adds xs up in a named result.\nfunc Sum(xs []int) (s int) {\n\tfor _, x := range xs {\n\t\ts += x\n\t}\n\treturn s\n}\n\n// Sums sums each window of two.\nfunc Sums(xs []int) []int {\n\tvar out []int\n\tfor i := 0; i+2 <= len(xs); i++ {\n\t\tout = append(out, Sum(xs[i:i+2]))\n\t}\n\treturn out\n}\n",
	}},
	{Path: "example.com/go-num", Version: "v1.0.0", Files: map[string]string{
		"num.go": "package num\n\nimport \"math\"\n\n// Big is max of its arguments, or -Inf below every float.\nfunc Big(a, b float64) float64 {\n\tif a < (0.0 - math.MaxFloat64) {\n\t\treturn math.Inf(-1)\n\t}\n\treturn max(a, b, 1)\n}\n\n// Small is min(a, b).\nfunc Small(a, b int) int { return min(a, b) }\n",
	}},
	{Path: "example.com/go-cmp", Version: "v0.1.0", Files: map[string]string{
		"cmp/cmp.go": "// Package cmp is named as the standard library's cmp, which it imports.\npackage cmp\n\nimport \"cmp\"\n\n// Equal reports whether x == y.\nfunc Equal(x, y any) bool { return x == y }\n\n// Order is the standard library's cmp.Compare.\nfunc Order(a, b int) int { return cmp.Compare(a, b) }\n",
	}},
	{Path: "example.com/shapes", Version: "v1.0.0", Files: map[string]string{
		"shapes.go": "package shapes\n\ntype Shape interface{ Area() float64 }\n\ntype Square struct{ S float64 }\n\nfunc (q *Square) Area() float64 { return q.S * q.S }\n\ntype Disc struct{ R float64 }\n\nfunc (d *Disc) Area() float64 { return 3 * d.R * d.R }\n\n// Name says which shape s is.\nfunc Name(s Shape) string {\n\tswitch s := s.(type) {\n\tcase *Square:\n\t\treturn \"square\"\n\tcase *Disc:\n\t\treturn \"disc\"\n\tcase nil:\n\t\treturn \"none\"\n\tdefault:\n\t\t_ = s\n\t\treturn \"other\"\n\t}\n}\n",
	}},
	// lookalike has struct types of one structure (structnames.go), told apart in a type
	// switch and an assertion, made by positional literals, printed with %v and %+v, and
	// converted one to the other (not %+v of ignore: yaegi gives its unexported fields
	// exported names, Xcore and Xn, a gap of its own); testdata/cells/module_lookalike_structs.txtar uses it.
	{Path: "example.com/lookalike", Version: "v1.0.0", Files: map[string]string{
		"opts.go": "// Package lookalike has struct types of one structure, as go-cmp's options have.\npackage lookalike\n\nimport \"fmt\"\n\ntype core struct{ n int }\n\ntype ignore struct{ core }\n\ntype validator struct{ core }\n\n// Option is an ignore or a validator.\ntype Option interface{ apply() }\n\nfunc (ignore) apply()    {}\nfunc (validator) apply() {}\n\n// Ignore and Validate make the two options, from positional literals.\nfunc Ignore(n int) Option   { return ignore{core{n}} }\nfunc Validate(n int) Option { return validator{core{n}} }\n\n// Kind names o's type with a type switch.\nfunc Kind(o Option) string {\n\tswitch o := o.(type) {\n\tcase ignore:\n\t\treturn fmt.Sprintf(\"ignore %v\", o)\n\tcase validator:\n\t\treturn fmt.Sprintf(\"validator %v\", o)\n\t}\n\treturn \"none\"\n}\n\n// IsValidator asserts o to validator.\nfunc IsValidator(o Option) bool {\n\t_, ok := o.(validator)\n\treturn ok\n}\n\n// AnyValidator reports whether one of opts is a validator.\nfunc AnyValidator(opts ...Option) bool {\n\tfor _, o := range opts {\n\t\tif _, ok := o.(validator); ok {\n\t\t\treturn true\n\t\t}\n\t}\n\treturn false\n}\n\n// Point and Pair are two exported types of one structure.\ntype Point struct{ X, Y int }\ntype Pair struct {\n\tX int `json:\"x\"`\n\tY int\n}\n\n// Describe asserts v to each, and converts a Pair to a Point.\nfunc Describe(v any) string {\n\tif p, ok := v.(Point); ok {\n\t\treturn fmt.Sprintf(\"Point %v %+v\", p, p)\n\t}\n\tif p, ok := v.(Pair); ok {\n\t\treturn fmt.Sprintf(\"Pair %v %+v as Point %v\", p, p, Point(p))\n\t}\n\treturn \"other\"\n}\n",
	}},
	// emptylike tells apart two struct types without fields, which have no field to carry
	// their names: refused.
	{Path: "example.com/emptylike", Version: "v1.0.0", Files: map[string]string{
		"opts.go": "package emptylike\n\ntype ignore struct{}\n\ntype validator struct{}\n\n// Kind names o's type.\nfunc Kind(o any) string {\n\tswitch o.(type) {\n\tcase ignore:\n\t\treturn \"ignore\"\n\tcase validator:\n\t\treturn \"validator\"\n\t}\n\treturn \"\"\n}\n",
	}},
	// typename reads a type's name by reflection, as go-cmp's reporter does.
	{Path: "example.com/typename", Version: "v1.0.0", Files: map[string]string{
		"name.go": "package typename\n\nimport \"reflect\"\n\n// Of is the name of v's type.\nfunc Of(v any) string { return reflect.TypeOf(v).String() }\n",
	}},
	// usesname calls typename: it reads types by reflection through it.
	{Path: "example.com/usesname", Version: "v1.0.0", Files: map[string]string{
		"uses.go": "package usesname\n\nimport \"example.com/typename\"\n\n// Of is typename.Of.\nfunc Of(v any) string { return typename.Of(v) }\n\n// Len is len(s).\nfunc Len(s any) int { return len(s.([]int)) }\n",
		"go.mod":  "module example.com/usesname\n\ngo 1.21\n\nrequire example.com/typename v1.0.0\n",
	}},
	// causes asserts an error to its own interface, as pkg/errors does (compiledassert.go);
	// testdata/cells/module_error_causes.txtar uses it.
	{Path: "example.com/causes", Version: "v1.0.0", Files: map[string]string{
		"causes.go": "package causes\n\n// Cause unwraps err as pkg/errors does.\nfunc Cause(err error) error {\n\ttype causer interface{ Cause() error }\n\tfor err != nil {\n\t\tc, ok := err.(causer)\n\t\tif !ok {\n\t\t\tbreak\n\t\t}\n\t\terr = c.Cause()\n\t}\n\treturn err\n}\n\ntype withMessage struct {\n\tcause error\n\tmsg   string\n}\n\nfunc (w *withMessage) Error() string { return w.msg + \": \" + w.cause.Error() }\nfunc (w *withMessage) Cause() error  { return w.cause }\n\n// Wrap annotates err with msg.\nfunc Wrap(err error, msg string) error { return &withMessage{err, msg} }\n\n// Unwrap1 is one step of Cause, as a single-value assertion.\nfunc Unwrap1(err error) error { return err.(interface{ Cause() error }).Cause() }\n",
	}},
	{Path: "example.com/go-words", Version: "v1.0.0", Files: map[string]string{
		"words.go": "package words\n\n// Two is two.\nconst Two = \"two\"\n",
	}},
	{Path: "example.com/asm", Version: "v0.1.0", Files: map[string]string{
		"add.go":       "package asm\n\n// Add is in assembly.\nfunc Add(a, b int) int\n",
		"add_amd64.s":  "TEXT ·Add(SB),$0\n",
		"add_arm64.s":  "TEXT ·Add(SB),$0\n",
		"add_others.s": "TEXT ·Add(SB),$0\n",
	}},
	{Path: "example.com/cgo", Version: "v0.1.0", Files: map[string]string{
		"c.go": "package cgo\n\n// #include <stdio.h>\nimport \"C\"\n\nfunc F() {}\n",
	}},
	{Path: "example.com/embed", Version: "v0.1.0", Files: map[string]string{
		"e.go":     "package embed\n\nimport _ \"embed\"\n\n//go:embed data.txt\nvar Data string\n",
		"data.txt": "x",
	}},
}

// moduleSession is a session whose modules come from a file:// proxy of fixtureModules, with
// an empty module cache and the notebook in its own directory; no network, no checksum database.
func moduleSession(t *testing.T) (s *Session, nbDir, proxy string) {
	t.Helper()
	root := t.TempDir()
	proxy = filepath.Join(root, "proxy")
	if err := modtest.WriteProxy(proxy, fixtureModules...); err != nil {
		t.Fatal(err)
	}
	nbDir = filepath.Join(root, "notebook")
	if err := os.MkdirAll(nbDir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { modules.MakeWritable(filepath.Join(root, "modcache")) })
	s = newSession(t)
	s.mods.env = &modules.Env{Proxy: modules.ParseProxy("file://" + filepath.ToSlash(proxy)), SumDB: "off", ModCache: filepath.Join(root, "modcache")}
	s.mods.dir = nbDir
	return s, nbDir, proxy
}

// TestModuleImport imports a fixture module with a dependency: the newest release is chosen
// when nothing pins it, its requirement's version is the one its go.mod asks for (not the
// newest), completion and inspection see it, and gptnotes.sum records both modules.
func TestModuleImport(t *testing.T) {
	s, nbDir, _ := moduleSession(t)
	out, _, err := exec(t, s, "import (\n\t\"fmt\"\n\t\"example.com/greet\"\n)\n\nfmt.Println(greet.Hello(\"ann\"))")
	if err != nil {
		t.Fatal(err)
	}
	if out != "hi, ann\n" {
		t.Errorf("newest release: got %q", out)
	}
	if m, _, _ := s.Complete("greet.He", 8); len(m) != 1 || m[0] != "Hello" {
		t.Errorf("completion: %v", m)
	}
	if d, ok := s.Inspect("greet.Hello", 8, 0); !ok || !strings.Contains(d["text/plain"].(string), "Hello greets who") {
		t.Errorf("inspect: %v %v", d, ok)
	}
	sum, err := os.ReadFile(filepath.Join(nbDir, modules.SumFile))
	if err != nil || !strings.Contains(string(sum), "example.com/greet v1.2.0 h1:") {
		t.Errorf("%s: %q %v", modules.SumFile, sum, err)
	}
}

// TestModulePinned pins greet v1.0.0 with a directive: its dependency names comes at the
// version greet's go.mod requires (v1.1.0, whose file for another arch is left out), and a
// later session in the same notebook directory gets the same versions from gptnotes.sum.
func TestModulePinned(t *testing.T) {
	s, nbDir, _ := moduleSession(t)
	cell := "//gptnotes:require example.com/greet v1.0.0\nimport (\n\t\"fmt\"\n\t\"example.com/greet\"\n)\n\nfmt.Println(greet.Hello(\"bo\"))"
	out, _, err := exec(t, s, cell)
	if err != nil {
		t.Fatal(err)
	}
	if want := "hello, bo (v1.1.0 names)\n"; out != want {
		t.Errorf("got %q, want %q", out, want)
	}
	_, _, err = exec(t, s, "//gptnotes:require example.com/greet v1.2.0\n")
	if err == nil || !strings.Contains(err.Error(), "restart the kernel") {
		t.Errorf("changing a loaded module's version: %v", err)
	}

	again, _, _ := moduleSession(t)
	again.mods.dir = nbDir
	again.mods.env.ModCache = s.mods.env.ModCache
	again.mods.env.Proxy = s.mods.env.Proxy
	out, _, err = exec(t, again, "import (\n\t\"fmt\"\n\t\"example.com/greet\"\n)\nfmt.Println(greet.Hello(\"cy\"))")
	if err != nil || out != "hello, cy (v1.1.0 names)\n" {
		t.Errorf("re-run from %s: %q %v", modules.SumFile, out, err)
	}
}

// TestModuleNamedResults: a module function with a named result, called again from one call
// site in a loop, starts from zero each time (the interpreter reuses the frame otherwise).
func TestModuleNamedResults(t *testing.T) {
	s, _, _ := moduleSession(t)
	out, _, err := exec(t, s, "import (\n\t\"fmt\"\n\t\"example.com/acc\"\n)\nfmt.Println(acc.Sums([]int{1, 2, 3, 4}))")
	if err != nil || out != "[3 5 7]\n" {
		t.Errorf("got %q %v, want [3 5 7]", out, err)
	}
}

// TestModuleNewerGo: a module package whose name is not its path's last element (go-num is
// num) is used under its name in later cells and in the cell that imports it, and its Go 1.21
// min and max and its constant arithmetic with math's constants run.
func TestModuleNewerGo(t *testing.T) {
	s, _, _ := moduleSession(t)
	if _, _, err := exec(t, s, "import (\n\t\"fmt\"\n\t\"example.com/go-num\"\n)"); err != nil {
		t.Fatal(err)
	}
	out, _, err := exec(t, s, "fmt.Println(num.Big(-2, 3.5), num.Big(-2, -3), num.Small(4, -1))")
	if err != nil || out != "3.5 1 -1\n" {
		t.Errorf("got %q %v, want 3.5 1 -1", out, err)
	}
	// Imported and used in one cell (go-words, which no other test imports: the names are
	// remembered for the process).
	out, _, err = exec(t, s, "import \"example.com/go-words\"\nfmt.Println(words.Two)")
	if err != nil || out != "two\n" {
		t.Errorf("one cell: %q %v, want two", out, err)
	}
}

// TestModuleNamedCmp: a module package named cmp, imported under its own name, is that
// package in the cell (not the kernel's cmp), and its own import of the standard library's cmp
// is the standard one; a cell of another session imports the standard cmp as before.
func TestModuleNamedCmp(t *testing.T) {
	s, _, _ := moduleSession(t)
	out, _, err := exec(t, s, "import (\n\t\"fmt\"\n\t\"example.com/go-cmp/cmp\"\n)\nfmt.Println(cmp.Equal(1, 1), cmp.Order(1, 2))")
	if err != nil || out != "true -1\n" {
		t.Errorf("module cmp: %q %v", out, err)
	}
	std := newSession(t)
	out, _, err = exec(t, std, "import (\n\t\"cmp\"\n\t\"fmt\"\n\t\"slices\"\n)\nx := []int{3, 1, 2}\nslices.Sort(x)\nfmt.Println(cmp.Compare(2, 1), x)")
	if err != nil || out != "1 [1 2 3]\n" {
		t.Errorf("the standard cmp and slices: %q %v", out, err)
	}
}

// TestModuleTypeSwitch: a module's type switch on a non-empty interface with pointer cases
// and a nil case takes the right case (written as a chain of assertions, as in a cell).
func TestModuleTypeSwitch(t *testing.T) {
	s, _, _ := moduleSession(t)
	out, _, err := exec(t, s, "import (\n\t\"fmt\"\n\t\"example.com/shapes\"\n)\nfmt.Println(shapes.Name(&shapes.Square{S: 1}), shapes.Name(&shapes.Disc{R: 1}), shapes.Name(nil))")
	if err != nil || out != "square disc none\n" {
		t.Errorf("got %q %v, want square disc none", out, err)
	}
}

// TestModuleOffline: with GOFLAGS=-mod=readonly (Offline) and no proxy at all, a module cache
// an earlier session filled (then made read-only, as on a hub) is enough: the newest version
// it holds is chosen, and no checksum database is asked.
func TestModuleOffline(t *testing.T) {
	s, _, _ := moduleSession(t)
	if _, _, err := exec(t, s, "import \"example.com/greet\""); err != nil {
		t.Fatal(err)
	}
	cache := s.mods.env.ModCache
	readOnly(t, cache)

	hub, _, _ := moduleSession(t)
	hub.mods.env = &modules.Env{Offline: true, SumDB: "sum.golang.org", ModCache: cache}
	out, _, err := exec(t, hub, "import (\n\t\"fmt\"\n\t\"example.com/greet\"\n)\nfmt.Println(greet.Hello(\"ed\"))")
	if err != nil || out != "hi, ed\n" {
		t.Errorf("offline from the cache: %q %v", out, err)
	}
}

// readOnly makes the tree at root read-only, as a hub mounts a shared cache, until the test ends.
func readOnly(t *testing.T, root string) {
	t.Helper()
	var dirs []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			dirs = append(dirs, p)
		}
		return nil
	})
	for i := len(dirs) - 1; i >= 0; i-- {
		os.Chmod(dirs[i], 0o555)
	}
	t.Cleanup(func() { modules.MakeWritable(root) })
}

// TestModuleLocal imports a package of the module beside the notebook (go.mod's module path),
// and one of a module that go.mod replaces with a directory.
func TestModuleLocal(t *testing.T) {
	s, nbDir, _ := moduleSession(t)
	write(t, filepath.Join(nbDir, "go.mod"), "module course\n\ngo 1.21\n\nrequire example.com/greet v1.0.0\n\nreplace example.com/mine => ../mine\n")
	write(t, filepath.Join(nbDir, "..", "mine", "mine.go"), "package mine\n\n// Mine is not from the proxy.\nconst Mine = \"mine\"\n")
	if out, _, err := exec(t, s, "import (\n\t\"fmt\"\n\t\"example.com/mine\"\n)\nfmt.Println(mine.Mine)"); err != nil || out != "mine\n" {
		t.Errorf("replaced with a directory: %q %v", out, err)
	}
	write(t, filepath.Join(nbDir, "helper", "helper.go"), "package helper\n\nimport \"example.com/greet\"\n\n// Twice says it twice.\nfunc Twice(s string) string { return greet.Hello(s) + \"; \" + greet.Hello(s) }\n")
	out, _, err := exec(t, s, "import (\n\t\"fmt\"\n\t\"course/helper\"\n)\nfmt.Println(helper.Twice(\"di\"))")
	if err != nil {
		t.Fatal(err)
	}
	if want := "hello, di (v1.1.0 names); hello, di (v1.1.0 names)\n"; out != want {
		t.Errorf("got %q, want %q (go.mod pins greet v1.0.0)", out, want)
	}

}

// TestModuleLocalReload: importing a package beside the notebook again after an edit runs the
// edit, in that cell and the later ones, and so does a package beside the notebook that uses
// it; importing an unchanged one again checks nothing again.
func TestModuleLocalReload(t *testing.T) {
	s, nbDir, _ := moduleSession(t)
	write(t, filepath.Join(nbDir, "go.mod"), "module course\n\ngo 1.21\n")
	helper := filepath.Join(nbDir, "helper", "helper.go")
	write(t, helper, "package helper\n\nfunc Twice(s string) string { return s + s }\n")
	write(t, filepath.Join(nbDir, "app", "app.go"), "package app\n\nimport (\n\t\"strings\"\n\n\t\"course/helper\"\n)\n\nfunc Shout(s string) string { return strings.ToUpper(helper.Twice(s)) }\n")
	out, _, err := exec(t, s, "import (\n\t\"fmt\"\n\t\"course/app\"\n\t\"course/helper\"\n)\nfmt.Println(helper.Twice(\"a\"), app.Shout(\"b\"))")
	if err != nil || out != "aa BB\n" {
		t.Fatalf("first import: %q %v", out, err)
	}

	// Unchanged: the cell imports nothing again.
	checked := s.imp.imported["course/helper"].pkg
	r := newRecorder()
	if _, err := s.Execute(context.Background(), "import \"course/helper\"\nfmt.Println(helper.Twice(\"c\"))", r); err != nil || r.stdout() != "cc\n" {
		t.Fatalf("unchanged: %q %v", r.stdout(), err)
	}
	if s.imp.imported["course/helper"].pkg != checked || strings.Contains(r.stderr(), "changed") {
		t.Errorf("an unchanged package was checked again (stderr %q)", r.stderr())
	}

	// Edited: the import runs the edit, and says so.
	write(t, helper, "package helper\n\n// Twice joins two s with a dash.\nfunc Twice(s string) string { return s + \"-\" + s }\n")
	r = newRecorder()
	if _, err := s.Execute(context.Background(), "import \"course/helper\"\nfmt.Println(helper.Twice(\"d\"))", r); err != nil || r.stdout() != "d-d\n" {
		t.Fatalf("after the edit: %q %v", r.stdout(), err)
	}
	if !strings.Contains(r.stderr(), "course/helper changed in") {
		t.Errorf("stderr after the edit: %q", r.stderr())
	}
	// Later cells, and the package that imports it, run the edit too; inspection sees it.
	out, _, err = exec(t, s, "x := helper.Twice(\"e\")\nfmt.Println(x, app.Shout(\"f\"))")
	if err != nil || out != "e-e F-F\n" {
		t.Errorf("a later cell: %q %v", out, err)
	}
	if d, ok := s.Inspect("helper.Twice", 8, 0); !ok || !strings.Contains(d["text/plain"].(string), "with a dash") {
		t.Errorf("inspect after the edit: %v %v", d, ok)
	}

	// A second edit, with a new function, and an unchanged import after it.
	write(t, helper, "package helper\n\nfunc Twice(s string) string { return s + \"+\" + s }\n\nfunc Thrice(s string) string { return s + s + s }\n\ntype Box struct{ S string }\n")
	out, _, err = exec(t, s, "import \"course/helper\"\nfmt.Println(helper.Twice(\"g\"), helper.Thrice(\"h\"), app.Shout(\"i\"), x)")
	if err != nil || out != "g+g hhh I+I e-e\n" {
		t.Errorf("second edit: %q %v", out, err)
	}
	out, _, err = exec(t, s, "import \"course/helper\"\nb := helper.Box{S: helper.Twice(\"j\")}\nfmt.Println(b.S)")
	if err != nil || out != "j+j\n" {
		t.Errorf("unchanged after an edit: %q %v", out, err)
	}
}

// TestModuleErrors: each failure names its cause, and the session goes on as before.
func TestModuleErrors(t *testing.T) {
	s, nbDir, _ := moduleSession(t)
	if _, _, err := exec(t, s, "import \"fmt\"\nx := 1"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ cell, want string }{
		{"import \"example.com/asm\"", "add.go:4 uses assembly (func Add has no Go body)"},
		{"import \"example.com/cgo\"", `c.go:4 uses cgo (import "C")`},
		{"import \"example.com/embed\"", "e.go:5 uses //go:embed"},
		{"import \"example.com/emptylike\"", "opts.go:12 uses a type switch telling apart ignore and validator, struct types of one structure (struct{})"},
		{"import \"example.com/nosuch/pkg\"", "no module provides package example.com/nosuch/pkg"},
		{"//gptnotes:require example.com/names v1.9.9\nimport \"example.com/names\"", "module example.com/names v1.9.9 does not exist"},
		{"import \"example.com/greet/sub\"", "does not contain package example.com/greet/sub"},
	} {
		_, _, err := exec(t, s, c.cell+"\nx++")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant %q", c.cell, err, c.want)
		}
	}
	if out, _, err := exec(t, s, "fmt.Println(x)"); err != nil || out != "1\n" {
		t.Errorf("after the failures: %q %v", out, err)
	}

	// A checksum recorded in gptnotes.sum that the download does not match.
	write(t, filepath.Join(nbDir, modules.SumFile), "example.com/names v1.0.0 h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n")
	s2, _, _ := moduleSession(t)
	s2.mods.dir = nbDir
	_, _, err := exec(t, s2, "import \"example.com/names\"")
	if err == nil || !strings.Contains(err.Error(), "checksum mismatch for example.com/names@v1.0.0") {
		t.Errorf("checksum: %v", err)
	}

	// No network: a proxy that cannot be reached.
	s3, _, _ := moduleSession(t)
	s3.mods.env.Proxy = modules.ParseProxy("http://127.0.0.1:1")
	_, _, err = exec(t, s3, "import \"example.com/names\"")
	if err == nil || !strings.Contains(err.Error(), "no network") {
		t.Errorf("no network: %v", err)
	}

	// Offline (GOFLAGS=-mod=readonly): only the module cache, which lacks the module.
	s4, _, _ := moduleSession(t)
	s4.mods.env.Offline = true
	_, _, err = exec(t, s4, "import \"example.com/names\"")
	if err == nil || !strings.Contains(err.Error(), "forbids downloading") {
		t.Errorf("offline: %v", err)
	}
}

func write(t *testing.T, name, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestModuleReflectsCellType hands a cell's type to a module that reads types by reflection,
// itself or through a module it imports: refused (modulereflect.go), where yaegi's answer would
// be the type's structure (Go prints main.point); the standard library's types pass.
func TestModuleReflectsCellType(t *testing.T) {
	s, _, _ := moduleSession(t)
	out, _, err := exec(t, s, "//gptnotes:require example.com/usesname v1.0.0\nimport (\n\t\"fmt\"\n\t\"example.com/typename\"\n\t\"example.com/usesname\"\n)\n\nfmt.Println(typename.Of(3), usesname.Of([]string{}), usesname.Len([]int{1, 2}))")
	if err != nil || out != "int []string 2\n" {
		t.Fatalf("standard types: %q %v", out, err)
	}
	for _, cell := range []string{
		"type point struct{ X, Y int }\nfmt.Println(typename.Of(point{1, 2}))",
		"type celsius float64\nfmt.Println(usesname.Of([]celsius{1}))",
		"type pt struct{ X int }\nfmt.Println(usesname.Of(func(pt) {}))",
	} {
		_, _, err := exec(t, s, cell)
		if err == nil || !strings.Contains(err.Error(), "the module reads types by reflection") {
			t.Errorf("%s:\n got %v", cell, err)
		}
	}
	if out, _, err := exec(t, s, "type q struct{ X int }\nfmt.Println(usesname.Len([]int{3}), q{1})"); err != nil || out != "1 {1}\n" {
		t.Errorf("no cell's type in the call: %q %v", out, err)
	}
}
