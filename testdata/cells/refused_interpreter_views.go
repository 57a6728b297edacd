// What would show the interpreter instead of the cell is refused, naming what to write
// instead: source lines and frames, encoding a struct with an embedded field (the interpreter
// does not mark it embedded), and a cell value with LogValue handed to a *slog.Logger method.
import (
	"encoding/xml"
	"log"
	"log/slog"
	"os"
	"runtime"
)
type Address struct{ City string }
type Person struct {
	Name string
	Address
}
type Token string
func (Token) LogValue() slog.Value { return slog.StringValue("REDACTED") }
// ---
logger := log.New(os.Stdout, "", log.Lshortfile)
// ---
pcs := make([]uintptr, 4)
n := runtime.Callers(0, pcs)
// ---
out, _ := xml.Marshal(Person{"Ann", Address{"Oslo"}})
// ---
slog.New(slog.NewTextHandler(os.Stdout, nil)).Info("granted", "token", Token("secret"))
// Output:
// Error: Unsupported: cell:1:38: Lshortfile (in a cell, the caller's frames and source lines are the interpreter's: value.go:586, reflect.Value.call) is not supported by the interpreter (yaegi v0.16.1); leave it out: a cell has no source file of its own
// Error: Unsupported: cell:2:14: Callers (in a cell, the caller's frames and source lines are the interpreter's: value.go:586, reflect.Value.call) is not supported by the interpreter (yaegi v0.16.1); leave it out: a cell has no source file of its own
// Error: Unsupported: cell:1:11: xml.Marshal of Person, a cell's struct with an embedded field Address (the interpreter builds cell structs with every field exported and none embedded, so xml.Marshal would not see what Go sees) is not supported by the interpreter (yaegi v0.16.1); export the fields, name the embedded ones, or convert to a struct type with only exported fields
// Error: Unsupported: cell:1:1: (*slog.Logger).Info with a Token argument (the interpreter hides its LogValue and String methods from slog's methods) is not supported by the interpreter (yaegi v0.16.1); log through the package's functions (slog.Info, …), or pass v.LogValue() or v.String()
