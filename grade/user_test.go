//go:build unix

package grade

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCanRead: a model in a folder closed to others cannot be read by another user; once the
// folder is searchable (711, not listable) and the file readable to others, it can.
func TestCanRead(t *testing.T) {
	dir := t.TempDir()
	course := filepath.Join(dir, "course")
	model := filepath.Join(course, "gopher.safetensors")
	if err := os.Mkdir(course, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(model, []byte("weights"), 0o600); err != nil {
		t.Fatal(err)
	}
	os.Chmod(dir, 0o755) // t.TempDir's own folders are the test's business
	os.Chmod(filepath.Dir(dir), 0o755)
	other := &User{Name: "other", UID: os.Getuid() + 1, GID: os.Getgid() + 1}
	for _, step := range []struct {
		dirMode, fileMode os.FileMode
		want              string // in the error, "" for none
	}{
		{0o700, 0o600, "cannot enter " + course},
		{0o711, 0o600, "cannot read " + model},
		{0o711, 0o644, ""},
	} {
		os.Chmod(course, step.dirMode)
		os.Chmod(model, step.fileMode)
		err := other.CanRead(model)
		switch {
		case step.want == "" && err != nil:
			t.Errorf("folder %o, file %o: %v, want none", step.dirMode, step.fileMode, err)
		case step.want != "" && (err == nil || !strings.Contains(err.Error(), step.want)):
			t.Errorf("folder %o, file %o: %v, want %q", step.dirMode, step.fileMode, err, step.want)
		}
	}
	if owner := (&User{Name: "me", UID: os.Getuid(), GID: os.Getgid()}); owner.CanRead(model) != nil {
		t.Errorf("the owner cannot read its own file: %v", owner.CanRead(model))
	}
}

// TestStage: files another user cannot reach only because of a folder on the way are staged
// where it can, a model's tokenizer beside it; files it reaches keep their paths; a file its
// own mode closes stays an error.
func TestStage(t *testing.T) {
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	os.Chmod(filepath.Dir(dir), 0o755)
	course, open := filepath.Join(dir, "course"), filepath.Join(dir, "open")
	for _, d := range []string{course, open} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	model, tok, kernel := filepath.Join(course, "gopher.safetensors"), filepath.Join(course, "gopher.tok"), filepath.Join(open, "gptnotes")
	for _, f := range []string{model, tok, kernel} {
		if err := os.WriteFile(f, []byte("contents of "+filepath.Base(f)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	os.Chmod(course, 0o700)
	other := &User{Name: "other", UID: os.Getuid() + 1, GID: os.Getgid() + 1}
	paths, staged, err := Stage(other, []string{kernel, model, tok})
	if staged != "" {
		defer os.RemoveAll(staged)
	}
	if err != nil {
		t.Fatal(err)
	}
	if paths[0] != kernel {
		t.Errorf("a file the user reaches was staged: %s", paths[0])
	}
	if filepath.Dir(paths[1]) != filepath.Dir(paths[2]) || filepath.Dir(paths[1]) == course {
		t.Errorf("model and tokenizer staged at %s and %s, want one new folder", paths[1], paths[2])
	}
	for i, p := range paths {
		if err := other.CanRead(p); err != nil {
			t.Errorf("staged %s: %v", p, err)
		}
		got, _ := os.ReadFile(p)
		if want := "contents of " + filepath.Base([]string{kernel, model, tok}[i]); string(got) != want {
			t.Errorf("%s holds %q, want %q", p, got, want)
		}
	}
	os.Chmod(model, 0o600)
	if _, staged2, err := Stage(other, []string{model}); err == nil || !strings.Contains(err.Error(), "its mode") {
		t.Errorf("a file closed by its own mode: %v, want an error naming its mode", err)
	} else if staged2 != "" {
		os.RemoveAll(staged2)
	}
}
