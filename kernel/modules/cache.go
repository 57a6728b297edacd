package modules

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/mod/module"
	"golang.org/x/mod/sumdb/dirhash"
	modzip "golang.org/x/mod/zip"
)

// ChecksumError is a module whose downloaded content does not hash to what the notebook's
// go.sum or gptnotes.sum, or the checksum database, recorded for it.
type ChecksumError struct {
	Module     module.Version
	Kind       string // "" for the module's files, "/go.mod" for its go.mod
	Got, Want  string
	WantSource string // where Want comes from
}

func (e *ChecksumError) Error() string {
	return fmt.Sprintf("checksum mismatch for %s%s: downloaded %s, %s says %s: the module's code is not what was recorded (remove the line from %s only if you trust the new code)",
		e.Module, e.Kind, e.Got, e.WantSource, e.Want, e.WantSource)
}

// cachePaths are the module cache's files of m: the download directory's and the unpacked tree.
type cachePaths struct {
	download string // GOMODCACHE/cache/download/<escaped path>/@v/<escaped version>, without extension
	dir      string // GOMODCACHE/<escaped path>@<escaped version>
}

func (r *Resolver) paths(m module.Version) (cachePaths, error) {
	ep, err := module.EscapePath(m.Path)
	if err != nil {
		return cachePaths{}, err
	}
	ev, err := module.EscapeVersion(m.Version)
	if err != nil {
		return cachePaths{}, err
	}
	return cachePaths{
		download: filepath.Join(r.env.ModCache, "cache", "download", filepath.FromSlash(ep), "@v", ev),
		dir:      filepath.Join(r.env.ModCache, filepath.FromSlash(ep)+"@"+ev),
	}, nil
}

// goMod returns m's go.mod, from the cache or the proxies, its hash verified.
func (r *Resolver) goMod(m module.Version) ([]byte, error) {
	p, err := r.paths(m)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(p.download + ".mod")
	if err != nil {
		if data, err = r.proxyFile(m, ".mod"); err != nil {
			return nil, err
		}
	}
	h, err := dirhash.Hash1([]string{"go.mod"}, func(string) (io.ReadCloser, error) {
		return io.NopCloser(strings.NewReader(string(data))), nil
	})
	if err != nil {
		return nil, err
	}
	if err := r.verify(m, "/go.mod", h); err != nil {
		return nil, err
	}
	writeFileAtomic(p.download+".mod", data)
	return data, nil
}

// unpacked returns the directory m's files are unpacked in, downloading, verifying and unpacking
// the module's zip on first use. A tree already in the cache is verified through its .ziphash.
func (r *Resolver) unpacked(m module.Version) (string, error) {
	p, err := r.paths(m)
	if err != nil {
		return "", err
	}
	if fi, err := os.Stat(p.dir); err == nil && fi.IsDir() {
		if h, err := os.ReadFile(p.download + ".ziphash"); err == nil {
			if err := r.verify(m, "", strings.TrimSpace(string(h))); err != nil {
				return "", err
			}
		}
		return p.dir, nil
	}
	zipFile := p.download + ".zip"
	if _, err := os.Stat(zipFile); err != nil {
		data, err := r.proxyFile(m, ".zip")
		if err != nil {
			return "", err
		}
		r.logf("go: downloading %s %s", m.Path, m.Version)
		if err := writeFile(zipFile, data); err != nil {
			return "", fmt.Errorf("%s: the module cache is not writable: %w", m, err)
		}
	}
	h, err := dirhash.HashZip(zipFile, dirhash.Hash1)
	if err != nil {
		return "", fmt.Errorf("%s: %w", m, err)
	}
	if err := r.verify(m, "", h); err != nil {
		os.Remove(zipFile) // a later try downloads again
		return "", err
	}
	tmp := p.dir + ".tmp-unzip"
	os.RemoveAll(tmp)
	if err := modzip.Unzip(tmp, m, zipFile); err != nil {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("%s: unzip: %w", m, err)
	}
	if err := os.Rename(tmp, p.dir); err != nil && !errors.Is(err, fs.ErrExist) {
		os.RemoveAll(tmp)
		return "", fmt.Errorf("%s: %w", m, err)
	}
	writeFileAtomic(p.download+".ziphash", []byte(h+"\n"))
	makeReadOnly(p.dir)
	return p.dir, nil
}

// proxyFile fetches m's file of the extension ext (".mod", ".zip", ".info") from the proxies,
// or in offline mode from the module cache's download directory alone.
func (r *Resolver) proxyFile(m module.Version, ext string) ([]byte, error) {
	ep, _ := module.EscapePath(m.Path)
	ev, _ := module.EscapeVersion(m.Version)
	data, err := r.source().fetch(ep + "/@v/" + ev + ext)
	if errors.Is(err, errNotFound) {
		return nil, &NotFoundError{Module: m.Path, Version: m.Version, Offline: r.env.Offline, Err: err}
	}
	return data, err
}

// source is the Env whose proxies are asked: GOPROXY, or offline the module cache itself.
func (r *Resolver) source() *Env {
	if r.env.Offline {
		return &Env{Proxy: []proxyEntry{{URL: "file://" + filepath.ToSlash(filepath.Join(r.env.ModCache, "cache", "download"))}}}
	}
	return &r.env
}

// NotFoundError is a module, or a version of it, that no proxy has.
type NotFoundError struct {
	Module, Version string
	Offline         bool
	Err             error
}

func (e *NotFoundError) Error() string {
	if e.Version == "" && e.Offline {
		return fmt.Sprintf("no module in the module cache provides package %s, and GOFLAGS=-mod=readonly (or GOPROXY=off) forbids downloading: ask for a module cache that has it", e.Module)
	}
	if e.Version == "" {
		return fmt.Sprintf("no module provides package %s: GOPROXY has none of its module paths", e.Module)
	}
	what := "module " + e.Module
	if e.Version != "" {
		what += " " + e.Version
	}
	if e.Offline {
		return fmt.Sprintf("%s is not in the module cache, and GOFLAGS=-mod=readonly (or GOPROXY=off) forbids downloading: ask for a module cache that has it", what)
	}
	return fmt.Sprintf("%s does not exist (%v)", what, e.Err)
}
func (e *NotFoundError) Unwrap() error { return e.Err }

// writeFile writes data to name through a temporary file, making its directory.
func writeFile(name string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), filepath.Base(name)+".tmp*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}

// writeFileAtomic is writeFile for caches: a failure (a read-only cache) only loses the copy.
func writeFileAtomic(name string, data []byte) { _ = writeFile(name, data) }

// makeReadOnly makes the unpacked tree read-only, as the go command leaves it: files 0444,
// directories 0555 (deepest first, so that the walk can still list them).
func makeReadOnly(dir string) {
	var dirs []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
		case d.IsDir():
			dirs = append(dirs, p)
		case d.Type().IsRegular():
			os.Chmod(p, 0o444)
		}
		return nil
	})
	for i := len(dirs) - 1; i >= 0; i-- {
		os.Chmod(dirs[i], 0o555)
	}
}

// MakeWritable undoes makeReadOnly under root (a module cache): what a test does before its
// temporary cache is removed, as go clean -modcache does.
func MakeWritable(root string) {
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o755)
		}
		return nil
	})
}
