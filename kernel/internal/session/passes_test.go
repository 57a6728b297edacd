package session

import (
	"context"
	"os"
	osexec "os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestPassesInDoc checks that doc.go lists the file of every pass, in the order of passes, and
// that each pass's functions are in the file its entry names.
func TestPassesInDoc(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	at := 0
	for _, p := range passes {
		i := strings.Index(string(doc[at:]), "//\t"+p.file+" ")
		if i < 0 {
			i = strings.Index(string(doc[at:]), "//\t"+p.file+"\n")
		}
		if i < 0 {
			t.Errorf("doc.go does not list %s (pass %s) after the passes before it", p.file, p.name)
			continue
		}
		at += i
	}
	for _, p := range passes {
		for _, f := range []any{p.cell, p.piece, p.stmt, p.after, p.expr, p.wrap, p.module} {
			v := reflect.ValueOf(f)
			if v.IsNil() {
				continue
			}
			fn := runtime.FuncForPC(v.Pointer())
			file, _ := fn.FileLine(fn.Entry())
			if filepath.Base(file) != p.file {
				t.Errorf("pass %s: %s is in %s, not in %s", p.name, fn.Name(), filepath.Base(file), p.file)
			}
		}
	}
}

// TestPassPrograms runs each pass's program of testdata/cells without the pass: its transcript
// must change (the program shows what the pass is for). Each runs in a process of its own
// (this test binary, with GPTNOTES_DROP_PASS set), since without some passes a cell ends the
// process (gostmt: a goroutine's panic).
func TestPassPrograms(t *testing.T) {
	if name := os.Getenv("GPTNOTES_DROP_PASS"); name != "" {
		dropPass(t, name, os.Getenv("GPTNOTES_DROP_PASS_OUT"))
		return
	}
	if testing.Short() {
		t.Skip("a process for each pass")
	}
	programs := map[string]cellProgram{}
	for _, p := range cellPrograms(t) {
		programs[p.name] = p
	}
	for _, ps := range passes {
		t.Run(ps.name, func(t *testing.T) {
			prog, ok := programs[ps.program]
			if !ok {
				t.Fatalf("no program testdata/cells/%s.txtar", ps.program)
			}
			out := filepath.Join(t.TempDir(), "transcript")
			cmd := osexec.Command(os.Args[0], "-test.run=^TestPassPrograms$", "-test.count=1")
			cmd.Env = append(os.Environ(), "GPTNOTES_DROP_PASS="+ps.name, "GPTNOTES_DROP_PASS_OUT="+out)
			log, err := cmd.CombinedOutput()
			got, rerr := os.ReadFile(out)
			if rerr != nil {
				t.Logf("without the pass, %s ends the process (%v):\n%s", ps.program, err, lastLines(string(log), 5))
				return
			}
			if string(got) == prog.output {
				t.Errorf("%s prints the same transcript without the pass:\n%s", ps.program, got)
			}
		})
	}
}

// dropPass runs the program of pass name without the pass and writes its transcript to out.
func dropPass(t *testing.T, name, out string) {
	i := slices.IndexFunc(passes, func(p pass) bool { return p.name == name })
	if i < 0 {
		t.Fatalf("no pass %q", name)
	}
	var prog cellProgram
	for _, p := range cellPrograms(t) {
		if p.name == passes[i].program {
			prog = p
		}
	}
	passes = slices.Delete(slices.Clone(passes), i, i+1)
	if err := os.WriteFile(out, []byte(runProgram(t, prog.cells)), 0o644); err != nil {
		t.Fatal(err)
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// runProgram runs cells in a new session and returns their transcript, as TestCells writes it.
func runProgram(t *testing.T, cells []string) string {
	t.Helper()
	s := newSession(t)
	var got strings.Builder
	for _, cell := range cells {
		r := newRecorder()
		b, err := s.Execute(context.Background(), cell, r)
		writeTranscript(&got, r, b, err)
	}
	return got.String()
}
