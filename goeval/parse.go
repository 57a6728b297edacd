package goeval

import (
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"strings"

	"github.com/gptnotes/gptnotes/gpt"
	"github.com/gptnotes/gptnotes/tokenizer"
)

// ParsePrompt is the start of a Go file up to the opening brace of a function's body: the
// prompt every sample of "does its Go parse?" continues.
const ParsePrompt = `// Copyright 2025 The Go Authors. All rights reserved.
// Use of this source code is governed by a BSD-style
// license that can be found in the LICENSE file.

package main

import (
	"fmt"
	"os"
)

func main() {`

// ParseOptions are the samples of "does its Go parse?".
type ParseOptions struct {
	Samples int        // seeds 1 … Samples, e.g. 100
	MaxNew  int        // most tokens a sample may add, e.g. 256
	Policy  gpt.Policy // e.g. temperature 0.8, top-k 200; the seed is each sample's
	Keep    int        // keep the text of this many samples that parse
}

// ParseResult counts the samples.
type ParseResult struct {
	Samples int
	Closed  int      // the body of main closed within MaxNew tokens
	Parsed  int      // go/parser accepts the file up to there, ending in a function with a body
	Long    int      // of those, with ≥ 3 statements at the body's top level
	Kept    []Sample // the first Keep samples that parse
}

// Sample is one sample that parses.
type Sample struct {
	Seed, Statements int
	Func             string // from "func main() {" to its closing brace
}

// Parse samples o.Samples continuations of ParsePrompt and counts those that parse.
func Parse(m *gpt.Model, tok *tokenizer.Tokenizer, o ParseOptions) (ParseResult, error) {
	prompt := tok.Encode(ParsePrompt)
	r := ParseResult{Samples: o.Samples}
	p := o.Policy
	for seed := 1; seed <= o.Samples; seed++ {
		p.Seed = uint64(seed)
		text, err := SampleFunc(m, tok, prompt, p, o.MaxNew)
		if err != nil {
			return r, err
		}
		end, closed := FuncBodyEnd(text)
		if closed {
			r.Closed++
		}
		stmts, ok := ParseFunc(text, end, closed)
		if !ok {
			continue
		}
		r.Parsed++
		if stmts >= 3 {
			r.Long++
		}
		if len(r.Kept) < o.Keep {
			r.Kept = append(r.Kept, Sample{Seed: seed, Statements: stmts, Func: text[len(ParsePrompt)-len("func main() {") : end]})
		}
	}
	return r, nil
}

// SampleFunc continues prompt under policy p until the first function body in the text
// closes, the model writes its end token, or maxNew tokens, and returns the whole text.
func SampleFunc(m *gpt.Model, tok *tokenizer.Tokenizer, prompt []int, p gpt.Policy, maxNew int) (string, error) {
	g, err := gpt.NewGenerator(m, prompt, p, true)
	if err != nil {
		return "", err
	}
	g.EndID = tok.EndTokenID()
	text := []byte(tok.Decode(prompt))
	for range maxNew {
		st, err := g.Step()
		if err != nil {
			return "", err
		}
		if st.End {
			break
		}
		piece := tok.Token(st.Token)
		text = append(text, piece...)
		if strings.Contains(string(piece), "}") {
			if _, ok := FuncBodyEnd(string(text)); ok {
				break
			}
		}
	}
	return string(text), nil
}

// FuncBodyEnd returns the offset just past the '}' that closes the body of the first
// top-level function in src, and whether it closes at all. It reads src with go/scanner,
// so braces inside strings, runes and comments do not count, and neither do the braces of
// a struct or interface type in the function's signature:
//
//	"func f() { s := \"}\" }\nfunc g() {}" → 21, true (the end of f)
//	"func f() { if x {"                      → 0, false
func FuncBodyEnd(src string) (int, bool) {
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	s.Init(file, []byte(src), func(token.Position, string) {}, scanner.ScanComments)
	inFunc := false       // after a top-level func keyword
	depth, parens := 0, 0 // braces and parentheses open
	body := false         // inside the function's body
	prev := token.ILLEGAL
	for {
		pos, tk, _ := s.Scan()
		switch tk {
		case token.EOF:
			return 0, false
		case token.COMMENT:
			continue
		case token.FUNC:
			if depth == 0 && parens == 0 && !inFunc {
				inFunc = true
			}
		case token.LPAREN:
			parens++
		case token.RPAREN:
			parens--
		case token.LBRACE:
			if inFunc && !body && depth == 0 && parens == 0 && prev != token.STRUCT && prev != token.INTERFACE {
				body = true
			}
			depth++
		case token.RBRACE:
			depth--
			if body && depth == 0 {
				return file.Offset(pos) + 1, true
			}
		}
		prev = tk
	}
}

// ParseFunc parses src up to end (the first function body's end, when closed) as a Go
// file and reports whether it is one whose last declaration is a function with a body,
// and how many statements that body holds at its top level.
func ParseFunc(src string, end int, closed bool) (stmts int, ok bool) {
	if !closed {
		return 0, false
	}
	f, err := parser.ParseFile(token.NewFileSet(), "sample.go", src[:end], parser.SkipObjectResolution)
	if err != nil || len(f.Decls) == 0 {
		return 0, false
	}
	fd, isFunc := f.Decls[len(f.Decls)-1].(*ast.FuncDecl)
	if !isFunc || fd.Body == nil {
		return 0, false
	}
	return len(fd.Body.List), true
}
