// log.Fatal prints its message to stderr, then ends the cell as os.Exit(1) does: no deferred
// call runs, no recover stops it.
import ("fmt"; "log")
log.SetFlags(0)
defer fmt.Println("deferred: not printed")
defer func() { recover(); fmt.Println("recovered: not printed") }()
fmt.Println("before")
log.Fatal("bye")
// ---
fmt.Println("next cell")
// Output:
// before
// stderr: bye
// Error: Exit: os.Exit(1) ended the cell; the kernel keeps running with every variable intact (restart the kernel to start over)
// next cell
