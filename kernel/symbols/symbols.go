// Package symbols holds the yaegi symbol tables of the compiled packages cells can import: the
// kernel's plugins. It has one hand-written file, this one; every other file is generated, by
// `yaegi extract` (one go:generate line per plugin) and by gendocs (the plugins' doc comments,
// for inspect_request). Regenerate with `make generate`; TestGeneratedUpToDate fails when the
// files on disk differ from what regenerating would write.
//
// A plugin is a compiled package exposed to cells: its symbols (a yaegi extract line below), an
// optional prelude (interpreted Go run when a session starts, in Preludes) and renderers (any
// of its types with an HTML, Markdown, SVG, PNG, JPEG, Latex or JSON method, or a *plot.Plot or
// image.Image, displays as that MIME type; see package display). Adding one is one line here
// and `make generate`.
package symbols

import "reflect"

//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract github.com/gptnotes/gptnotes/kernel/display
//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract github.com/gptnotes/gptnotes/kernel/comm
//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract github.com/gptnotes/gptnotes/kernel/widget
//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract gonum.org/v1/plot
//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract gonum.org/v1/plot/plotter
//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract gonum.org/v1/plot/vg
//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract gonum.org/v1/plot/vg/draw
//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract gonum.org/v1/plot/plotutil
//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract gonum.org/v1/gonum/mat
//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract gonum.org/v1/gonum/stat
//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract github.com/gptnotes/gptnotes/gpt
//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract github.com/gptnotes/gptnotes/tokenizer
//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract github.com/gptnotes/gptnotes/viz
//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract github.com/gptnotes/gptnotes/study
//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract github.com/gptnotes/gptnotes/live
//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract github.com/gptnotes/gptnotes/gpt/check
//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract github.com/gptnotes/gptnotes/gpt/bench
//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract github.com/gptnotes/gptnotes/interp
//go:generate go run ../internal/gendocs -std fmt,strings,strconv,math,math/rand,sort,time,errors,os,bytes,unicode/utf8,image,image/color

// Symbols maps "importpath/pkgname" to the package's exported symbols, as interp.Use wants it.
var Symbols = map[string]map[string]reflect.Value{}

// Docs maps "importpath.Name" (and "importpath.Type.Method") to the declaration and doc comment
// of a plugin's exported symbol, and "importpath" to the package's doc; see docs.go.
var Docs = map[string]string{}

// Preludes is interpreted Go that every session runs at start, after the symbols are loaded:
// the place for a plugin's imports or helper functions written in Go for the cells.
var Preludes []string
