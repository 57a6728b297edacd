package modules

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/mod/module"
	"golang.org/x/mod/sumdb"
)

// sumGolangOrgKey is the verifier key of sum.golang.org, the go command's default GOSUMDB.
const sumGolangOrgKey = "sum.golang.org+033de0ae+Ac4zctda0e5eza+HJyk9SxEdh+s3Ux18htTTAD8OuAn8"

// checksumDB is a client of the checksum database GOSUMDB names, caching its tiles where the go
// command does (GOMODCACHE/cache/download/sumdb) when the cache is writable.
type checksumDB struct {
	client *sumdb.Client
}

// newChecksumDB returns the client for env's GOSUMDB, nil when checking is off.
func newChecksumDB(env Env) (*checksumDB, error) {
	if env.SumDB == "off" || env.Insecure {
		return nil, nil
	}
	fields := strings.Fields(env.SumDB)
	key, server := fields[0], ""
	if len(fields) > 1 {
		server = strings.TrimSuffix(fields[1], "/")
	}
	if key == "sum.golang.org" {
		key = sumGolangOrgKey
	}
	name, _, ok := strings.Cut(key, "+")
	if !ok {
		return nil, fmt.Errorf("GOSUMDB=%q: unknown database (give name+key)", env.SumDB)
	}
	if server == "" {
		server = "https://" + name
	}
	if len(fields) == 1 {
		server = proxiedSumDB(env, name, server)
	}
	ops := &sumdbOps{key: key, name: name, server: server, cache: filepath.Join(env.ModCache, "cache", "download", "sumdb"), mem: map[string][]byte{}}
	c := sumdb.NewClient(ops)
	if env.NoSumDB != "" {
		c.SetGONOSUMDB(env.NoSumDB)
	}
	return &checksumDB{client: c}, nil
}

// proxiedSumDB is the database's address through the first HTTP proxy of GOPROXY that serves it
// (<proxy>/sumdb/<name>/supported answers 200), as the go command reaches it; else direct.
func proxiedSumDB(env Env, name, direct string) string {
	for _, p := range env.Proxy {
		if !strings.HasPrefix(p.URL, "https://") && !strings.HasPrefix(p.URL, "http://") {
			continue
		}
		if _, err := readHTTP(p.URL + "/sumdb/" + name + "/supported"); err == nil {
			return p.URL + "/sumdb/" + name
		}
		break
	}
	return direct
}

// lookup returns the database's hash of m ("/go.mod" kind: of its go.mod).
func (db *checksumDB) lookup(m module.Version, kind string) (string, error) {
	lines, err := db.client.Lookup(m.Path, m.Version+kind)
	if err != nil {
		return "", fmt.Errorf("checksum database: %w", err)
	}
	prefix := m.Path + " " + m.Version + kind + " "
	for _, l := range lines {
		if h, ok := strings.CutPrefix(l, prefix); ok {
			return h, nil
		}
	}
	return "", fmt.Errorf("checksum database has no %s%s", m, kind)
}

// sumdbOps are the file and network operations of a sumdb.Client.
type sumdbOps struct {
	key, name, server, cache string

	mu  sync.Mutex
	mem map[string][]byte // configuration files ("name/latest"), also when the cache is read-only
}

func (o *sumdbOps) ReadRemote(path string) ([]byte, error) { return readHTTP(o.server + path) }

func (o *sumdbOps) ReadConfig(file string) ([]byte, error) {
	if file == "key" {
		return []byte(o.key), nil
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if data, ok := o.mem[file]; ok {
		return data, nil
	}
	data, err := os.ReadFile(filepath.Join(o.cache, filepath.FromSlash(file)))
	if errors.Is(err, os.ErrNotExist) {
		return []byte{}, nil // start from an empty tree
	}
	return data, err
}

func (o *sumdbOps) WriteConfig(file string, old, new []byte) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	cur, ok := o.mem[file]
	if !ok {
		cur, _ = os.ReadFile(filepath.Join(o.cache, filepath.FromSlash(file)))
	}
	if string(cur) != string(old) {
		return sumdb.ErrWriteConflict
	}
	o.mem[file] = new
	writeFileAtomic(filepath.Join(o.cache, filepath.FromSlash(file)), new) // best effort: read-only caches stay so
	return nil
}

func (o *sumdbOps) ReadCache(file string) ([]byte, error) {
	return os.ReadFile(filepath.Join(o.cache, filepath.FromSlash(file)))
}

func (o *sumdbOps) WriteCache(file string, data []byte) {
	writeFileAtomic(filepath.Join(o.cache, filepath.FromSlash(file)), data)
}

func (o *sumdbOps) Log(msg string) {}

func (o *sumdbOps) SecurityError(msg string) {
	// The client also returns an error from the call that found it: that error reaches the cell.
}
