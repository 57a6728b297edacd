// Command gptnotes is the one binary of gptnotes: a Jupyter kernel for Go with GPT-2 inside.
// Its ten subcommands, one file each:
//
//	gptnotes install [--user | --prefix DIR] [--name NAME]   write the Jupyter kernelspec
//	gptnotes notebook [JUPYTER ARGS…]                         install, then open notebooks/
//	gptnotes kernel CONNECTION_FILE                           run the kernel (Jupyter starts this)
//	gptnotes generate [--weights PATH] [--prompt TEXT] …      continue a prompt, streaming
//	gptnotes train --corpus DIR … --out FILE                  train a tokenizer and a GPT-2
//	gptnotes evalmodel MODEL                                  measure a model trained on Go source
//	gptnotes reproduce [--out DIR] [--only NAME,…]            re-run the study's measurements
//	gptnotes bench [--models small,shipped] [--json] …        the machine's ceilings, the model's speed against them
//	gptnotes grade --against NOTEBOOK SUBMISSIONS…            grade exercise notebooks
//	gptnotes version                                          print the version
//
// `gptnotes SUBCOMMAND --help` lists each one's flags; docs/kernel.md describes them.
//
// Adding a subcommand: put it in its own file of this package and register it from init:
//
//	func init() {
//		register(command{
//			name:    "train",
//			summary: "train a small GPT-2 on a text file",
//			run:     runTrain, // func(args []string) error; parse flags with newFlags
//		})
//	}
//
// main dispatches on the first argument, and prints the registered commands, sorted, for
// `gptnotes --help`. No file needs to edit another's.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
)

// A command is one subcommand of gptnotes.
type command struct {
	name    string
	summary string                    // one line for `gptnotes --help`
	run     func(args []string) error // args after the subcommand's name
}

var commands = map[string]command{}

// register adds c; two commands with one name is a programming error.
func register(c command) {
	if _, dup := commands[c.name]; dup {
		panic("gptnotes: command " + c.name + " registered twice")
	}
	commands[c.name] = c
}

// newFlags is a flag set for subcommand name whose --help prints usage (the argument synopsis)
// and the flags. Parse errors return instead of exiting, so main reports them uniformly.
func newFlags(name, usage, summary string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: gptnotes %s %s\n\n%s\n", name, usage, summary)
		var any bool
		fs.VisitAll(func(*flag.Flag) { any = true })
		if any {
			fmt.Fprintln(fs.Output(), "\nflags:")
			fs.PrintDefaults()
		}
	}
	return fs
}

func usage() {
	fmt.Fprintln(os.Stderr, "gptnotes: a Jupyter kernel for Go with GPT-2 inside\n\nusage: gptnotes COMMAND [ARGS…]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(os.Stderr, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(os.Stderr, "\n`gptnotes COMMAND --help` describes one command.")
}

func main() {
	if len(os.Args) < 2 {
		usage()
		os.Exit(2)
	}
	name := os.Args[1]
	switch name {
	case "-h", "-help", "--help", "help":
		usage()
		return
	}
	c, ok := commands[strings.TrimLeft(name, "-")]
	if !ok {
		fmt.Fprintf(os.Stderr, "gptnotes: unknown command %q\n\n", name)
		usage()
		os.Exit(2)
	}
	if err := c.run(os.Args[2:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		fmt.Fprintf(os.Stderr, "gptnotes %s: %v\n", c.name, err)
		os.Exit(1)
	}
}
