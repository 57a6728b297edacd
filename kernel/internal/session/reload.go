package session

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"os"
	"strconv"
	"strings"
)

// Reloading a package beside the notebook. A student edits ./helper/helper.go and runs the
// cell with `import "course/helper"` again: the cell must run the edit. The interpreter keeps
// a source package for its life, by import path, and a cell's import name stays bound to the
// package it was first bound to (importing another package under the same name is
// "redeclared"). So an edited package goes to the interpreter under a path of its own,
// course/helper@2, which moduleFS maps to the same directory, and the cell's import becomes
// `__gptnotes_reload2_helper "course/helper@2"`, a fresh name; the cell's uses of helper, and
// those of every later cell, are renamed to it. The type check always sees the package as
// course/helper, checked again from the edited files.
//
// A package beside the notebook is stale when its Go files changed (dirStamp) or when a
// package beside the notebook it imports is stale or was loaded again since it was checked;
// a stale package is checked again with the packages that made it stale. Importing an
// unchanged package again costs one directory listing per package beside the notebook it
// reaches, and nothing else.
//
// What the cells declared before the edit keeps what it was compiled with: values keep the
// package's old types, and functions declared before the edit call the old code until their
// cell runs again.

// localPackage is a package beside the notebook as the type check last saw it.
type localPackage struct {
	dir       string
	stamp     string            // its Go files when checked (dirStamp)
	yaegiPath string            // the path the interpreter loads this check's files under
	deps      map[string]string // the packages beside the notebook it imports → their yaegiPath then
}

// binding is the name a later cell uses for a package loaded again: an import the interpreter
// compiled, `alias "yaegiPath"`.
type binding struct {
	alias, yaegiPath string
}

// rebinding is an import of the cell that binds a package loaded again: the import as written
// (what the session records), and the binding it was rewritten to.
type rebinding struct {
	spec            *ast.ImportSpec // the import as the interpreter sees it
	key, name, path string
	binding
}

// dirStamp is the names, sizes and modification times of dir's Go files: what changes when a
// student edits a package beside the notebook.
func dirStamp(dir string) string {
	entries, _ := os.ReadDir(dir)
	var b strings.Builder
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		if fi, err := e.Info(); err == nil {
			fmt.Fprintf(&b, "%s %d %d\n", e.Name(), fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return b.String()
}

// yaegiPath is the path the interpreter loads the package at path under: path itself, or for
// a package beside the notebook loaded again, path@N.
func (m *moduleState) yaegiPath(path string) string {
	if lp, ok := m.local[path]; ok {
		return lp.yaegiPath
	}
	return path
}

// nextYaegiPath is the path for the next check of the package beside the notebook at path:
// path on its first check, a path the interpreter has never seen on a later one.
func (m *moduleState) nextYaegiPath(path string) string {
	if _, seen := m.local[path]; !seen {
		return path
	}
	m.reloads++
	return fmt.Sprintf("%s@%d", path, m.reloads+1)
}

// stale reports whether the package beside the notebook at path must be checked again, and
// adds it and the stale packages it imports to set.
func (m *moduleState) stale(path string, set map[string]bool, seen map[string]bool) bool {
	lp, ok := m.local[path]
	if !ok || seen[path] {
		return set[path]
	}
	seen[path] = true
	changed := dirStamp(lp.dir) != lp.stamp
	for dep, yp := range lp.deps {
		if m.stale(dep, set, seen) || m.yaegiPath(dep) != yp {
			changed = true
		}
	}
	if changed {
		set[path] = true
	}
	return changed
}

// reloadStaleImports has the type check read again, from their files, the packages beside the
// notebook that the cell imports and that changed since they were checked (and those of
// their imports that changed, and the session's imports that use them), and says so on the
// cell's stderr.
func (s *Session) reloadStaleImports(pieces []piece) {
	s.mods.mu.Lock()
	defer s.mods.mu.Unlock()
	set, seen := map[string]bool{}, map[string]bool{}
	for _, p := range pieces {
		if p.kind != declPiece {
			continue
		}
		for _, sp := range p.file.Imports {
			path, _ := strconv.Unquote(sp.Path.Value)
			if s.mods.stale(path, set, seen) {
				fmt.Fprintf(os.Stderr, "gptnotes: %s changed in %s: importing it again\n", path, s.mods.local[path].dir)
			}
		}
	}
	if len(set) > 0 {
		// The session's other imports beside the notebook that the edit reaches come along.
		for key := range s.imports {
			s.mods.stale(key[strings.LastIndex(key, " ")+1:], set, seen)
		}
	}
	for path := range set {
		s.imp.forget(path)
	}
}

// rebindReloaded points the cell at the packages beside the notebook that were loaded again:
// each import of one whose last check the interpreter has not loaded yet becomes an import of
// the new path under a fresh name (and a package the session imported that was loaded again
// along with it is imported with it), and every use of such a package's name is renamed to
// the name of its newest binding. It runs after the other rewrites, so they see the cell's
// own names.
func (c *cellCtx) rebindReloaded() {
	names := c.checkImports() // before the lock: it may import
	m := &c.s.mods
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.local) == 0 {
		return
	}
	current := map[string]binding{} // import path → the binding this cell uses
	for path, b := range m.bound {
		current[path] = b
	}
	var decl *ast.GenDecl // the cell's import declaration, for the imports it adds
	for _, p := range c.pieces {
		if p.kind != declPiece {
			continue
		}
		for _, d := range p.file.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.IMPORT {
				continue
			}
			for _, sp := range g.Specs {
				sp := sp.(*ast.ImportSpec)
				path, _ := strconv.Unquote(sp.Path.Value)
				b, ok := c.newBinding(path, current)
				if !ok {
					continue
				}
				c.rebound = append(c.rebound, rebinding{spec: sp, key: importKey(sp), name: importName(sp), path: path, binding: b})
				sp.Name = &ast.Ident{Name: b.alias, NamePos: sp.Path.Pos()}
				sp.Path = &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(b.yaegiPath), ValuePos: sp.Path.Pos()}
				current[path] = b
				decl = g
			}
		}
	}
	if decl != nil {
		// The session's other imports of packages loaded again with these.
		for key, name := range c.s.imports {
			path := key[strings.LastIndex(key, " ")+1:]
			b, ok := c.newBinding(path, current)
			if !ok {
				continue
			}
			sp := &ast.ImportSpec{Name: &ast.Ident{Name: b.alias, NamePos: decl.Pos()},
				Path: &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(b.yaegiPath), ValuePos: decl.Pos()}}
			decl.Specs = append(decl.Specs, sp)
			c.rebound = append(c.rebound, rebinding{spec: sp, key: key, name: name, path: path, binding: b})
			current[path] = b
		}
	}
	if len(current) == 0 {
		return
	}
	info := c.checked.info
	for _, p := range c.pieces {
		ast.Inspect(p.root(), func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				if pn, ok := info.Uses[n].(*types.PkgName); ok {
					if b, ok := current[pn.Imported().Path()]; ok {
						n.Name = b.alias
					}
				}
			case *ast.SelectorExpr:
				// pkg.T in what a rewrite wrote (a variable's type), which the check never saw.
				if x, ok := n.X.(*ast.Ident); ok && info.Uses[x] == nil && info.Defs[x] == nil {
					if b, ok := current[names[x.Name]]; ok {
						x.Name = b.alias
					}
				}
			}
			return true
		})
	}
}

