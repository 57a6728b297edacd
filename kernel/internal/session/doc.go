// Package session is the kernel's execution engine: one yaegi interpreter whose state lives
// across cells, the cell rewriting that closes the gaps between Go 1.26 and yaegi v0.16.1, and the
// capture of everything the process writes to stdout and stderr.
//
// A cell goes through these passes, one file each, in the order they run (Session.run):
//
//	cell.go        drop a package clause, split into declaration and statement pieces, parse
//	               them in the cell's coordinates, order the declarations first
//	check.go       type-check the pieces with go/types against the session's package (Go's own
//	               errors; a cell that fails here changes nothing); importer.go gives go/types
//	               the compiled packages, from the interpreter's symbol tables
//	gaps.go        features the interpreter lacks: a clear Unsupported error
//	state.go       what the cell changes in the session's declarations: what it redefines,
//	               which earlier declarations are compiled again, dropped or broken
//	rewrite.go     gaps the kernel closes: typed := at the top level, range over int, loop
//	               variables, go statements, a top-level defer, func main, …; with a file each
//	               for closures.go (a loop's closures handed to compiled code), selects.go
//	               (break and continue in a select), typeswitch.go (type switches on
//	               interfaces) and methodvalues.go (method values copy their receiver);
//	               kinds.go and walk.go help them
//	session.go     evaluate: compile every piece, then run them in order; the trailing
//	               expression becomes the result (cellctx.go); scope.go takes a failed cell's
//	               names back out of the interpreter
//
// Around the passes:
//
//	runtime.go     the compiled helpers rewritten cells call (results, goroutine panics, defers,
//	               os.Exit, the program's command line)
//	slices.go.txt  the slices package cells get (one type parameter per function)
//	errors.go      one CellError per failing cell, with the interpreted call stack
//	goexit.go      a cell whose goroutine ended before its end (runtime.Goexit) fails
//	sealed.go      a grader's check cells: no name they use may be one an earlier cell
//	               redefined (panic, fmt), and only they may call what an exam reserves
//	capture.go     the cell's stdout and stderr, in one ordered stream to its sink, and fds 1
//	               and 2 piped to it for what writes to the descriptors directly
//	complete.go    completion, inspection and is_complete for the protocol
//
// Usage, from the protocol side:
//
//	s, err := session.New()
//	result, err := s.Execute(ctx, `fmt.Println("hi"); 6 * 7`, sink) // "hi\n" streams to sink
//	// result.Data["text/plain"] == "42"
package session
