package grade

import (
	"go/parser"
	"go/scanner"
	"go/token"
	"slices"
	"strconv"
	"strings"
)

// In an exam, the functions the checks compare with are the checks' own: a submission whose
// answers call tokenizer.PairCounts or gpt.Entropy instead of writing them scores nothing for
// them. (In practice they may: the library is there to be used, and a student who finds the
// function has learnt where it is.) The kernel refuses a reserved function in every cell but
// the sealed checks that carry its key (GPTNOTES_RESERVED; kernel/internal/session/sealed.go).

// Reserved lists the library functions the check cells call, as "import/path.Name": each
// name X.Name in a check where X is a package the original notebook imports, not one of Go's
// standard library (fmt.Sprintf stays everyone's), nor one the notebook's other cells use (its
// setup's gpt.Pretrained and display.Check are given to all). The kernel reserves those of them that are
// functions; a method (cfg.NumParams) is not reserved.
func Reserved(original *Notebook, checks []Check) []string {
	imports := map[string]string{} // name in the cells → import path
	for _, c := range original.Cells {
		if c.Type != "code" {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), "", "package p\n"+c.Source, parser.ImportsOnly)
		if err != nil {
			continue
		}
		for _, im := range f.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			name := path[strings.LastIndexByte(path, '/')+1:]
			if im.Name != nil {
				name = im.Name.Name
			}
			imports[name] = path
		}
	}
	given := map[string]bool{} // what the notebook's own code calls, given to every student
	for _, c := range original.Cells {
		if c.Type == "code" && !c.IsCheck() {
			for _, name := range libraryNames(c.Source, imports) {
				given[name] = true
			}
		}
	}
	var out []string
	for _, k := range checks {
		for _, name := range libraryNames(k.Source, imports) {
			if !given[name] {
				out = append(out, name)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// libraryNames are the names X.Name in src where X is a name of imports, not a package of the
// standard library, as "import/path.Name".
func libraryNames(src string, imports map[string]string) []string {
	var s scanner.Scanner
	b := []byte(src)
	s.Init(token.NewFileSet().AddFile("", -1, len(b)), b, nil, 0)
	var out []string
	var lits [4]string // the last four tokens: "(", "gpt", ".", "Entropy"
	var toks [4]token.Token
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		copy(lits[:], lits[1:])
		copy(toks[:], toks[1:])
		lits[3], toks[3] = lit, tok
		if toks[0] != token.PERIOD && toks[1] == token.IDENT && toks[2] == token.PERIOD && toks[3] == token.IDENT {
			if path, ok := imports[lits[1]]; ok && !standard(path) {
				out = append(out, path+"."+lits[3])
			}
		}
	}
}

// standard reports whether path is a package of Go's standard library: its first element has
// no dot, as go/build has it.
func standard(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}
