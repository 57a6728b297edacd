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
