//go:build !linux

package grade

import "errors"

var errNoConfine = errors.New("grade: confine: Landlock is Linux's; file access is not confined on this system")

// ConfineAvailable says why Confine cannot work here: it needs Linux's Landlock.
func ConfineAvailable() error { return errNoConfine }

// Confine is not available on this system.
func Confine(writable, readable []string) error { return errNoConfine }
