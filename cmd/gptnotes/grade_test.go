package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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

// TestGradeRefusesUnreadable: as root, the grader runs its kernels as nobody, and refuses to start
// when nobody cannot read the program (this test binary, in go test's folder that only root may
// enter), rather than fail every submission.
func TestGradeRefusesUnreadable(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("the kernels run as the grader's own user unless it is root")
	}
	dir := t.TempDir()
	sub := filepath.Join(dir, "alice.ipynb")
	os.WriteFile(sub, []byte(`{"nbformat": 4, "cells": []}`), 0o644)
	exe, _ := os.Executable()
	closed := "" // the nearest folder above the program that others may not enter
	for d := filepath.Dir(exe); closed == "" && d != filepath.Dir(d); d = filepath.Dir(d) {
		if fi, err := os.Stat(d); err == nil && fi.Mode().Perm()&0o001 == 0 {
			closed = d
		}
	}
	if closed == "" {
		t.Skipf("every folder above %s is open to others: nothing to refuse", exe)
	}
	err := quietly(func() error {
		return runGrade([]string{"--out", filepath.Join(dir, "out"), "--against", "../../notebooks/07-exercises.ipynb", sub})
	})
	if err == nil || !strings.Contains(err.Error(), "nobody cannot enter "+closed) || !strings.Contains(err.Error(), "--user") {
		t.Errorf("err %v, want nobody refused the program's folder, and --user named", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "out")); err == nil {
		t.Error("an output directory was written though nothing was graded")
	}
}
