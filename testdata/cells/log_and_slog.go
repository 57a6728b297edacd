// A cell's log package is the program's standard logger: log.SetOutput and log.SetFlags reach
// what log/slog's default handler writes, as in Go, and a value's String method is used.
import (
	"log"
	"log/slog"
	"os"
)
type temp float64
func (t temp) String() string { return "warm" }
log.SetOutput(os.Stdout)
log.SetFlags(0)
log.Print("from log ", temp(30))
slog.Info("from slog", "t", temp(30))
log.SetPrefix("> ")
log.Println(log.Prefix() == "> ")
// Output:
// from log warm
// INFO from slog t=warm
// > true
