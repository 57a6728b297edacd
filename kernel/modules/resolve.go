package modules

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

// SumFile is the file beside the notebook where the kernel records the version and the checksums
// of every module it used, in go.sum's format: its versions pin the next run (when neither a
// directive nor go.mod does), its checksums must match.
const SumFile = "gptnotes.sum"

// ErrNotModulePath is an import path whose first element has no dot: a standard library path,
// never looked up in a proxy (unless the notebook's go.mod declares it).
var ErrNotModulePath = errors.New("not a module path (its first element has no dot) and not the notebook's module")

// A Resolver maps import paths to directories of Go source, for one notebook (one kernel).
// It is safe for concurrent use.
type Resolver struct {
	env  Env
	dir  string               // the notebook's directory: go.mod, go.sum, gptnotes.sum
	logf func(string, ...any) // progress ("go: downloading …"), for the cell

	mu       sync.Mutex
	pins     map[string]pin    // module path → version asked for
	selected map[string]string // module path → version: the pins raised by requirements (MVS)
	loaded   map[string]string // module path → version whose packages were handed out
	locals   map[string]string // module path → directory of a module beside the notebook
	sums     map[string]sum    // "path version[/go.mod]" → hash known
	used     map[string]string // the lines to record in SumFile: key → hash
	db       *checksumDB
	dbErr    error
}

// pin is a version asked for, and where.
type pin struct{ version, where string }

// sum is a known hash and the file it comes from.
type sum struct{ hash, where string }

// Package is where an import path's source is.
type Package struct {
	ImportPath string
	Dir        string         // the package's directory
	Module     module.Version // Version "" for a module beside the notebook
}

// New returns the resolver for the notebook in dir, reading dir's go.mod (its module path and
// local replacements are source beside the notebook, its requirements pin versions), go.sum and
// SumFile. logf receives progress lines.
func New(env Env, dir string, logf func(string, ...any)) (*Resolver, error) {
	if logf == nil {
		logf = func(string, ...any) {}
	}
	r := &Resolver{env: env, dir: dir, logf: logf, pins: map[string]pin{}, selected: map[string]string{},
		loaded: map[string]string{}, locals: map[string]string{}, sums: map[string]sum{}, used: map[string]string{}}
	for _, name := range []string{"go.sum", SumFile} {
		if err := r.readSums(name); err != nil {
			return nil, err
		}
	}
	if err := r.readGoMod(); err != nil {
		return nil, err
	}
	r.db, r.dbErr = newChecksumDB(env)
	return r, nil
}

// readSums reads go.sum-format lines from name in the notebook's directory; SumFile's module
// lines also pin their versions.
func (r *Resolver) readSums(name string) error {
	data, err := os.ReadFile(filepath.Join(r.dir, name))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	for i, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 3 {
			return fmt.Errorf("%s:%d: want \"module version hash\"", name, i+1)
		}
		r.sums[f[0]+" "+f[1]] = sum{f[2], name}
		if name == SumFile && !strings.HasSuffix(f[1], "/go.mod") {
			r.pins[f[0]] = pin{f[1], name}
			r.used[f[0]+" "+f[1]] = f[2]
		} else if name == SumFile {
			r.used[f[0]+" "+f[1]] = f[2]
		}
	}
	return nil
}

// readGoMod reads the go.mod of the notebook's directory or the nearest directory above it, as
// the go command finds a main module; none is fine.
func (r *Resolver) readGoMod() error {
	root := r.dir
	var data []byte
	for {
		var err error
		data, err = os.ReadFile(filepath.Join(root, "go.mod"))
		if err == nil {
			break
		}
		if !errors.Is(err, os.ErrNotExist) {
			return err
		}
		parent := filepath.Dir(root)
		if parent == root {
			return nil
		}
		root = parent
	}
	name := filepath.Join(root, "go.mod")
	f, err := modfile.Parse(name, data, nil) // ParseLax would drop the replace lines
	if err != nil {
		return err
	}
	if f.Module != nil {
		r.locals[f.Module.Mod.Path] = root
	}
	for _, req := range f.Require {
		r.pins[req.Mod.Path] = pin{req.Mod.Version, "go.mod"}
	}
	for _, rep := range f.Replace {
		if rep.New.Version == "" { // a directory
			dir := rep.New.Path
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(root, dir)
			}
			r.locals[rep.Old.Path] = dir
		} else if rep.Old.Path == rep.New.Path {
			r.pins[rep.Old.Path] = pin{rep.New.Version, "go.mod replace"}
		}
	}
	return nil
}

