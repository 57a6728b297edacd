// Package slices: the kernel's replacement for the generic functions of the standard library's
// slices package, which yaegi v0.16.1 cannot run (they take two type parameters, S ~[]E and E).
// Each takes the element type as its one type parameter; the results match the standard library.
package slices

import "sort"

type ordered interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64 | ~string
}

// Sort sorts x in ascending order.
func Sort[E ordered](x []E) {
	sort.Slice(x, func(i, j int) bool { return x[i] < x[j] || (x[i] != x[i] && x[j] == x[j]) })
}

// SortFunc sorts x in ascending order as determined by cmp (negative: a before b).
func SortFunc[E any](x []E, cmp func(a, b E) int) {
	sort.Slice(x, func(i, j int) bool { return cmp(x[i], x[j]) < 0 })
}

// SortStableFunc sorts x keeping the order of equal elements.
func SortStableFunc[E any](x []E, cmp func(a, b E) int) {
	sort.SliceStable(x, func(i, j int) bool { return cmp(x[i], x[j]) < 0 })
}

// IsSorted reports whether x is sorted in ascending order.
func IsSorted[E ordered](x []E) bool {
	for i := len(x) - 1; i > 0; i-- {
		if x[i] < x[i-1] {
			return false
		}
	}
	return true
}

// BinarySearch searches for target in a sorted slice: its position and whether it is there.
func BinarySearch[E ordered](x []E, target E) (int, bool) {
	i := sort.Search(len(x), func(i int) bool { return x[i] >= target })
	return i, i < len(x) && x[i] == target
}

// Max returns the largest element of x; it panics if x is empty.
func Max[E ordered](x []E) E {
	if len(x) < 1 {
		panic("slices.Max: empty list")
	}
	m := x[0]
	for _, v := range x[1:] {
		if v > m {
			m = v
		}
	}
	return m
}

// Min returns the smallest element of x; it panics if x is empty.
func Min[E ordered](x []E) E {
	if len(x) < 1 {
		panic("slices.Min: empty list")
	}
	m := x[0]
	for _, v := range x[1:] {
		if v < m {
			m = v
		}
	}
	return m
}

// Index returns the index of the first occurrence of v in s, or -1.
func Index[E comparable](s []E, v E) int {
	for i := range s {
		if v == s[i] {
			return i
		}
	}
	return -1
}

// IndexFunc returns the first index i satisfying f(s[i]), or -1.
func IndexFunc[E any](s []E, f func(E) bool) int {
	for i := range s {
		if f(s[i]) {
			return i
		}
	}
	return -1
}

// Contains reports whether v is present in s.
func Contains[E comparable](s []E, v E) bool { return Index(s, v) >= 0 }

// ContainsFunc reports whether at least one element e of s satisfies f(e).
func ContainsFunc[E any](s []E, f func(E) bool) bool { return IndexFunc(s, f) >= 0 }

// Equal reports whether two slices have the same length and equal elements.
func Equal[E comparable](s1, s2 []E) bool {
	if len(s1) != len(s2) {
		return false
	}
	for i := range s1 {
		if s1[i] != s2[i] {
			return false
		}
	}
	return true
}

// Clone returns a copy of the slice (nil stays nil).
func Clone[E any](s []E) []E {
	if s == nil {
		return nil
	}
	c := make([]E, len(s))
	copy(c, s)
	return c
}

// Reverse reverses the elements of the slice in place.
func Reverse[E any](s []E) {
	for i := 0; i < len(s)/2; i++ {
		j := len(s) - 1 - i
		t := s[i]
		s[i] = s[j]
		s[j] = t
	}
}

// All is an iterator over the indexes and values of s, in order.
func All[E any](s []E) func(yield func(int, E) bool) {
	return func(yield func(int, E) bool) {
		for i, v := range s {
			if !yield(i, v) {
				return
			}
		}
	}
}

// Values is an iterator over the values of s, in order.
func Values[E any](s []E) func(yield func(E) bool) {
	return func(yield func(E) bool) {
		for _, v := range s {
			if !yield(v) {
				return
			}
		}
	}
}

// Backward is an iterator over the indexes and values of s, from the last to the first.
func Backward[E any](s []E) func(yield func(int, E) bool) {
	return func(yield func(int, E) bool) {
		for i := len(s) - 1; i >= 0; i-- {
			if !yield(i, s[i]) {
				return
			}
		}
	}
}

// AppendSeq appends the values of seq to s and returns the longer slice.
func AppendSeq[E any](s []E, seq func(yield func(E) bool)) []E {
	seq(func(v E) bool {
		s = append(s, v)
		return true
	})
	return s
}

// Collect returns a new slice of the values of seq.
func Collect[E any](seq func(yield func(E) bool)) []E {
	return AppendSeq([]E(nil), seq)
}

// Sorted returns a new slice of the values of seq, sorted in ascending order.
func Sorted[E ordered](seq func(yield func(E) bool)) []E {
	s := Collect(seq)
	Sort(s)
	return s
}
