// Package atomicfile writes a file so that a reader sees the old file or the whole new one,
// never half of one: the bytes go to a temporary file in the same directory, which is synced
// and then renamed over the path. A model, a checkpoint or a loss curve interrupted while it
// is written (Ctrl-C, a full disk) leaves the previous one in place.
//
//	err := atomicfile.Write("model.safetensors", func(f *os.File) error {
//		_, err := f.Write(data)
//		return err
//	})
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// Write writes path with write, through a temporary file in path's directory that is synced
// and renamed over path only when write succeeded; on any error path is unchanged and the
// temporary file is gone. The file is readable by everyone (0644), as a model shipped to
// other users must be.
func Write(path string, write func(f *os.File) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after a successful rename there is nothing left to remove
	// CreateTemp's 0600 would hide the file from other users.
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("sync %s: %w", tmp, err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
