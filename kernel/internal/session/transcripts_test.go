package session

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// A cell program is one file of testdata/cells: the cells a notebook runs one after the other
// and the transcript they print. The file is a txtar archive, as the go command's script tests
// are: an optional comment, then one "-- cell --" section per cell, in order, and one
// "-- output --" section with the transcript (see TestCells for its lines).
type cellProgram struct {
	name   string   // the file's name without .txtar
	cells  []string // each cell's source, without the newline that ends its section
	output string   // the expected transcript
}

// cellPrograms reads every program of testdata/cells. A file named *_unix.txtar runs programs
// that exist only on Unix (echo, sh), so a Windows build of the tests leaves it out.
func cellPrograms(t testing.TB) []cellProgram {
	t.Helper()
	files, err := filepath.Glob("../../../testdata/cells/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no cell programs: %v", err)
	}
	var programs []cellProgram
	for _, file := range files {
		if runtime.GOOS == "windows" && strings.HasSuffix(file, "_unix.txtar") {
			continue
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		p, err := parseCellProgram(string(src))
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		p.name = strings.TrimSuffix(filepath.Base(file), ".txtar")
		programs = append(programs, p)
	}
	return programs
}

// parseCellProgram reads a txtar archive whose sections are cells and one output:
//
//	-- cell --
//	x := 6 * 7
//	-- cell --
//	x
//	-- output --
//	Out: 42
func parseCellProgram(src string) (cellProgram, error) {
	var p cellProgram
	section, body := "", []string(nil) // the open section, "" before the first
	haveOutput := false
	end := func() error {
		text := strings.Join(body, "")
		switch section {
		case "":
		case "cell":
			if haveOutput {
				return fmt.Errorf("a cell after the output")
			}
			p.cells = append(p.cells, strings.TrimSuffix(text, "\n"))
		case "output":
			if haveOutput {
				return fmt.Errorf("two outputs")
			}
			p.output, haveOutput = text, true
		default:
			return fmt.Errorf("section %q: want cell or output", section)
		}
		return nil
	}
	for _, line := range strings.SplitAfter(src, "\n") {
		if name, ok := sectionName(line); ok {
			if err := end(); err != nil {
				return p, err
			}
			section, body = name, nil
			continue
		}
		body = append(body, line)
	}
	if err := end(); err != nil {
		return p, err
	}
	if len(p.cells) == 0 || !haveOutput {
		return p, fmt.Errorf("%d cells, output %v: want one or more cells, then an output", len(p.cells), haveOutput)
	}
	return p, nil
}

// sectionName returns NAME of a txtar file marker line "-- NAME --".
func sectionName(line string) (string, bool) {
	line = strings.TrimSuffix(line, "\n")
	if !strings.HasPrefix(line, "-- ") || !strings.HasSuffix(line, " --") || len(line) < len("-- x --") {
		return "", false
	}
	return strings.TrimSpace(line[3 : len(line)-3]), true
}

func TestParseCellProgram(t *testing.T) {
	p, err := parseCellProgram("comment\n-- cell --\nx := 1\n\n-- cell --\nx\n-- output --\nOut: 1\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.cells) != 2 || p.cells[0] != "x := 1\n" || p.cells[1] != "x" || p.output != "Out: 1\n" {
		t.Errorf("got cells %q, output %q", p.cells, p.output)
	}
	for _, bad := range []string{
		"-- cell --\nx\n",                                 // no output
		"-- output --\nOut: 1\n",                          // no cell
		"-- cell --\nx\n-- output --\n1\n-- cell --\ny\n", // a cell after the output
		"-- cell --\nx\n-- result --\n1\n",                // an unknown section
	} {
		if _, err := parseCellProgram(bad); err == nil {
			t.Errorf("parseCellProgram(%q) = nil error", bad)
		}
	}
}
