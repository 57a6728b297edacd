// Package modtest writes module proxies for tests: a directory laid out as the Go module proxy
// protocol serves it, for GOPROXY=file://DIR, with each module's zip made by golang.org/x/mod/zip.
package modtest

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

// Module is one version of a module: its files by slash path ("go.mod" among them; one is
// written from the module path when missing).
type Module struct {
	Path, Version string
	Files         map[string]string
}

// WriteProxy writes mods into dir as a proxy serves them: <path>/@v/list, and per version
// .info, .mod and .zip.
func WriteProxy(dir string, mods ...Module) error {
	lists := map[string][]string{}
	for _, m := range mods {
		if m.Files["go.mod"] == "" {
			m.Files["go.mod"] = "module " + m.Path + "\n\ngo 1.21\n"
		}
		ep, err := module.EscapePath(m.Path)
		if err != nil {
			return err
		}
		ev, err := module.EscapeVersion(m.Version)
		if err != nil {
			return err
		}
		base := filepath.Join(dir, filepath.FromSlash(ep), "@v")
		if err := os.MkdirAll(base, 0o755); err != nil {
			return err
		}
		var files []modzip.File
		for name, text := range m.Files {
			files = append(files, file{name, text})
		}
		var zip bytes.Buffer
		if err := modzip.Create(&zip, module.Version{Path: m.Path, Version: m.Version}, files); err != nil {
			return fmt.Errorf("%s@%s: %w", m.Path, m.Version, err)
		}
		info := fmt.Sprintf(`{"Version":%q,"Time":%q}`, m.Version, time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Format(time.RFC3339))
		for ext, data := range map[string][]byte{".info": []byte(info), ".mod": []byte(m.Files["go.mod"]), ".zip": zip.Bytes()} {
			if err := os.WriteFile(filepath.Join(base, ev+ext), data, 0o644); err != nil {
				return err
			}
		}
		lists[base] = append(lists[base], m.Version)
	}
	for base, vs := range lists {
		if err := os.WriteFile(filepath.Join(base, "list"), []byte(strings.Join(vs, "\n")+"\n"), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// file is a module file held in memory.
type file struct{ name, text string }

func (f file) Path() string { return f.name }
func (f file) Lstat() (os.FileInfo, error) {
	return fileInfo{f}, nil
}
func (f file) Open() (io.ReadCloser, error) { return io.NopCloser(strings.NewReader(f.text)), nil }

type fileInfo struct{ f file }

func (fi fileInfo) Name() string       { return filepath.Base(fi.f.name) }
func (fi fileInfo) Size() int64        { return int64(len(fi.f.text)) }
func (fi fileInfo) Mode() os.FileMode  { return 0o644 }
func (fi fileInfo) ModTime() time.Time { return time.Time{} }
func (fi fileInfo) IsDir() bool        { return false }
func (fi fileInfo) Sys() any           { return nil }
