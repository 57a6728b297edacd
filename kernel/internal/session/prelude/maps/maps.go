// Package maps: the kernel's copy of the standard library's maps package for cells. yaegi v0.16.1
// cannot infer the type arguments of the standard library's generic functions (M ~map[K]V with K
// and V found from M), so the kernel writes every call's type arguments out (maps.Clone(m) runs as
// maps.Clone[map[string]int, string, int](m)), and this source, with the standard library's
// signatures, is what yaegi runs. The iterator functions (All, Keys, Values, Insert, Collect)
// return plain function types, which a cell ranges over as the kernel writes range over a
// function (rangefunc.go).
package maps

// Clone returns a new map with the entries of m, of m's own map type (nil for a nil m).
func Clone[M ~map[K]V, K comparable, V any](m M) M {
	if m == nil {
		return nil
	}
	r := make(M, len(m))
	for k, v := range m {
		r[k] = v
	}
	return r
}

// Copy sets in dst every entry of src, replacing dst's value for a key both hold.
func Copy[M1 ~map[K]V, M2 ~map[K]V, K comparable, V any](dst M1, src M2) {
	for k, v := range src {
		dst[k] = v
	}
}

// DeleteFunc deletes every entry of m for which del returns true.
func DeleteFunc[M ~map[K]V, K comparable, V any](m M, del func(K, V) bool) {
	for k, v := range m {
		if del(k, v) {
			delete(m, k)
		}
	}
}

// Equal reports whether m1 and m2 hold the same keys with equal values.
func Equal[M1, M2 ~map[K]V, K, V comparable](m1 M1, m2 M2) bool {
	if len(m1) != len(m2) {
		return false
	}
	for k, v1 := range m1 {
		if v2, ok := m2[k]; !ok || v1 != v2 {
			return false
		}
	}
	return true
}

// EqualFunc is Equal with values compared by eq.
func EqualFunc[M1 ~map[K]V1, M2 ~map[K]V2, K comparable, V1, V2 any](m1 M1, m2 M2, eq func(V1, V2) bool) bool {
	if len(m1) != len(m2) {
		return false
	}
	for k, v1 := range m1 {
		if v2, ok := m2[k]; !ok || !eq(v1, v2) {
			return false
		}
	}
	return true
}

// All is an iterator over the entries of m.
func All[Map ~map[K]V, K comparable, V any](m Map) func(yield func(K, V) bool) {
	return func(yield func(K, V) bool) {
		for k, v := range m {
			if !yield(k, v) {
				return
			}
		}
	}
}

// Keys is an iterator over the keys of m.
func Keys[Map ~map[K]V, K comparable, V any](m Map) func(yield func(K) bool) {
	return func(yield func(K) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// Values is an iterator over the values of m.
func Values[Map ~map[K]V, K comparable, V any](m Map) func(yield func(V) bool) {
	return func(yield func(V) bool) {
		for _, v := range m {
			if !yield(v) {
				return
			}
		}
	}
}

// Insert adds the entries of seq to m.
func Insert[Map ~map[K]V, K comparable, V any](m Map, seq func(yield func(K, V) bool)) {
	seq(func(k K, v V) bool {
		m[k] = v
		return true
	})
}

// Collect returns a new map with the entries of seq.
func Collect[K comparable, V any](seq func(yield func(K, V) bool)) map[K]V {
	m := map[K]V{}
	Insert(m, seq)
	return m
}
