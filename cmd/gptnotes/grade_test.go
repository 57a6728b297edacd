package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gptnotes/gptnotes/grade"
)

// The grade command's argument errors; tests/test_grade.py runs it on submissions (it starts
// kernels, which are this binary).
func TestGradeCommandErrors(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "alice.ipynb")
	os.WriteFile(sub, []byte(`{"nbformat": 4, "cells": []}`), 0o644)
	noChecks := filepath.Join(dir, "original.ipynb")
	os.WriteFile(noChecks, []byte(`{"nbformat": 4, "cells": [{"cell_type": "code", "source": "1", "metadata": {}}]}`), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{sub}, "want --against NOTEBOOK"},
		{[]string{"--against", noChecks}, "want --against NOTEBOOK and at least one submission"},
		{[]string{"--against", noChecks, "--memory", "lots", sub}, "memory limit \"lots\""},
		{[]string{"--against", filepath.Join(dir, "missing.ipynb"), sub}, "missing.ipynb"},
		{[]string{"--against", sub, sub}, "no check cells"},
		{[]string{"--against", noChecks, sub}, "no check cells"},
	} {
		err := quietly(func() error { return runGrade(append([]string{"--out", filepath.Join(dir, "out")}, c.args...)) })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("grade %q: err %v, want %q", c.args, err, c.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Error("an output directory was written though nothing was graded")
	}
}

// quietly runs f with stderr discarded (the flag set's usage).
func quietly(f func() error) error {
	saved := os.Stderr
	null, _ := os.Open(os.DevNull)
	os.Stderr = null
	defer func() { os.Stderr = saved; null.Close() }()
	return f()
}

// TestGradeStagesWhatNobodyCannotReach: as root, the grader runs its kernels as nobody. The
// program (this test binary, in go test's folder that only root may enter) and a model in a
// folder closed to others are staged where nobody can read them, and the kernels pointed there;
// a model whose own mode closes it is refused before anything is graded, naming --user.
func TestGradeStagesWhatNobodyCannotReach(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("the kernels run as the grader's own user unless it is root")
	}
	nobody, err := grade.LookupUser("nobody")
	if err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	os.Chmod(dir, 0o700)
	model := filepath.Join(dir, "gopher.safetensors")
	if err := os.WriteFile(model, []byte("weights"), 0o644); err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	if nobody.CanRead(exe) == nil {
		t.Skipf("nobody reaches %s already: nothing to stage", exe)
	}
	t.Setenv("GPTNOTES_MODEL", model)
	opts := grade.Options{Kernel: []string{exe, "kernel"}, User: nobody, KernelReads: []string{exe, model}}
	staged, err := stageKernelReads(&opts)
	if staged != "" {
		defer os.RemoveAll(staged)
	}
	if err != nil {
		t.Fatal(err)
	}
	if opts.Kernel[0] == exe || !strings.HasPrefix(opts.Kernel[0], staged) {
		t.Errorf("kernel command %s, want the program staged in %s", opts.Kernel[0], staged)
	}
	if got := os.Getenv("GPTNOTES_MODEL"); got == model || !strings.HasPrefix(got, staged) {
		t.Errorf("GPTNOTES_MODEL=%s, want the model staged in %s", got, staged)
	}
	for _, p := range opts.KernelReads {
		if err := nobody.CanRead(p); err != nil {
			t.Errorf("staged: %v", err)
		}
	}

	os.Chmod(model, 0o600)
	t.Setenv("GPTNOTES_MODEL", model)
	sub := filepath.Join(dir, "alice.ipynb")
	os.WriteFile(sub, []byte(`{"nbformat": 4, "cells": []}`), 0o644)
	err = quietly(func() error {
		return runGrade([]string{"--out", filepath.Join(dir, "out"), "--against", "../../notebooks/07-exercises.ipynb", sub})
	})
	if err == nil || !strings.Contains(err.Error(), "nobody cannot read "+model) || !strings.Contains(err.Error(), "--user") {
		t.Errorf("err %v, want nobody refused the model by its mode, and --user named", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Error("an output directory was written though nothing was graded")
	}
}
