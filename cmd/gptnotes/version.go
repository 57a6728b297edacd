package main

import (
	"fmt"
	"runtime"

	"github.com/gptnotes/gptnotes/kernel"
)

func init() {
	register(command{name: "version", summary: "print gptnotes' version", run: runVersion})
}

func runVersion(args []string) error {
	fs := newFlags("version", "", "Prints the gptnotes version, the Go version and the Jupyter protocol version.")
	if err := fs.Parse(args); err != nil {
		return err
	}
	fmt.Printf("gptnotes %s (%s, %s/%s, Jupyter protocol %s)\n", kernel.Version, runtime.Version(), runtime.GOOS, runtime.GOARCH, kernel.ProtocolVersion)
	return nil
}
