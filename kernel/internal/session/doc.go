// Package session is the kernel's execution engine: one yaegi interpreter whose state lives
// across cells, the cell rewriting that closes the gaps between Go 1.26 and yaegi v0.16.1, and the
// capture of everything the process writes to stdout and stderr.
//
// A cell goes through these steps, one file each:
//
//	cell.go        split into declaration and statement pieces, parsed in the cell's coordinates
//	kinds.go       what the syntax tells of an expression's kind (integer, function) without types
//	gaps.go        features the interpreter lacks: a clear Unsupported error
//	rewrite.go     gaps the kernel closes: range over int, loop variables, go statements, …
//	walk.go        the AST walker the rewrites use to replace expressions
//	cellctx.go     imports and types already seen, the trailing expression, compile errors
//	session.go     compile and run each piece; the trailing expression becomes the result
//	runtime.go     the compiled helpers rewritten cells call (results, goroutine panics, defers)
//	slices.go.txt  the slices package cells get (one type parameter per function)
//	errors.go      one CellError per failing cell, with the interpreted call stack
//	capture.go     fds 1 and 2 piped to the running cell's sink, as the output happens
//	complete.go    completion, inspection and is_complete for the protocol
//
// Usage, from the protocol side:
//
//	s, err := session.New()
//	result, err := s.Execute(ctx, `fmt.Println("hi"); 6 * 7`, sink) // "hi\n" streams to sink
//	// result.Data["text/plain"] == "42"
package session
