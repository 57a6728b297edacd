package goeval_test

import (
	"fmt"

	"github.com/gptnotes/gptnotes/goeval"
)

// A sample is cut where the body of its first function closes (braces in strings do not
// count), then parsed as a file: one statement.
func ExampleFuncBodyEnd() {
	src := "package p\n\nfunc f() { s := \"}\" }\nfunc g() {}"
	end, ok := goeval.FuncBodyEnd(src)
	fmt.Printf("%q %v\n", src[:end], ok)
	stmts, ok := goeval.ParseFunc(src, end, ok)
	fmt.Println(stmts, ok)
	// Output:
	// "package p\n\nfunc f() { s := \"}\" }" true
	// 1 true
}
