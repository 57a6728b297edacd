// os.Exit ends the cell, not the kernel.
import ("fmt"; "os")
v := 7
fmt.Println("before")
os.Exit(3)
fmt.Println("after")
// ---
fmt.Println(v)
// Output:
// before
// Error: Exit: os.Exit(3) ended the cell; the kernel keeps running with every variable intact (restart the kernel to start over)
// 7
