//go:build race

package session

// raceEnabled reports whether the tests run under the race detector.
const raceEnabled = true
