// Copied from yaegi v0.16.1 (stdlib/maptypes.go, Apache License 2.0): the interface wrappers
// yaegi needs for fmt, log, encoding/json and encoding/xml. Added here: log's printing functions
// (cells print through the process's standard logger, not a copy of yaegi's) and log/slog's,
// whose arguments are logged with their String and LogValue methods.

package stdlib

import (
	"encoding"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"log"
	"log/slog"
	"reflect"
)

func init() {
	mt := []reflect.Type{
		reflect.TypeOf((*fmt.Formatter)(nil)).Elem(),
		reflect.TypeOf((*fmt.Stringer)(nil)).Elem(),
	}

	MapTypes[reflect.ValueOf(fmt.Errorf)] = mt
	MapTypes[reflect.ValueOf(fmt.Fprint)] = mt
	MapTypes[reflect.ValueOf(fmt.Fprintf)] = mt
	MapTypes[reflect.ValueOf(fmt.Fprintln)] = mt
	MapTypes[reflect.ValueOf(fmt.Print)] = mt
	MapTypes[reflect.ValueOf(fmt.Printf)] = mt
	MapTypes[reflect.ValueOf(fmt.Println)] = mt
	MapTypes[reflect.ValueOf(fmt.Sprint)] = mt
	MapTypes[reflect.ValueOf(fmt.Sprintf)] = mt
	MapTypes[reflect.ValueOf(fmt.Sprintln)] = mt

	MapTypes[reflect.ValueOf(log.Fatal)] = mt
	MapTypes[reflect.ValueOf(log.Fatalf)] = mt
	MapTypes[reflect.ValueOf(log.Fatalln)] = mt
	MapTypes[reflect.ValueOf(log.Panic)] = mt
	MapTypes[reflect.ValueOf(log.Panicf)] = mt
	MapTypes[reflect.ValueOf(log.Panicln)] = mt
	MapTypes[reflect.ValueOf(log.Print)] = mt
	MapTypes[reflect.ValueOf(log.Printf)] = mt
	MapTypes[reflect.ValueOf(log.Println)] = mt

	smt := append([]reflect.Type{reflect.TypeOf((*slog.LogValuer)(nil)).Elem()}, mt...)
	for _, f := range []any{slog.Info, slog.Warn, slog.Error, slog.Debug, slog.InfoContext,
		slog.WarnContext, slog.ErrorContext, slog.DebugContext, slog.Log, slog.Any, slog.Group, slog.AnyValue} {
		MapTypes[reflect.ValueOf(f)] = smt
	}

	mt = []reflect.Type{reflect.TypeOf((*fmt.Scanner)(nil)).Elem()}

	MapTypes[reflect.ValueOf(fmt.Scan)] = mt
	MapTypes[reflect.ValueOf(fmt.Scanf)] = mt
	MapTypes[reflect.ValueOf(fmt.Scanln)] = mt

	MapTypes[reflect.ValueOf(json.Marshal)] = []reflect.Type{
		reflect.TypeOf((*json.Marshaler)(nil)).Elem(),
		reflect.TypeOf((*encoding.TextMarshaler)(nil)).Elem(),
	}
	MapTypes[reflect.ValueOf(json.Unmarshal)] = []reflect.Type{
		reflect.TypeOf((*json.Unmarshaler)(nil)).Elem(),
		reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem(),
	}
	MapTypes[reflect.ValueOf(xml.Marshal)] = []reflect.Type{
		reflect.TypeOf((*xml.Marshaler)(nil)).Elem(),
		reflect.TypeOf((*encoding.TextMarshaler)(nil)).Elem(),
	}
	MapTypes[reflect.ValueOf(xml.Unmarshal)] = []reflect.Type{
		reflect.TypeOf((*xml.Unmarshaler)(nil)).Elem(),
		reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem(),
	}
}
