package interp

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gptnotes/gptnotes/gpt"
)

// The reference model and numbers were written by tests/make_interp_reference.py, whose
// numpy shares no code with this package (see its doc string for what it computes).
const refDir = "testdata/reference"

type reference struct {
	Repeated   []int                  `json:"repeated"`
	HeadScores map[string][][]float64 `json:"head_scores"`
}

func readReference(t testing.TB) (*gpt.Model, reference) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(refDir, "reference.json"))
	if err != nil {
		t.Fatal(err)
	}
	var ref reference
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	m, err := gpt.LoadHF(filepath.Join(refDir, "model.safetensors"))
	if err != nil {
		t.Fatal(err)
	}
	return m, ref
}

// maxDiff is the largest |a − b| over two tables of the same shape.
func maxDiff(t testing.TB, a, b [][]float64) float64 {
	t.Helper()
	if len(a) != len(b) {
		t.Fatalf("%d rows, want %d", len(a), len(b))
	}
	d := 0.0
	for i := range a {
		if len(a[i]) != len(b[i]) {
			t.Fatalf("row %d: %d values, want %d", i, len(a[i]), len(b[i]))
		}
		for j := range a[i] {
			d = math.Max(d, math.Abs(a[i][j]-b[i][j]))
		}
	}
	return d
}

// Every head's three scores agree with numpy's to 1e-5.
func TestReferenceHeadScores(t *testing.T) {
	m, ref := readReference(t)
	for _, d := range []Detector{PreviousToken, DuplicateToken, Induction} {
		lm, err := ScoreHeads(m, [][]int{ref.Repeated}, d, ScoreOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want, ok := ref.HeadScores[d.Name]
		if !ok {
			t.Fatalf("reference.json has no %q scores", d.Name)
		}
		if diff := maxDiff(t, lm.Values, want); diff > 1e-5 {
			t.Errorf("%s scores differ from numpy's by %.3g\ngot  %v\nwant %v", d.Name, diff, lm.Values, want)
		}
	}
}

// The committed reference is what tests/make_interp_reference.py writes now.
func TestReferenceIsCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs numpy")
	}
	python := "/usr/bin/python3"
	if err := exec.Command(python, "-c", "import numpy").Run(); err != nil {
		t.Skipf("skipping: %s with numpy is needed to rerun tests/make_interp_reference.py (%v)", python, err)
	}
	out := t.TempDir()
	if b, err := exec.Command(python, "../tests/make_interp_reference.py", "--out", out).CombinedOutput(); err != nil {
		t.Fatalf("make_interp_reference.py: %v\n%s", err, b)
	}
	for _, f := range []string{"model.safetensors", "config.json", "reference.json"} {
		a, err1 := os.ReadFile(filepath.Join(refDir, f))
		b, err2 := os.ReadFile(filepath.Join(out, f))
		if err1 != nil || err2 != nil || string(a) != string(b) {
			t.Errorf("%s differs from what tests/make_interp_reference.py writes now (%v, %v); rerun it and commit", f, err1, err2)
		}
	}
}
