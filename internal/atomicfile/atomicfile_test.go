package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A write that succeeds replaces the file, readable by everyone; one that fails leaves the
// old file as it was and no temporary file behind.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "loss.csv")
	put := func(s string) func(*os.File) error {
		return func(f *os.File) error { _, err := f.WriteString(s); return err }
	}
	if err := Write(path, put("old\n")); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, put("new\n")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new\n" {
		t.Errorf("after a second write the file holds %q, want %q", b, "new\n")
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v (%v), want 0644", fi.Mode(), err)
	}

	failed := errors.New("disk full")
	err := Write(path, func(f *os.File) error {
		f.WriteString("half a fi")
		return failed
	})
	if !errors.Is(err, failed) {
		t.Errorf("Write returned %v, want the writer's error", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new\n" {
		t.Errorf("after a failed write the file holds %q, want the previous %q", b, "new\n")
	}
	if es, _ := os.ReadDir(dir); len(es) != 1 {
		var names []string
		for _, e := range es {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %v, want only loss.csv", names)
	}
}
