package session

import (
	"encoding"
	"flag"
	"fmt"
	"log"
	"reflect"
	"sync"
	"time"

	"github.com/gptnotes/gptnotes/kernel/symbols/stdlib"
)

// programName is os.Args[0] in cells: a session is a program run as "gptnotes" with no
// arguments.
const programName = "gptnotes"

// The command line cells see, apart from the process's own: the kernel's (which it parsed before
// the first session started), or a test binary's (whose flag.CommandLine the testing package
// still needs once the tests have run). In cells, os.Args, flag.CommandLine and flag.Usage are
// these variables, and the flag package's functions act on cellFlags; compiled packages see the
// process's. (yaegi alone gives cells a copy of flag.CommandLine that the compiled flag
// functions never use, and flag.Parse parsed the kernel's own arguments.)
var (
	cellArgs    []string      // os.Args
	cellFlags   *flag.FlagSet // flag.CommandLine
	cellUsage   func()        // flag.Usage
	commandLine *flag.FlagSet // the flag.CommandLine freshCommandLine made last
)

// newProgram makes cells see a program just started with no arguments: os.Args is just its
// name, flag.CommandLine has no flags and has parsed nothing.
func newProgram() {
	cellArgs = []string{programName}
	freshCommandLine()
}

// freshCommandLine gives cells' flag.CommandLine the state of a program that has just started:
// no flags defined, nothing parsed, flag.Usage the default. A pasted program whose func main
// defines flags can run again without "flag redefined" panics: call it before each run of a
// cell's main (cells call it as __gptnotes.FreshCommandLine()). os.Args is left as it is: its
// first element names the new set, and a cell may have set it to pass arguments to main.
//
// Go's flag.CommandLine exits on a parse error (ExitOnError) through the process's real
// os.Exit, which would end the kernel. This one continues (ContinueOnError), and the cells'
// flag.Parse (flagParse) turns the error into the kernel's Exit, as ExitOnError would.
func freshCommandLine() {
	name := programName
	if len(cellArgs) > 0 {
		name = cellArgs[0]
	}
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(cellStderr)
	fs.Usage = func() { cellUsage() } // as Go's CommandLine: whatever flag.Usage is then
	cellFlags, commandLine = fs, fs
	cellUsage = defaultUsage
}

// defaultUsage is Go's flag.Usage, for the cells' command line.
func defaultUsage() {
	fmt.Fprintf(cellFlags.Output(), "Usage of %s:\n", cellFlags.Name())
	cellFlags.PrintDefaults()
}

// cellFlagSymbols is the flag package for cells: every function that Go's acts on
// flag.CommandLine acts on cellFlags.
func cellFlagSymbols(s *Session) map[string]reflect.Value {
	fs := func() *flag.FlagSet { return cellFlags }
	return map[string]reflect.Value{
		"CommandLine": reflect.ValueOf(&cellFlags).Elem(),
		"Usage":       reflect.ValueOf(&cellUsage).Elem(),
		"Parse":       reflect.ValueOf(s.flagParse),
		"NewFlagSet":  reflect.ValueOf(newFlagSet),

		"Arg":           reflect.ValueOf(func(i int) string { return fs().Arg(i) }),
		"Args":          reflect.ValueOf(func() []string { return fs().Args() }),
		"NArg":          reflect.ValueOf(func() int { return fs().NArg() }),
		"NFlag":         reflect.ValueOf(func() int { return fs().NFlag() }),
		"Parsed":        reflect.ValueOf(func() bool { return fs().Parsed() }),
		"PrintDefaults": reflect.ValueOf(func() { fs().PrintDefaults() }),
		"Lookup":        reflect.ValueOf(func(name string) *flag.Flag { return fs().Lookup(name) }),
		"Set":           reflect.ValueOf(func(name, value string) error { return fs().Set(name, value) }),
		"Visit":         reflect.ValueOf(func(fn func(*flag.Flag)) { fs().Visit(fn) }),
		"VisitAll":      reflect.ValueOf(func(fn func(*flag.Flag)) { fs().VisitAll(fn) }),
		"Var":           reflect.ValueOf(func(v flag.Value, name, usage string) { fs().Var(v, name, usage) }),
		"Func":          reflect.ValueOf(func(name, usage string, fn func(string) error) { fs().Func(name, usage, fn) }),
		"BoolFunc":      reflect.ValueOf(func(name, usage string, fn func(string) error) { fs().BoolFunc(name, usage, fn) }),
		"TextVar": reflect.ValueOf(func(p encoding.TextUnmarshaler, name string, value encoding.TextMarshaler, usage string) {
			fs().TextVar(p, name, value, usage)
		}),

		"Bool":     reflect.ValueOf(func(name string, value bool, usage string) *bool { return fs().Bool(name, value, usage) }),
		"BoolVar":  reflect.ValueOf(func(p *bool, name string, value bool, usage string) { fs().BoolVar(p, name, value, usage) }),
		"Int":      reflect.ValueOf(func(name string, value int, usage string) *int { return fs().Int(name, value, usage) }),
		"IntVar":   reflect.ValueOf(func(p *int, name string, value int, usage string) { fs().IntVar(p, name, value, usage) }),
		"Int64":    reflect.ValueOf(func(name string, value int64, usage string) *int64 { return fs().Int64(name, value, usage) }),
		"Int64Var": reflect.ValueOf(func(p *int64, name string, value int64, usage string) { fs().Int64Var(p, name, value, usage) }),
		"Uint":     reflect.ValueOf(func(name string, value uint, usage string) *uint { return fs().Uint(name, value, usage) }),
		"UintVar":  reflect.ValueOf(func(p *uint, name string, value uint, usage string) { fs().UintVar(p, name, value, usage) }),
		"Uint64":   reflect.ValueOf(func(name string, value uint64, usage string) *uint64 { return fs().Uint64(name, value, usage) }),
		"Uint64Var": reflect.ValueOf(func(p *uint64, name string, value uint64, usage string) {
			fs().Uint64Var(p, name, value, usage)
		}),
		"Float64": reflect.ValueOf(func(name string, value float64, usage string) *float64 { return fs().Float64(name, value, usage) }),
		"Float64Var": reflect.ValueOf(func(p *float64, name string, value float64, usage string) {
			fs().Float64Var(p, name, value, usage)
		}),
		"String":    reflect.ValueOf(func(name, value, usage string) *string { return fs().String(name, value, usage) }),
		"StringVar": reflect.ValueOf(func(p *string, name, value, usage string) { fs().StringVar(p, name, value, usage) }),
		"Duration": reflect.ValueOf(func(name string, value time.Duration, usage string) *time.Duration {
			return fs().Duration(name, value, usage)
		}),
		"DurationVar": reflect.ValueOf(func(p *time.Duration, name string, value time.Duration, usage string) {
			fs().DurationVar(p, name, value, usage)
		}),
	}
}

