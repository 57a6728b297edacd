package main

import (
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

func TestInstallKernelSpec(t *testing.T) {
	prefix := t.TempDir()
	dir, err := installKernelSpec(true, prefix, "gptnotes-x")
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(prefix, "share", "jupyter", "kernels", "gptnotes-x"); dir != want {
		t.Errorf("installed in %s, want %s", dir, want)
	}
	var spec kernelSpec
	data, err := os.ReadFile(filepath.Join(dir, "kernel.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &spec); err != nil {
		t.Fatal(err)
	}
	if len(spec.Argv) != 3 || !filepath.IsAbs(spec.Argv[0]) || spec.Argv[1] != "kernel" || spec.Argv[2] != "{connection_file}" {
		t.Errorf("argv = %q, want [ABSOLUTE-BINARY kernel {connection_file}]", spec.Argv)
	}
	if spec.DisplayName != "Go (gptnotes)" || spec.Language != "go" || spec.InterruptMode != "message" {
		t.Errorf("spec = %+v", spec)
	}
	f, err := os.Open(filepath.Join(dir, "logo-64x64.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 64 || b.Dy() != 64 {
		t.Errorf("logo is %dx%d, want 64x64", b.Dx(), b.Dy())
	}
}

func TestLogoShape(t *testing.T) {
	img := drawLogo(64)
	if a := img.NRGBAAt(0, 0).A; a != 0 {
		t.Errorf("corner alpha %d, want 0 (the logo is a disc)", a)
	}
	if c := img.NRGBAAt(6, 32); c != goCyan {
		t.Errorf("disc edge pixel %v, want Go cyan %v", c, goCyan)
	}
	if c := img.NRGBAAt(17, 32); c != white {
		t.Errorf("node pixel %v, want white", c)
	}
}