// newBinding is the binding that the import of path needs when the interpreter has not
// loaded its last check: a fresh name for its newest path.
func (c *cellCtx) newBinding(path string, current map[string]binding) (binding, bool) {
	yp := c.s.mods.yaegiPath(path)
	b, ok := current[path]
	if yp == path && !ok || ok && b.yaegiPath == yp {
		return binding{}, false
	}
	name := path[strings.LastIndex(path, "/")+1:]
	if n, ok := modulePackageNames.Load(path); ok {
		name = n.(string)
	}
	return binding{alias: fmt.Sprintf("__gptnotes_reload%s_%s", yp[strings.LastIndex(yp, "@")+1:], name), yaegiPath: yp}, true
}

// recordRebound remembers the bindings of a cell the interpreter compiled: later cells use
// them.
func (c *cellCtx) recordRebound() {
	c.s.mods.mu.Lock()
	defer c.s.mods.mu.Unlock()
	for _, r := range c.rebound {
		c.s.imports[r.key] = r.name
		if c.s.mods.bound == nil {
			c.s.mods.bound = map[string]binding{}
		}
		c.s.mods.bound[r.path] = r.binding
	}
}

// rebindImports points a checked module package's imports of packages beside the notebook at
// the paths the interpreter loads them under now. It reports whether it changed one.
func (m *moduleState) rebindImports(f *ast.File) bool {
	changed := false
	for _, sp := range f.Imports {
		path, _ := strconv.Unquote(sp.Path.Value)
		if yp := m.yaegiPath(path); yp != path {
			sp.Path = &ast.BasicLit{Kind: token.STRING, Value: strconv.Quote(yp), ValuePos: sp.Path.Pos()}
			changed = true
		}
	}
	return changed
}

// rebinds reports whether sp is an import rebindReloaded rewrote: the session records the
// import as written instead.
func (c *cellCtx) rebinds(sp *ast.ImportSpec) bool {
	for _, r := range c.rebound {
		if r.spec == sp {
			return true
		}
	}
	return false
}
