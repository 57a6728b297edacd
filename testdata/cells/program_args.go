// A cell sees what a program run with no arguments sees: os.Args is just the program's name,
// flag.Args() is empty, and flag.Parse() parses nothing.
import ("flag"; "fmt"; "os")
fmt.Println(os.Args, len(flag.Args()), flag.Parsed())
flag.Parse()
fmt.Println(flag.Args(), flag.NArg(), flag.Parsed())
// ---
// Setting os.Args passes arguments to flag.Parse. (yaegi v0.16.1 drops an assignment to a
// compiled package's variable, os.Args = …; through a pointer it works.)
n := flag.Int("n", 1, "how many")
args := &os.Args
*args = []string{"gptnotes", "-n", "3", "rest"}
flag.Parse()
fmt.Println(*n, flag.Args(), flag.Lookup("n").Value, flag.CommandLine.Lookup("n").Value)
// ---
// A bad flag ends the cell as flag.ExitOnError ends a program, with the usage on stderr and
// os.Exit(2).
defer fmt.Println("deferred: not printed")
*args = []string{"gptnotes", "-nosuch"}
flag.Parse()
fmt.Println("after flag.Parse: not printed")
// ---
*args = os.Args[:1]
fmt.Println(os.Args, *n)
// Output:
// [gptnotes] 0 false
// [] 0 true
// 3 [rest] 3 3
// stderr: flag provided but not defined: -nosuch
// stderr: Usage of gptnotes:
// stderr:   -n int
// stderr:     	how many (default 1)
// Error: Exit: os.Exit(2) ended the cell; the kernel keeps running with every variable intact (restart the kernel to start over)
// [gptnotes] 3
