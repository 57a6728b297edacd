// Each run of a cell's func main sees a fresh command line, as a new process would: a pasted
// program that defines its flags in main runs again without "flag redefined".
import ("flag"; "fmt")
func main() {
	name := flag.String("name", "world", "whom to greet")
	flag.Parse()
	fmt.Println("hello,", *name, flag.NArg(), flag.Parsed())
}
// ---
import ("flag"; "fmt")
func main() {
	name := flag.String("name", "world", "whom to greet")
	flag.Parse()
	fmt.Println("hello,", *name, flag.NArg(), flag.Parsed())
}
// ---
fmt.Println(flag.Parsed())
main()
// Output:
// hello, world 0 true
// hello, world 0 true
// true
// hello, world 0 true
