package session

import (
	"fmt"
	"go/scanner"
	"go/token"
	"strconv"
	"strings"
)

// The file and line a cell's code reports as its own, where Go would name a source file: the
// position package log writes with log.Lshortfile (logsource.go). The kernel names a cell's
// positions cell:LINE in its errors; a program names them file.go:LINE. Two things in a cell say
// which file Go would have compiled:
//
//   - a package clause: the cell is a whole file pasted, and its lines are the file's lines. The
//     kernel cannot know the file's name and takes main.go, the file of `go run main.go`.
//   - a //line directive (`//line example_test.go:19`, at the start of a line), Go's own way for
//     generated code to name the source it came from: the lines after it are that file's, from
//     that line on, as Go's compiler counts them.
//
// The interpreter must not see the directives: yaegi keeps a file's imports under the file name a
// position reports, so a cell naming another file would lose them. The kernel blanks them out of
// the source (same length, so every position stays) and keeps them here.

// wholeFileName is the name of a pasted file's source (a cell with a package clause).
const wholeFileName = "main.go"

// A sourceDirective is one //line directive of a cell: from cell line at+1 on, line n of file.
type sourceDirective struct {
	at   int // the cell line of the directive
	file string
	line int
}

// sourceNames are the names of a cell's lines.
type sourceNames struct {
	whole      bool // the cell has a package clause
	directives []sourceDirective
}

// position is what Go prints for line (the cell's) with log.Lshortfile: file:line.
func (sn sourceNames) position(line int) string {
	for i := len(sn.directives) - 1; i >= 0; i-- {
		if d := sn.directives[i]; d.at < line {
			return fmt.Sprintf("%s:%d", d.file, d.line+line-d.at-1)
		}
	}
	if sn.whole {
		return fmt.Sprintf("%s:%d", wholeFileName, line)
	}
	return fmt.Sprintf("%s:%d", scopeFile, line)
}

// takeLineDirectives finds src's //line file:LINE directives (and //line file:LINE:COL): line
// comments at the start of a line, not text in a string. It returns src with each one's "line"
// blanked, which go/parser then reads as a plain comment.
func takeLineDirectives(src string) (string, []sourceDirective) {
	if !strings.Contains(src, "//line ") {
		return src, nil
	}
	var s scanner.Scanner
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	s.Init(file, []byte(src), nil, scanner.ScanComments)
	var ds []sourceDirective
	b := []byte(src)
	for {
		pos, t, lit := s.Scan()
		if t == token.EOF {
			break
		}
		at := file.PositionFor(pos, false) // the scanner itself applies the directives
		if t != token.COMMENT || at.Column != 1 {
			continue
		}
		if d, ok := parseLineDirective(strings.TrimRight(lit, "\r")); ok {
			d.at = at.Line
			ds = append(ds, d)
			copy(b[file.Offset(pos)+2:], "    ") // //line → //     : no longer a directive
		}
	}
	return string(b), ds
}

// parseLineDirective reads a //line directive as Go's scanner does for the forms with a line:
// the file is everything up to the last colon or two (a Windows path keeps its drive's).
func parseLineDirective(l string) (sourceDirective, bool) {
	rest, ok := strings.CutPrefix(l, "//line ")
	if !ok {
		return sourceDirective{}, false
	}
	rest = strings.TrimSpace(rest)
	file, num, ok := cutLast(rest)
	if !ok {
		return sourceDirective{}, false
	}
	if f, n2, ok := cutLast(file); ok { // file:line:col
		if _, err := strconv.Atoi(n2); err == nil {
			file, num = f, n2
		}
	}
	n, err := strconv.Atoi(num)
	if err != nil || n <= 0 || file == "" {
		return sourceDirective{}, false
	}
	return sourceDirective{file: file, line: n}, true
}

// cutLast cuts s around its last colon.
func cutLast(s string) (before, after string, ok bool) {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+1:], true
}
