package stdlib

// The symbols `yaegi extract` names by a local name instead of the package's (its extract
// package's "restricted" list): the standard library functions that would end or escape the
// interpreter's process. They behave as in yaegi's stdlib/restricted.go, except that the
// loggers of log.New have every method of a *log.Logger (yaegi's lack SetPrefix, among others).

import (
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"strconv"
)

var errRestricted = errors.New("restricted")

// osExit panics instead of ending the process.
func osExit(code int) { panic("os.Exit(" + strconv.Itoa(code) + ")") }

// osFindProcess is os.FindProcess, except for the process itself.
func osFindProcess(pid int) (*os.Process, error) {
	if pid == os.Getpid() {
		return nil, errRestricted
	}
	return os.FindProcess(pid)
}

// log.Fatal, Fatalf and Fatalln panic (log.Panic) instead of ending the process.
func logFatal(v ...any)                 { log.Panic(v...) }
func logFatalf(format string, v ...any) { log.Panicf(format, v...) }
func logFatalln(v ...any)               { log.Panicln(v...) }

// logLogger is log.Logger for interpreted code: a *log.Logger whose Fatal methods panic
// (Logger.Panic) instead of ending the process. Every other method is the *log.Logger's; the
// embedded Logger is the compiled one, for the APIs that take a *log.Logger.
type logLogger struct {
	*log.Logger
}

// logNew is log.New, wrapped.
func logNew(out io.Writer, prefix string, flag int) *logLogger {
	return &logLogger{log.New(out, prefix, flag)}
}

func (l *logLogger) Fatal(v ...any) {
	s := fmt.Sprint(v...)
	l.Logger.Output(2, s)
	panic(s)
}

func (l *logLogger) Fatalf(format string, v ...any) {
	s := fmt.Sprintf(format, v...)
	l.Logger.Output(2, s)
	panic(s)
}

func (l *logLogger) Fatalln(v ...any) {
	s := fmt.Sprintln(v...)
	l.Logger.Output(2, s)
	panic(s)
}
