package widget

import (
	"fmt"
	"sort"
)

// Binary buffers in protocol 2: a []byte anywhere in a state (a map's value or a list's item)
// travels as a buffer of the message, its place named by a path of keys and indices; a list
// keeps null where it was, a map loses the key.

// removeBuffers returns a copy of state without its binary values, their paths and the values,
// in the order of the sorted keys.
func removeBuffers(state map[string]any) (map[string]any, []any, [][]byte) {
	paths := []any{}
	var buffers [][]byte
	var walk func(v any, path []any) any
	walk = func(v any, path []any) any {
		switch x := v.(type) {
		case []byte:
			paths = append(paths, append([]any(nil), path...))
			buffers = append(buffers, x)
			return nil
		case map[string]any:
			out := make(map[string]any, len(x))
			for _, k := range sortedKeys(x) {
				if _, bin := x[k].([]byte); bin {
					walk(x[k], append(path, k))
					continue
				}
				out[k] = walk(x[k], append(path, k))
			}
			return out
		case []any:
			out := make([]any, len(x))
			for i, e := range x {
				out[i] = walk(e, append(path, i))
			}
			return out
		}
		return v
	}
	return walk(state, nil).(map[string]any), paths, buffers
}

// putBuffers puts buffers into state at paths, as the front end removed them; a path that
// does not lead into state is an error.
func putBuffers(state map[string]any, paths []any, buffers [][]byte) error {
	if len(paths) != len(buffers) {
		return fmt.Errorf("%d buffer paths for %d buffers", len(paths), len(buffers))
	}
	for i, p := range paths {
		path, ok := p.([]any)
		if !ok || len(path) == 0 {
			return fmt.Errorf("buffer path %v is not a list of keys and indices", p)
		}
		var at any = state
		for j, step := range path {
			last := j == len(path)-1
			switch c := at.(type) {
			case map[string]any:
				k, ok := step.(string)
				if !ok {
					return fmt.Errorf("buffer path %v: %v is not a key of an object", path, step)
				}
				if last {
					c[k] = buffers[i]
				} else if at, ok = c[k]; !ok {
					return fmt.Errorf("buffer path %v: no %q in the state", path, k)
				}
			case []any:
				f, ok := step.(float64)
				n := int(f)
				if !ok || float64(n) != f || n < 0 || n >= len(c) {
					return fmt.Errorf("buffer path %v: %v is not an index of a list of %d", path, step, len(c))
				}
				if last {
					c[n] = buffers[i]
				} else {
					at = c[n]
				}
			default:
				return fmt.Errorf("buffer path %v: %v leads into a %T", path, step, at)
			}
		}
	}
	return nil
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
