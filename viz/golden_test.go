package viz_test

import (
	"bytes"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot/cmpimg"
)

// Every figure's Example writes testdata/NAME.png; TestGolden compares it with
// testdata/NAME_golden.png using gonum's cmpimg, as gonum/plot's own tests do. After a
// deliberate change, look at the new images and make them the goldens with
//
//	go test ./viz -regen
//
// (cmpimg's flag). On a mismatch the difference is written to testdata/NAME_diff.png.
func TestGolden(t *testing.T) {
	for _, c := range []struct {
		name    string
		example func()
	}{
		{"residual.png", ExampleResidualNorms},
		{"budget.png", ExampleCacheBudget},
		{"positions.png", ExamplePositions},
		{"topn.png", ExampleTopTokens},
		{"nucleus.png", ExampleTopP},
		{"loss.png", ExampleLossCurve},
		{"attention.png", ExampleAttentionMap},
		{"attention_heads.png", ExampleAttentionHeads},
		{"attention_patterns.png", ExampleAttentionPatterns},
		{"precision.png", ExamplePrecisionDivergence},
		{"caching.png", ExampleCachingDifference},
		{"layermap.png", ExampleLayerMap},
		{"logitlens.png", ExampleLogitLens},
		{"headscores.png", ExampleHeadScores},
		{"roofline.png", ExampleRoofline},
		{"repeated.png", ExampleRepeatedLoss},
	} {
		t.Run(c.name, func(t *testing.T) { checkGolden(t, c.example, c.name) })
	}
}

func checkGolden(t *testing.T, example func(), name string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	golden := strings.TrimSuffix(path, ".png") + "_golden.png"
	example()
	if *cmpimg.GenerateTestData {
		if err := os.Rename(path, golden); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("the example wrote no image: %v", err)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("no golden image (run go test ./viz -regen): %v", err)
	}
	ok, err := cmpimg.Equal("png", got, want)
	if err != nil {
		t.Fatalf("compare %s with %s: %v", path, golden, err)
	}
	if ok {
		return
	}
	g, _, err1 := image.Decode(bytes.NewReader(got))
	w, _, err2 := image.Decode(bytes.NewReader(want))
	if err1 != nil || err2 != nil {
		t.Fatalf("%s differs from %s (and does not decode: %v, %v)", path, golden, err1, err2)
	}
	diff := image.NewRGBA64(g.Bounds().Union(w.Bounds()))
	r := cmpimg.Diff(diff, g, w)
	var buf bytes.Buffer
	png.Encode(&buf, diff)
	dpath := strings.TrimSuffix(path, ".png") + "_diff.png"
	os.WriteFile(dpath, buf.Bytes(), 0o644)
	t.Errorf("%s differs from %s in %v (size %v vs %v); difference in %s; if intended, go test ./viz -regen",
		path, golden, r, g.Bounds().Size(), w.Bounds().Size(), dpath)
}
