package session

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gptnotes/gptnotes/kernel/display"
	"github.com/gptnotes/gptnotes/kernel/modules"
	"github.com/gptnotes/gptnotes/kernel/modules/modtest"
)

// recorder is a Sink that keeps everything a cell sends, in order.
type recorder struct {
	mu      sync.Mutex
	events  []string // "stdout:text", "stderr:text", "display:…", "clear"
	bundles []display.Bundle
	streams map[string]*strings.Builder
}

func newRecorder() *recorder {
	return &recorder{streams: map[string]*strings.Builder{"stdout": {}, "stderr": {}}}
}

func (r *recorder) Stream(name, text string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, name+":"+text)
	r.streams[name].WriteString(text)
}

func (r *recorder) Display(b display.Bundle, id string, update bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, fmt.Sprintf("display(update=%v):%v", update, b.Data[display.MIMEPlain]))
	r.bundles = append(r.bundles, b)
}

func (r *recorder) ClearOutput(wait bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, "clear")
}

func (r *recorder) stdout() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.streams["stdout"].String()
}

func (r *recorder) stderr() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.streams["stderr"].String()
}

func TestMain(m *testing.M) {
	// No test reaches a module proxy: modules come from the fixtures' file:// proxies
	// (modules_test.go), one a test makes (moduleSession) or, for every other session, the one
	// written here; the module cache is the tests' own.
	root, err := os.MkdirTemp("", "gptnotes-modcache")
	if err != nil {
		panic(err)
	}
	cache := filepath.Join(root, "modcache")
	fixtureProxy = filepath.Join(root, "proxy")
	if err := modtest.WriteProxy(fixtureProxy, fixtureModules...); err != nil {
		panic(err)
	}
	os.Setenv("GOPROXY", "off")
	os.Setenv("GOMODCACHE", cache)
	code := m.Run()
	modules.MakeWritable(root)
	os.RemoveAll(root)
	stopCapture()
	os.Exit(code)
}

func newSession(t testing.TB) *Session {
	t.Helper()
	s, err := New()
	if err != nil {
		t.Fatal(err)
	}
	// A cell program may import a fixture module (structnames.go's program): it comes from
	// fixtureProxy into a cache of the session's own, so the transcript says
	// "go: downloading" each time, and the notebook's directory is a new one.
	root := t.TempDir()
	t.Cleanup(func() { modules.MakeWritable(root) })
	s.mods.env = &modules.Env{Proxy: modules.ParseProxy("file://" + filepath.ToSlash(fixtureProxy)), SumDB: "off", ModCache: filepath.Join(root, "modcache")}
	s.mods.dir = root
	return s
}

// fixtureProxy is the file:// proxy of fixtureModules that newSession's sessions use.
var fixtureProxy string

// exec runs one cell and returns its stdout, its result's text/plain and its error.
func exec(t testing.TB, s *Session, code string) (stdout, result string, err error) {
	t.Helper()
	r := newRecorder()
	b, err := s.Execute(context.Background(), code, r)
	if b != nil {
		result = fmt.Sprint(b.Data[display.MIMEPlain])
	}
	return r.stdout(), result, err
}

// TestCells runs every cell program in testdata/cells (see cellProgram): its transcript (stdout,
// "stderr: <line>" for each line on stderr, "Out: <text/plain>" for each result, "Error: <name>:
// <value>" for a failing cell) must equal the program's output section.
func TestCells(t *testing.T) {
	for _, p := range cellPrograms(t) {
		t.Run(p.name, func(t *testing.T) {
			got := runProgram(t, p.cells)
			if got != p.output {
				t.Errorf("transcript:\n%s\nwant:\n%s", got, p.output)
			}
		})
	}
}

// writeTranscript writes what one cell sent to r, its result b and its error err as a transcript
// shows them: stdout, "stderr: <line>" for each line on stderr, "Out: <text/plain>" for a
// result, "Error: <name>: <value>" for a failing cell.
func writeTranscript(w *strings.Builder, r *recorder, b *display.Bundle, err error) {
	w.WriteString(r.stdout())
	for _, line := range strings.SplitAfter(r.stderr(), "\n") {
		if line != "" {
			w.WriteString("stderr: " + line)
		}
	}
	res := ""
	if b != nil {
		res = fmt.Sprint(b.Data[display.MIMEPlain])
	}
	if res != "" {
		fmt.Fprintf(w, "Out: %s\n", res)
	}
	if err != nil {
		fmt.Fprintf(w, "Error: %v\n", err)
	}
}
