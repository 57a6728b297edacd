package modules

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/mod/sumdb"
	"golang.org/x/mod/sumdb/dirhash"
	"golang.org/x/mod/sumdb/note"

	"github.com/gptnotes/gptnotes/kernel/modules/modtest"
)

// TestChecksumDatabase verifies downloads against a checksum database served by x/mod's test
// server (GOSUMDB="name+key url"): a module whose hashes the database signed is accepted and
// recorded; one it holds other hashes for is a *ChecksumError naming the database; GONOSUMDB
// skips the database.
func TestChecksumDatabase(t *testing.T) {
	root := t.TempDir()
	proxy := filepath.Join(root, "proxy")
	err := modtest.WriteProxy(proxy,
		modtest.Module{Path: "example.com/good", Version: "v1.0.0", Files: map[string]string{"good.go": "package good\n"}},
		modtest.Module{Path: "example.com/bad", Version: "v1.0.0", Files: map[string]string{"bad.go": "package bad\n"}},
	)
	if err != nil {
		t.Fatal(err)
	}
	gosum := func(path, vers string) ([]byte, error) {
		base := filepath.Join(proxy, path, "@v", vers)
		zh, err := dirhash.HashZip(base+".zip", dirhash.Hash1)
		if err != nil {
			return nil, err
		}
		mh, err := dirhash.Hash1([]string{"go.mod"}, func(string) (io.ReadCloser, error) { return os.Open(base + ".mod") })
		if err != nil {
			return nil, err
		}
		if path == "example.com/bad" {
			zh = "h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=" // the database saw other code
		}
		return []byte(fmt.Sprintf("%s %s %s\n%s %s/go.mod %s\n", path, vers, zh, path, vers, mh)), nil
	}
	skey, vkey, err := note.GenerateKey(rand.Reader, "sum.test")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sumdb.NewServer(sumdb.NewTestServer(skey, gosum)))
	defer srv.Close()

	cache := filepath.Join(root, "modcache")
	defer MakeWritable(cache)
	env := Env{Proxy: ParseProxy("file://" + filepath.ToSlash(proxy)), SumDB: vkey + " " + srv.URL, ModCache: cache}
	r, err := New(env, t.TempDir(), t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Package("example.com/good"); err != nil {
		t.Fatalf("signed module: %v", err)
	}
	_, err = r.Package("example.com/bad")
	var ce *ChecksumError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "checksum database") {
		t.Fatalf("tampered module: %v", err)
	}

	env.NoSumDB = "example.com/bad"
	r, err = New(env, t.TempDir(), t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Package("example.com/bad"); err != nil {
		t.Errorf("GONOSUMDB: %v", err)
	}
}
