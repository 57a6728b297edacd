//go:build !linux

package pages

// Huge does nothing outside Linux: there is no transparent huge page to ask for.
func Huge[T any](s []T) {}
