package viz_test

import (
	"testing"

	"gonum.org/v1/plot/cmpimg"
)

// Every figure's Example writes testdata/NAME.png; here it is compared with
// testdata/NAME_golden.png. After a deliberate change, look at the new images and run
//
//	go test ./viz -regen
//
// (cmpimg's flag) to make them the goldens.
func TestGolden(t *testing.T) {
	for _, c := range []struct {
		name    string
		example func()
	}{
		{"budget.png", ExampleCacheBudget},
		{"positions.png", ExamplePositions},
	} {
		t.Run(c.name, func(t *testing.T) { cmpimg.CheckPlot(c.example, t, c.name) })
	}
}
