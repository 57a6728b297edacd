package session

import (
	"strconv"
	"strings"
)

// The gaps the kernel cannot close it refuses: an Unsupported error that names the construct and
// what to write instead, never a wrong answer. Most are found before yaegi runs (refuse in
// refuse.go, from the type-checked cell), some from yaegi's failure (diagnose.go), and a few while
// the cell runs (the runtime's checks: records.go, recovered.go, ifacestore.go).

// A construct is a Go construct the kernel refuses; refusals has its entry.
type construct int

const (
	hiddenFields construct = iota
	cellTypeVerb
	hiddenFmtMethods
	hiddenEncoderMethods
	wrapperVerb
	valueErrorAs
	slogValuer
	callerFrames
	parallelMethodValue
	iterPackage
	loopVarChanged
	rangeOverFunc
	compiledMethodExpr
	iteratorFunc
	genericAlias
	newOfUnwritableType
	anyToInterface
	interfaceAssertion
	valueTypeAssertion
	anyTypeSwitch
	interfaceAssertionFailed
	nilInInterface
	printedRecord
	recoveredReflectPanic
	dynamicCellVerb
	printedInterface
	unsafeHeader
	taggedSwitchBreak
	mapElemCommaOK
	typeParamCase
	typeParamCompare
	memStats
	lookalikeStruct
	structSwitchBreak
	reflectedCellType
	moduleAssertsCellType

	lastConstruct = moduleAssertsCellType // (a new construct goes before this line, and becomes it)
)

// A refusal says, for one construct, what the kernel detected and what to write instead. In
// both, {1}, {2}, … stand for what the detection found.
type refusal struct {
	name     string // the construct, in a few words
	detected string // what the kernel detected, and why the interpreter would get it wrong
	instead  string // what to write instead
}

