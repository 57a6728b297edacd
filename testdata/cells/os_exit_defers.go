// os.Exit ends the cell at once, as it ends a Go program: no deferred call runs (neither the
// function's nor the cell's own), and no deferred recover can stop it, whichever goroutine calls
// it. The kernel and the session's variables live on.
import ("fmt"; "os"; "time")
kept := "still here"
// ---
func f() {
	defer fmt.Println("deferred in f: not printed")
	fmt.Println("in f")
	os.Exit(3)
}
defer fmt.Println("deferred in the cell: not printed")
f()
fmt.Println("after f: not printed")
// ---
func g() {
	defer func() {
		if r := recover(); r != nil {
			fmt.Println("recovered: not printed", r)
		}
	}()
	os.Exit(4)
}
g()
// ---
go func() {
	defer fmt.Println("deferred in the goroutine: not printed")
	os.Exit(5)
}()
time.Sleep(10 * time.Second)
fmt.Println("after the sleep: not printed")
// ---
defer os.Exit(6)
defer fmt.Println("deferred last, so run first: printed")
fmt.Println("body")
// ---
fmt.Println(kept)
// Output:
// in f
// Error: Exit: os.Exit(3) ended the cell; the kernel keeps running with every variable intact (restart the kernel to start over)
// Error: Exit: os.Exit(4) ended the cell; the kernel keeps running with every variable intact (restart the kernel to start over)
// Error: Exit: os.Exit(5) ended the cell; the kernel keeps running with every variable intact (restart the kernel to start over)
// body
// deferred last, so run first: printed
// Error: Exit: os.Exit(6) ended the cell; the kernel keeps running with every variable intact (restart the kernel to start over)
// still here