// flagParse is flag.Parse for cells: flag.CommandLine parses os.Args[1:]; on the command line
// freshCommandLine made, an error ends the cell as Go's ExitOnError ends the program: os.Exit(0)
// for -help, os.Exit(2) for any other.
func (s *Session) flagParse() {
	fs := cellFlags
	err := fs.Parse(cellArgs[1:])
	if err != nil && fs == commandLine {
		if err == flag.ErrHelp {
			s.exit(0)
		}
		s.exit(2)
	}
}

// newFlagSet is flag.NewFlagSet for cells. ExitOnError would call the process's real os.Exit and
// end the kernel: such a set panics instead (PanicOnError), which fails the cell.
func newFlagSet(name string, handling flag.ErrorHandling) *flag.FlagSet {
	if handling == flag.ExitOnError {
		handling = flag.PanicOnError
	}
	return flag.NewFlagSet(name, handling)
}

// logFatal is log.Fatal for cells: the message through the interpreter's logger (the one
// log.Print uses), then os.Exit(1).
func (s *Session) logFatal(msg string) {
	if out, ok := s.in.Symbols("log")["log"]["Output"].Interface().(func(int, string) error); ok {
		out(3, msg)
	} else {
		log.Output(3, msg)
	}
	s.exit(1)
}

// cellLogSymbols is package log for cells: its standard logger is the process's own, as in a
// program, so that log.SetOutput and log.SetFlags in a cell reach what compiled code logs
// through it (log/slog's default handler does); yaegi alone gives cells a logger of their own,
// and slog.Info then ignored a cell's log.SetOutput, with no error. Its output starts as the
// running cell's stderr (capture.go), and Fatal ends the cell (logFatal).
func cellLogSymbols(fatal, fatalf, fatalln reflect.Value) map[string]reflect.Value {
	log.SetOutput(logOutput{})
	log.SetFlags(log.LstdFlags)
	log.SetPrefix("")
	return map[string]reflect.Value{
		"Fatal": fatal, "Fatalf": fatalf, "Fatalln": fatalln,
		"Default": reflect.ValueOf(log.Default), "Flags": reflect.ValueOf(log.Flags),
		"Output": reflect.ValueOf(log.Output), "Prefix": reflect.ValueOf(log.Prefix),
		"Print": reflect.ValueOf(log.Print), "Printf": reflect.ValueOf(log.Printf),
		"Println": reflect.ValueOf(log.Println), "Panic": reflect.ValueOf(log.Panic),
		"Panicf": reflect.ValueOf(log.Panicf), "Panicln": reflect.ValueOf(log.Panicln),
		"SetFlags": reflect.ValueOf(log.SetFlags), "SetOutput": reflect.ValueOf(log.SetOutput),
		"SetPrefix": reflect.ValueOf(log.SetPrefix), "Writer": reflect.ValueOf(log.Writer),
	}
}

// logMapTypes are the interface wrappers yaegi gives the arguments of log.Fatal.
var logMapTypes = stdlib.MapTypes[reflect.ValueOf(log.Fatal)]

// The standard logger of compiled code writes to the running cell's stderr, in order with its
// stdout (capture.go), except while yaegi compiles: its
// log.Panic("nil type") messages go to the kernel log instead of the cell.
var (
	logMu   sync.Mutex
	muteLog bool
)

type logOutput struct{}

func (logOutput) Write(b []byte) (int, error) {
	logMu.Lock()
	m := muteLog
	logMu.Unlock()
	if m {
		return LogWriter().Write(b)
	}
	return cellStderr.Write(b)
}