var refusals = [...]refusal{
	hiddenFields: {"a cell's struct with hidden fields, encoded or reflected",
		"{1} of {2}, a cell's struct with an {3} (the interpreter builds cell structs with every field exported and none embedded, so {1} would not see what Go sees)",
		"export the fields, name the embedded ones, or convert to a struct type with only exported fields"},
	cellTypeVerb: {"%+v, %#v or %T of a cell's type the kernel cannot describe",
		"{1} of {2}, a type a cell declares with a String, Error, GoString or Format method, an interface value, an anonymous struct or a map keyed by a cell's type inside, or through an argument index or * (the interpreter's types print other field and type names, and hide the methods)",
		"print with %v, or print the fields yourself"},
	hiddenFmtMethods: {"fmt's methods of a cell's type inside a composite",
		"{1} of {2}, whose {3} method Go's fmt calls (the interpreter hides a cell type's methods from fmt inside slices, arrays, maps and fields)",
		"print the values one by one, or call {3}() yourself"},
	hiddenEncoderMethods: {"an encoder's methods of a cell's type inside a composite",
		"{1} of {2}, whose {3} method Go's encoder calls (the interpreter hides a cell type's methods inside slices, arrays, maps and fields)",
		"encode or decode those values one by one, or convert them to plain values first"},
	wrapperVerb: {"a verb that prints the wrapper of a cell's type with a String method",
		"{1} of {2}, a cell's type with the method {3} (the interpreter hands fmt a wrapper, and {1} would print the wrapper's fields)",
		"convert to the underlying type, e.g. int(v)"},
	valueErrorAs: {"errors.As into a cell's error type that is not a pointer",
		"errors.As or AsType into a {1}, a cell's error type that is not a pointer (the interpreter hands compiled code a wrapper of such an error, which errors.As cannot match)",
		"give {1} its Error method on *{1}, return &{1}{…}, and pass a *{1} variable's address"},
	slogValuer: {"a slog method with a cell's LogValuer or Stringer",
		"{1} with a {2} argument (the interpreter hides its LogValue and String methods from slog's methods)",
		"log through the package's functions (slog.Info, …), or pass v.LogValue() or v.String()"},
	callerFrames: {"the caller's frames and source lines",
		"{1} (in a cell, the caller's frames and source lines are the interpreter's: value.go:586, reflect.Value.call)",
		"leave it out: a cell has no source file of its own"},
	parallelMethodValue: {"a method value in a parallel assignment",
		"a method value with a value receiver ({1}) among the values of a parallel assignment (the interpreter would not copy the receiver, so later changes would reach it)",
		"assign it on a line of its own: f := {1}"},
	iterPackage: {"package iter",
		"package iter (range-over-func iterators, Go 1.23)",
		"return a slice, or pass a callback: seq(func(v T) bool { …; return true })"},
	loopVarChanged: {"a loop variable changed after a literal reads it",
		"changing {1} after a function literal of its loop reads it (Go 1.22 gives each iteration its own variable; the kernel gives the literal a copy)",
		"change it before the literal is made, or declare what the literal reads outside the loop"},
	rangeOverFunc: {"range over a function with goto, a labeled jump, defer, or a return outside a function",
		"range over a function (iterators, Go 1.23) whose body jumps with goto or a label, defers, returns from a cell's top level, or uses a type the cell cannot write",
		"move the jump, defer or return out of the loop, or call the function with a yield callback: f(func(v T) bool { …; return true })"},
	compiledMethodExpr: {"a method expression on a compiled type",
		"a method expression T.M on a type of a compiled package",
		"write a function literal: func(t T, args…) { return t.M(args…) }"},
	iteratorFunc: {"a standard-library function that returns an iterator",
		"{1} (it returns an iterator, Go 1.23)",
		"call the function that returns a slice (strings.Split, strings.Fields, bytes.Split) and range over it"},
	genericAlias: {"a generic type alias",
		"a generic type alias ({1}, Go 1.24)",
		"declare a defined type: the same declaration without the = (type {1}[…] …), or write the aliased type out"},
	newOfUnwritableType: {"new(expr) of a type the cell cannot write",
		"new(expr) with expr of type {1}, which this cell cannot write (a package it does not import, or an unexported type; the kernel writes Go 1.26's new(expr) with the type of expr),",
		"import the package, or write v := expr; p := &v"},
	anyToInterface: {"a type assertion from any to an interface",
		"a type assertion from any to an interface type (it never succeeds)",
		"assert to the concrete type, or declare the variable with the interface type"},
	interfaceAssertion: {"a type assertion to a cell's interface",
		"a type assertion to the interface {1} from a value of interface type {2} (the interpreter answers no where Go answers yes)",
		"assert to the concrete types, or call the method through a compiled interface such as fmt.Stringer"},
	valueTypeAssertion: {"a type assertion to a cell's type that is not a pointer",
		"a type assertion to {1}, a cell's type that is not a pointer, from a value of interface type {2} (the interpreter does not match it)",
		"give the type pointer methods and assert to *{1}, or use errors.As with a *{1}"},
	anyTypeSwitch: {"a type switch on any with interface cases",
		"a type switch on an any value with interface-type cases (they never match)",
		"switch on concrete types, or declare the variable with the interface type"},
	interfaceAssertionFailed: {"a type assertion to an interface yaegi rejects",
		"a type assertion or type switch to an interface type on this value",
		"assert to concrete types, or declare the variable with the interface type"},
	nilInInterface: {"a nil pointer stored in an interface with methods",
		"{1} (Go keeps the pointer's type, so the interface is not nil; the interpreter stores a nil interface, and err == nil would be true)",
		"return or store nil itself where you mean no value: if p == nil { return nil }"},
	printedRecord: {"printing an interface that holds a cell's type with methods",
		"{1} of a value holding a cell's type with methods in an interface (an any or interface-typed variable, element, map entry or field: the interpreter keeps such a value as an internal record, and {1} would print the record, not the value)",
		"print such values one by one, each by its own variable"},
	recoveredReflectPanic: {"recover() of reflect's panic",
		"recover() of the interpreter's panic \"{1}\" (Go's panic value says {2}, with the index and length, which the interpreter does not keep)",
		"check the index or the pointer before using it, rather than recovering"},
	dynamicCellVerb: {"%+v, %#v or %T of an interface value that may hold a cell's value",
		"{1} of a value of type {2} holding {3}, which may be {4} (the interpreter gives a cell's types no names, so fmt would print other names)",
		"print the value through a variable of the cell's type, or with %v"},
	printedInterface: {"print or println of a non-nil interface value",
		"print or println of an interface value holding {1} (Go's runtime prints the addresses of its type and data, which the interpreter's values do not have)",
		"print it with fmt.Println"},
	unsafeHeader: {"a string's or slice's header read through unsafe.Pointer",
		"unsafe.Pointer(&{1}), {1} a {2}: its header read as memory (the interpreter's strings and slices do not keep the data pointers Go's do: an empty slice of a string has none)",
		"use unsafe.StringData, unsafe.SliceData, len and cap, or compare the values themselves"},
	taggedSwitchBreak: {"a type switch with break and a case of a cell's named number or string type",
		"a type switch on an interface value with a case of {1}, a cell's named number or string type, and a break out of the switch (the kernel asks for such a type through a chain of assertions, which break would leave)",
		"leave the switch by the end of its case, or write the case as an if with v, ok := x.({1})"},
	mapElemCommaOK: {"a comma-ok assignment into a map element",
		"{1}, {2} = … with {1} an element of a map (the interpreter leaves the map as it was)",
		"assign to variables first: v, ok := …; {1} = v"},
	typeParamCase: {"a type switch case of a type parameter",
		"case {1} of a type switch, {1} a type parameter (the interpreter matches it against the wrong type when the argument is an interface)",
		"switch on concrete types, or pass the type's zero value and compare with reflect.TypeOf"},
	typeParamCompare: {"an interface compared with a type parameter's value",
		"{1} compares an interface with a value of type parameter {2} (the interpreter does not convert the value to the interface first, as Go does)",
		"convert the value yourself: any({3}) or the interface's type"},
	memStats: {"runtime.ReadMemStats",
		"runtime.ReadMemStats (in a cell, the figures count the interpreter's own allocations and what its frames keep alive, so they are not the program's)",
		"measure memory from outside the kernel (its process's resident set), or in a compiled program"},
	lookalikeStruct: {"a type assertion to a struct type with a look-alike",
		"{1}: the interpreter cannot tell {2} from {3}, struct types of one structure ({4}), so in a value of type {5} one passes for the other",
		"give the types different fields (or field names), or tell the values apart by a method of an interface that each type implements its own way"},
	structSwitchBreak: {"a type switch on any with break and a case of a cell's struct type",
		"a type switch on an empty interface with case {1}, a cell's struct type (or a pointer to one), and a break out of the switch (the interpreter takes no such case; the kernel asks for the type through a chain of assertions, which break would leave)",
		"leave the switch by the end of its case, or write the case as an if with v, ok := x.({1})"},
	reflectedCellType: {"a cell's type handed to a module package that reads types by reflection",
		"{1} with an argument of type {2}: the module reads types by reflection, and the interpreter gives a cell's types no names and no methods there, and exports their fields (modulereflect.go)",
		"use the module with the standard library's types and the module's own (a cell's values copied into them), or compile the module into the kernel as a plugin (docs/kernel.md, section Adding your own package)"},
	moduleAssertsCellType: {"a cell's type handed to a module that asserts an error to its own interface",
		"{1} while {2} implements an interface the module asserts an error (or another compiled interface) to: the kernel asks for the module's own types there (compiledassert.go), and the interpreter would answer no for {2}",
		"hand the module its own values, or compile the module into the kernel as a plugin (docs/kernel.md, section Adding your own package)"},
}

// refused is the one place a refusal becomes a cell's error: Unsupported, at pos ("cell:2:5"),
// with the construct as detected and what to write instead, filled with what was found.
func refused(pos string, c construct, found ...string) *CellError {
	r := refusals[c]
	fill := func(s string) string {
		for i, f := range found {
			s = strings.ReplaceAll(s, "{"+strconv.Itoa(i+1)+"}", f)
		}
		return s
	}
	v := pos + ": " + fill(r.detected) + " is not supported by the interpreter (yaegi v0.16.1); " + fill(r.instead)
	return &CellError{Name: "Unsupported", Value: v, Traceback: []string{"Unsupported: " + v}}
}