// Require pins modPath at version, for a cell's directive (where names it). A module whose
// packages a cell has imported keeps its version until the kernel restarts.
func (r *Resolver) Require(modPath, version, where string) error {
	if err := module.Check(modPath, version); err != nil {
		return fmt.Errorf("%s: %w", where, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if v, ok := r.loaded[modPath]; ok && v != version {
		return fmt.Errorf("%s: %s %s is loaded already: restart the kernel to use %s", where, modPath, v, version)
	}
	r.pins[modPath] = pin{version, where}
	delete(r.selected, modPath)
	return nil
}

// Package finds, fetching it if need be, the module providing the package importPath and
// returns the package's directory. A module beside the notebook comes first, then the modules
// already in use (the build list), then the proxies, longest module path first.
func (r *Resolver) Package(importPath string) (Package, error) {
	if err := module.CheckImportPath(importPath); err != nil {
		return Package{}, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, mp := range prefixes(importPath) {
		if dir, ok := r.locals[mp]; ok {
			pdir := filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(importPath[len(mp):], "/")))
			if !hasGoFiles(pdir) {
				return Package{}, fmt.Errorf("package %s: no Go files in %s (module %s is the directory %s)", importPath, pdir, mp, dir)
			}
			return Package{ImportPath: importPath, Dir: pdir, Module: module.Version{Path: mp}}, nil
		}
	}
	var firstErr error
	for _, mp := range prefixes(importPath) {
		if v, ok := r.version(mp); ok {
			p, err := r.providing(importPath, module.Version{Path: mp, Version: v})
			if err == nil {
				return p, nil
			}
			if firstErr == nil {
				firstErr = err
			}
		}
	}
	if !strings.Contains(strings.Split(importPath, "/")[0], ".") {
		return Package{}, fmt.Errorf("package %s: %w", importPath, ErrNotModulePath)
	}
	for _, mp := range prefixes(importPath) {
		if _, ok := r.version(mp); ok || module.CheckPath(mp) != nil {
			continue
		}
		v, err := r.source().latest(mp)
		if errors.Is(err, errNotFound) {
			continue
		}
		if err != nil && firstErr != nil {
			return Package{}, firstErr // the longer path's failure says more
		}
		if err != nil {
			return Package{}, fmt.Errorf("package %s: %w", importPath, err)
		}
		p, err := r.providing(importPath, module.Version{Path: mp, Version: v})
		if err == nil {
			r.logf("go: %s %s chosen (newest release); pin it with //gptnotes:require %s %s", mp, v, mp, v)
			return p, nil
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	if firstErr != nil {
		return Package{}, firstErr
	}
	return Package{}, &NotFoundError{Module: importPath, Offline: r.env.Offline, Err: errNotFound}
}

// Module downloads, verifies and unpacks modPath at version, and returns its directory.
func (r *Resolver) Module(modPath, version string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	m := module.Version{Path: modPath, Version: version}
	if _, err := r.goMod(m); err != nil {
		return "", err
	}
	return r.unpacked(m)
}

// Latest is the version of modPath the resolver picks when nothing pins it.
func (r *Resolver) Latest(modPath string) (string, error) {
	return r.source().latest(modPath)
}

// version is the version of modPath in use, selected or pinned.
func (r *Resolver) version(modPath string) (string, bool) {
	if v, ok := r.loaded[modPath]; ok {
		return v, true
	}
	if v, ok := r.selected[modPath]; ok {
		return v, true
	}
	p, ok := r.pins[modPath]
	return p.version, ok
}

// providing returns the package importPath of module m, fetching m and adding its requirements
// to the build list.
func (r *Resolver) providing(importPath string, m module.Version) (Package, error) {
	gomod, err := r.goMod(m)
	if err != nil {
		return Package{}, fmt.Errorf("package %s: %w", importPath, err)
	}
	dir, err := r.unpacked(m)
	if err != nil {
		return Package{}, fmt.Errorf("package %s: %w", importPath, err)
	}
	rel := strings.TrimPrefix(importPath[len(m.Path):], "/")
	pdir := filepath.Join(dir, filepath.FromSlash(rel))
	if !hasGoFiles(pdir) || nestedModule(dir, rel) {
		return Package{}, fmt.Errorf("module %s does not contain package %s", m, importPath)
	}
	if _, ok := r.loaded[m.Path]; !ok {
		r.loaded[m.Path] = m.Version
		r.addRequirements(m, gomod)
		r.record()
	}
	return Package{ImportPath: importPath, Dir: pdir, Module: m}, nil
}

// addRequirements raises the build list to m's requirements, as minimal version selection
// does: a module keeps the highest version any module in use requires (one that has handed out
// packages keeps its version).
func (r *Resolver) addRequirements(m module.Version, gomod []byte) {
	f, err := modfile.ParseLax(m.Path+"@"+m.Version+"/go.mod", gomod, nil)
	if err != nil {
		r.logf("go: %s: %v (its requirements are ignored)", m, err)
		return
	}
	for _, req := range f.Require {
		cur, ok := r.version(req.Mod.Path)
		if !ok || semver.Compare(req.Mod.Version, cur) > 0 {
			if _, isLoaded := r.loaded[req.Mod.Path]; !isLoaded {
				r.selected[req.Mod.Path] = req.Mod.Version
			}
		}
	}
}

// verify checks the hash h of m (kind "" or "/go.mod") against the notebook's sums, else the
// checksum database where the environment enables it, and records it for SumFile.
func (r *Resolver) verify(m module.Version, kind, h string) error {
	key := m.Path + " " + m.Version + kind
	if s, ok := r.sums[key]; ok {
		if s.hash != h {
			return &ChecksumError{Module: m, Kind: kind, Got: h, Want: s.hash, WantSource: filepath.Join(r.dir, s.where)}
		}
	} else if r.checksumDBApplies(m.Path) {
		if r.dbErr != nil {
			return r.dbErr
		}
		want, err := r.db.lookup(m, kind)
		if err != nil {
			return fmt.Errorf("verifying %s%s: %w", m, kind, err)
		}
		if want != h {
			return &ChecksumError{Module: m, Kind: kind, Got: h, Want: want, WantSource: "the checksum database " + r.env.SumDB}
		}
	}
	r.sums[key] = sum{h, SumFile}
	r.used[key] = h
	return nil
}

// checksumDBApplies reports whether GOSUMDB checks modPath.
func (r *Resolver) checksumDBApplies(modPath string) bool {
	if r.env.Offline || r.env.SumDB == "off" || r.env.Insecure {
		return false
	}
	return !module.MatchPrefixPatterns(r.env.NoSumDB, modPath)
}

// record writes SumFile: the modules in use and their hashes. A notebook directory the kernel
// cannot write (a read-only hub) keeps none; the directives and go.mod still pin.
func (r *Resolver) record() {
	var lines []string
	for key, h := range r.used {
		modPath, _, _ := strings.Cut(key, " ")
		if _, ok := r.loaded[modPath]; ok || r.sums[key].where == SumFile {
			lines = append(lines, key+" "+h)
		}
	}
	sort.Strings(lines)
	data := strings.Join(lines, "\n") + "\n"
	name := filepath.Join(r.dir, SumFile)
	if old, err := os.ReadFile(name); err == nil && string(old) == data {
		return
	}
	if err := writeFile(name, []byte(data)); err != nil {
		r.logf("gptnotes: cannot record module versions in %s: %v", name, err)
	}
}

// prefixes are the candidate module paths of an import path, longest first.
func prefixes(importPath string) []string {
	var out []string
	for p := importPath; p != "." && p != "/" && p != ""; p = path.Dir(p) {
		out = append(out, p)
	}
	return out
}

// hasGoFiles reports whether dir holds a .go file.
func hasGoFiles(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".go") && !e.IsDir() {
			return true
		}
	}
	return false
}

// nestedModule reports whether the package directory rel of the module in dir lies in another
// module (a go.mod between them).
func nestedModule(dir, rel string) bool {
	for p := rel; p != "." && p != ""; p = path.Dir(p) {
		if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(p), "go.mod")); err == nil {
			return true
		}
	}
	return false
}
