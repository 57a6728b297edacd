// Package cmp: the kernel's copy of the standard library's cmp package for cells, in source, since
// yaegi v0.16.1 cannot take the standard library's generic functions from compiled code. The
// results match the standard library's, NaNs included (a NaN is less than every other value and
// equal to another NaN).
package cmp

// Ordered is the constraint of the types whose values < orders.
type Ordered interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uintptr | ~float32 | ~float64 | ~string
}

// Less reports whether x is less than y.
func Less[T Ordered](x, y T) bool {
	return (isNaN(x) && !isNaN(y)) || x < y
}

// Compare is -1 when x is less than y, 0 when they are equal, +1 when x is greater.
func Compare[T Ordered](x, y T) int {
	xNaN, yNaN := isNaN(x), isNaN(y)
	if xNaN {
		if yNaN {
			return 0
		}
		return -1
	}
	if yNaN {
		return +1
	}
	if x < y {
		return -1
	}
	if x > y {
		return +1
	}
	return 0
}

// Or returns the first of its arguments that is not the zero value (the zero value if none).
func Or[T comparable](vals ...T) T {
	var zero T
	for _, v := range vals {
		if v != zero {
			return v
		}
	}
	return zero
}

// isNaN reports whether x is a NaN, the one value not equal to itself.
func isNaN[T Ordered](x T) bool {
	return x != x
}
