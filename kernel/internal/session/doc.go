// Package session is the kernel's execution engine: one yaegi interpreter whose state lives
// across cells, the cell rewriting that closes the gaps between Go 1.26 and yaegi v0.16.1, and the
// capture of everything the process writes to stdout and stderr.
//
// A cell goes through these steps, one file each, in the order they run (Session.prepare,
// Session.run):
//
//	cell.go        drop a package clause, split into declaration and statement pieces, parse
//	               them in the cell's coordinates, order the declarations first; cellctx.go
//	               holds a cell on its way; sourcenames.go takes out its //line directives
//	               and names its lines as Go would in log output (main.go:3 when pasted whole)
//	typecheck.go   type-check the pieces with go/types against the session's package (Go's own
//	               errors; a cell that fails here changes nothing); importer.go gives go/types
//	               the compiled packages, from the interpreter's symbol tables
//	refuse.go      constructs the interpreter would get wrong: an Unsupported error, from the
//	               table in refusals.go (printing.go, records.go: what fmt and the encoders see;
//	               lookalike.go: struct types of one structure, which the interpreter
//	               conflates in interfaces, shared with modulerefuse.go; modulereflect.go:
//	               a cell's types handed to a module that reads types by reflection)
//	waiting.go     a cell of declarations that uses types no cell has declared yet waits,
//	               and runs again after the cell that declares them
//	plan.go        what the cell changes in the session's declarations: what it redefines,
//	               which earlier declarations are compiled again, dropped or broken
//	rewrite.go     gaps the kernel closes, as passes (passes.go, one file each, run in this
//	               order), and what top-level statements need in yaegi's global frame: typed
//	               := (typedDefines), frames of their own, a top-level defer (defers.go),
//	               interrupt checks; kinds.go and walk.go help them
//	generics.go          generic functions the prelude has its own version of
//	newexpr.go           new(expr), Go 1.26: a literal returning a new variable's address
//	typeargs.go          inferred type arguments (Go 1.21) written out
//	ifacestore.go        a cell's value stored in an interface: copied, as Go copies it
//	                     (tagged.go: a named number or string keeps its type there)
//	mainfunc.go          func main runs once, where it is declared
//	printbuiltins.go     print and println print as Go's runtime does
//	deferliterals.go     defer func() { … }() in a loop: made in its iteration
//	closures.go          a loop's closures handed to compiled code
//	selects.go           break and continue in a select
//	methodvalues.go      method values copy their receiver
//	rangefunc.go         range over a function (Go 1.23): the body as the yield callback
//	loopvars.go          per-iteration loop variables (Go 1.22)
//	rangeint.go          for i := range n (Go 1.22): a three-clause loop
//	switchinit.go        switch init; tag: the init outside (in module files too)
//	tagged.go            switch x { case Celsius(3): } on an interface: comparisons
//	typeswitch.go        type switches on non-empty interfaces, and on an any with a case of a
//	                     cell's struct type: a chain of assertions
//	typeswitchbinding.go switch x := v.(type): the binding in each case
//	gostmt.go            go f(x): arguments now, a panic reported to the cell
//	namedresults.go      named results start from their zero values
//	logsource.go         log.Lshortfile: the cell's line, not the interpreter's
//	multiassign.go       a, b = P{}, 0: every variable assigned (values in parentheses)
//	methodexpr.go        method expressions T.M: a function literal
//	cellassert.go        assertions from a cell's interface to a cell's value type
//	recovered.go         recover() gives Go's runtime errors
//	jsonerrors.go        json.Unmarshal's errors name a cell's struct as Go does
//	minmax.go            min and max with mixed untyped constants
//	wrappederrors.go     fmt.Errorf's %w of a cell's type: through an error variable
//	displayargs.go       display.Display(v) of a cell's type: its renderer methods
//	cellformat.go        %T, %+v, %#v of a cell's types: Go's names (goformat.go prints)
//	panicnil.go          panic(nil) panics with *runtime.PanicNilError (Go 1.21)
//	structnames.go       a module's struct types carry their names in a field tag, so
//	                     that two of one structure are two types (a module step)
//	ifaceparams.go       a module function's interface parameters unwrapped on entry (a
//	                     module step)
//	compiledassert.go    a module's assertion from error (a compiled interface) to its own
//	                     interface: through its types (a module step)
//	compile.go     yaegi compiles a piece (its compile panics become errors); a piece's var
//	               declarations go first, alone
//	run.go         evaluate: compile and run the pieces in order; the trailing expression
//	               becomes the result; a
//	               failed cell's names come back out of the interpreter (scope.go)
//	diagnose.go    a yaegi failure that comes from a known gap, explained
//
// Around them:
//
//	session.go     the Session: New, Execute, the preludes
//	runtime.go     the compiled package rewritten cells call (__gptnotes) and the builtins yaegi
//	               lacks; by topic: results.go (Out[n]), defers.go (top-level defers),
//	               exit.go (os.Exit), program.go (os.Args, flag, log), errorsas.go (errors.As
//	               into a cell's type), trace.go (the interpreted call stack of a panic)
//	prelude/       the slices, maps and cmp packages cells get, as Go source the interpreter
//	               runs (slices: one type parameter per function)
//	errors.go      one CellError per failing cell, with the interpreted call stack
//	goexit.go      a cell whose goroutine ended before its end (runtime.Goexit) fails
//	sealed.go      a grader's check cells: no name they use may be one an earlier cell
//	               redefined (panic, fmt), and only they may call what an exam reserves
//	capture.go     the cell's stdout and stderr, in one ordered stream to its sink, and fds 1
//	               and 2 piped to it for what writes to the descriptors directly
//	interrupt.go   interrupts, and cells that must stay stopped
//	callback.go    widget callbacks run as cells run
//	complete.go    completion, inspection and is_complete for the protocol
//
// Usage, from the protocol side:
//
//	s, err := session.New()
//	result, err := s.Execute(ctx, `fmt.Println("hi"); 6 * 7`, sink) // "hi\n" streams to sink
//	// result.Data["text/plain"] == "42"
package session
