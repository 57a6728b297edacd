// Cells get the standard library of the Go that builds the kernel (package
// kernel/symbols/stdlib), unrestricted: os/exec, syscall and unsafe import, and what Go added
// since yaegi's tables (sync.WaitGroup.Go, crypto/sha3, …) is there. Loggers of log.New have
// every method of a *log.Logger. os.Exit still ends only the cell.
import ("fmt"; "os"; "os/exec")
out, err := exec.Command("echo", "hi").Output()
fmt.Printf("%q %v\n", out, err)
// ---
import "errors"
_, err = exec.Command("sh", "-c", "exit 3").Output()
var exitErr *exec.ExitError
fmt.Println(errors.As(err, &exitErr), exitErr.ExitCode())
_, err = exec.LookPath("no-such-command-gptnotes")
errors.Is(err, exec.ErrNotFound)
// ---
import "log"
var logger *log.Logger = log.New(os.Stdout, "a: ", 0)
logger.SetPrefix("b: ")
logger.Println("hello")
fmt.Sprintf("%q", logger.Prefix())
// ---
import ("syscall"; "unsafe")
type pair struct { A int8; B int64 }
var p pair
*(*int64)(unsafe.Add(unsafe.Pointer(&p), unsafe.Offsetof(p.B))) = 42
fmt.Println(p.B, unsafe.Sizeof(p), syscall.Getpid() == os.Getpid())
// ---
import ("crypto/sha3"; "sync")
once := sync.OnceFunc(func() { fmt.Println("once") })
once()
once()
var wg sync.WaitGroup
var mu sync.Mutex
n := 0
for range 3 {
	wg.Go(func() { mu.Lock(); n++; mu.Unlock() })
}
wg.Wait()
sum := sha3.Sum256([]byte("abc"))
fmt.Printf("%d %x\n", n, sum[:4])
// ---
os.Exit(2)
// ---
fmt.Println("still here")
// Output:
// "hi\n" <nil>
// true 3
// Out: true
// b: hello
// Out: "b: "
// 42 16 true
// once
// 3 3a985da7
// Error: Exit: os.Exit(2) ended the cell; the kernel keeps running with every variable intact (restart the kernel to start over)
// still here
