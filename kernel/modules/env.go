// Package modules finds, downloads, verifies and unpacks the Go modules a notebook's cells import,
// without the go command: the Go module proxy protocol, the module cache's layout, go.sum and the
// checksum database, and minimal version selection over go.mod files, all through
// golang.org/x/mod. The kernel's session asks a Resolver for the directory of an import path and
// has the interpreter read the package's source from there.
//
// The environment is Go's own: GOPROXY, GOFLAGS (-mod=readonly or -mod=vendor: the module cache
// only, no network), GOSUMDB, GONOSUMDB, GOPRIVATE, GOMODCACHE (a cache the kernel may not write
// is read as it is).
package modules

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Env is the part of Go's environment the resolver follows.
type Env struct {
	Proxy     []proxyEntry // GOPROXY, in order
	Offline   bool         // GOFLAGS=-mod=readonly|vendor or GOPROXY=off: the cache only
	SumDB     string       // GOSUMDB: "off", a name ("sum.golang.org"), "name+key", or "name+key url"
	NoSumDB   string       // GONOSUMDB, else GOPRIVATE: module path patterns the database skips
	ModCache  string       // GOMODCACHE, else $GOPATH/pkg/mod
	Insecure  bool         // GOFLAGS=-insecure or GOINSECURE=*: no checksum database
	GoVersion string       // the toolchain the module graph is for (go.mod "go" lines above it fail)
}

// proxyEntry is one element of GOPROXY and how to go on after it fails: after "," only when the
// module or version is missing there, after "|" on any error.
type proxyEntry struct {
	URL          string // "https://…", "file:///…", "direct" or "off"
	FallOnAnyErr bool
}

// EnvFromOS reads the resolver's environment from the process, with Go's defaults.
func EnvFromOS() (Env, error) {
	get := func(k, def string) string {
		if v := os.Getenv(k); v != "" {
			return v
		}
		return def
	}
	e := Env{SumDB: get("GOSUMDB", "sum.golang.org"), NoSumDB: get("GONOSUMDB", os.Getenv("GOPRIVATE"))}
	e.Proxy = ParseProxy(get("GOPROXY", "https://proxy.golang.org,direct"))
	for _, f := range strings.Fields(os.Getenv("GOFLAGS")) {
		switch f {
		case "-mod=readonly", "-mod=vendor":
			e.Offline = true
		case "-insecure":
			e.Insecure = true
		}
	}
	if os.Getenv("GOINSECURE") == "*" {
		e.Insecure = true
	}
	if len(e.Proxy) == 1 && e.Proxy[0].URL == "off" {
		e.Offline = true
	}
	e.ModCache = os.Getenv("GOMODCACHE")
	if e.ModCache == "" {
		gopath := os.Getenv("GOPATH")
		if gopath == "" {
			home, err := os.UserHomeDir()
			if err != nil {
				return Env{}, fmt.Errorf("modules: no GOMODCACHE, GOPATH or home directory: %w", err)
			}
			gopath = filepath.Join(home, "go")
		}
		e.ModCache = filepath.Join(filepath.SplitList(gopath)[0], "pkg", "mod")
	}
	return e, nil
}

// ParseProxy splits a GOPROXY value into its entries.
func ParseProxy(v string) []proxyEntry {
	var out []proxyEntry
	for v != "" {
		i := strings.IndexAny(v, ",|")
		entry, sep := v, byte(0)
		if i >= 0 {
			entry, sep, v = v[:i], v[i], v[i+1:]
		} else {
			v = ""
		}
		if entry = strings.TrimSpace(entry); entry != "" {
			out = append(out, proxyEntry{URL: strings.TrimSuffix(entry, "/"), FallOnAnyErr: sep == '|'})
		}
	}
	return out
}
