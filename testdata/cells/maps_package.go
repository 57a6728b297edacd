// The generic functions of package maps take several type parameters, which yaegi v0.16.1
// cannot run: a clear error says to loop over the map.
import "maps"
m := map[string]int{"a": 1}
n := maps.Clone(m)
// Output:
// Error: Unsupported: cell:5:6: maps.Clone (the generic functions of package maps take several type parameters) is not supported by the interpreter (yaegi v0.16.1); loop over the map: for k, v := range m { … }
