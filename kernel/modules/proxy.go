package modules

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/mod/module"
	"golang.org/x/mod/semver"
)

// errNotFound is a proxy's answer for a module or version it does not have (HTTP 404 or 410, a
// missing file): the next GOPROXY entry is asked, and a shorter module path is tried.
var errNotFound = errors.New("not found")

// NetworkError is a proxy that could not be reached: the machine is offline, or the proxy is down.
type NetworkError struct {
	URL string
	Err error
}

func (e *NetworkError) Error() string {
	return fmt.Sprintf("no network: cannot reach %s: %v (a notebook without network imports only modules already in GOMODCACHE)", e.URL, e.Err)
}
func (e *NetworkError) Unwrap() error { return e.Err }

// httpClient is the proxies' and the checksum database's client.
var httpClient = &http.Client{Timeout: 60 * time.Second}

// fetch reads the file at rel ("example.com/mod/@v/list", escaped) from the proxies of e in
// GOPROXY order.
func (e *Env) fetch(rel string) ([]byte, error) {
	var last error = fmt.Errorf("GOPROXY is empty")
	for _, p := range e.Proxy {
		var data []byte
		var err error
		switch {
		case p.URL == "off":
			err = fmt.Errorf("GOPROXY=off: module lookups are disabled")
		case p.URL == "direct":
			err = fmt.Errorf("GOPROXY=direct needs the go command and version control tools; the kernel fetches through a module proxy only (%w)", errNotFound)
		case strings.HasPrefix(p.URL, "file://"):
			data, err = readFileProxy(p.URL, rel)
		default:
			data, err = readHTTP(p.URL + "/" + rel)
		}
		if err == nil {
			return data, nil
		}
		last = err
		if !p.FallOnAnyErr && !errors.Is(err, errNotFound) {
			break
		}
	}
	return nil, last
}

// readHTTP GETs u: errNotFound for 404 and 410, a *NetworkError when u is unreachable.
func readHTTP(u string) ([]byte, error) {
	resp, err := httpClient.Get(u)
	if err != nil {
		return nil, &NetworkError{URL: u, Err: err}
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, &NetworkError{URL: u, Err: err}
	}
	switch {
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone || resp.StatusCode == http.StatusForbidden:
		// 403: what some proxies (a filtering mirror, a firewall) answer for a module they do not serve.
		return nil, fmt.Errorf("%s: %s: %w", u, strings.TrimSpace(firstLine(string(data))), errNotFound)
	case resp.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("%s: %s", u, resp.Status)
	}
	return data, nil
}

// readFileProxy reads rel under the file:// proxy base. A directory laid out as a module cache's
// download directory is a proxy whose @v/list may be missing: the versions are then those of its
// .mod files.
func readFileProxy(base, rel string) ([]byte, error) {
	u, err := url.Parse(base)
	if err != nil {
		return nil, fmt.Errorf("GOPROXY %s: %w", base, err)
	}
	name := filepath.Join(filepath.FromSlash(u.Path), filepath.FromSlash(rel))
	data, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) && strings.HasSuffix(rel, "/@v/list") {
		return listDir(filepath.Dir(name))
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", name, errNotFound)
	}
	return data, err
}

// listDir lists the versions whose .mod file is in the @v directory dir, one a line.
func listDir(dir string) ([]byte, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", dir, errNotFound)
	} else if err != nil {
		return nil, err // a cache the kernel may not read says so
	}
	var b strings.Builder
	for _, e := range entries {
		if v, ok := strings.CutSuffix(e.Name(), ".mod"); ok {
			if v, err := module.UnescapeVersion(v); err == nil {
				b.WriteString(v + "\n")
			}
		}
	}
	return []byte(b.String()), nil
}

// latest is the version of modPath the go command would pick with no version asked: the newest
// release in the proxy's list, else the newest pre-release, else the proxy's @latest (a
// pseudo-version of the default branch).
func (e *Env) latest(modPath string) (string, error) {
	esc, err := module.EscapePath(modPath)
	if err != nil {
		return "", err
	}
	list, err := e.fetch(esc + "/@v/list")
	if err != nil {
		return "", err
	}
	var best, bestPre string
	for _, v := range strings.Fields(string(list)) {
		if !semver.IsValid(v) || module.CheckPathMajor(v, pathMajor(modPath)) != nil {
			continue
		}
		if semver.Prerelease(v) == "" {
			if best == "" || semver.Compare(v, best) > 0 {
				best = v
			}
		} else if bestPre == "" || semver.Compare(v, bestPre) > 0 {
			bestPre = v
		}
	}
	if best != "" {
		return best, nil
	}
	if bestPre != "" {
		return bestPre, nil
	}
	data, err := e.fetch(esc + "/@latest")
	if err != nil {
		return "", err
	}
	var info struct{ Version string }
	if err := json.Unmarshal(data, &info); err != nil || info.Version == "" {
		return "", fmt.Errorf("%s/@latest: bad answer %q", modPath, firstLine(string(data)))
	}
	return info.Version, nil
}

// pathMajor is the /vN suffix of a module path ("" for v0 and v1).
func pathMajor(modPath string) string {
	_, major, _ := module.SplitPathVersion(modPath)
	return major
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
