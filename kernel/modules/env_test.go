package modules

import (
	"reflect"
	"testing"
)

// TestParseProxy splits GOPROXY as the go command does: "," falls through on "not found" only,
// "|" on any error.
func TestParseProxy(t *testing.T) {
	got := ParseProxy("https://a.example,file:///tmp/p|direct, off")
	want := []proxyEntry{{"https://a.example", false}, {"file:///tmp/p", true}, {"direct", false}, {"off", false}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

// TestEnvFromOS reads GOFLAGS and GOPROXY=off as the cache-only mode, and GOMODCACHE.
func TestEnvFromOS(t *testing.T) {
	for _, c := range []struct {
		goproxy, goflags string
		offline          bool
	}{
		{"https://proxy.golang.org", "", false},
		{"https://proxy.golang.org", "-mod=readonly", true},
		{"https://proxy.golang.org", "-buildvcs=false -mod=vendor", true},
		{"off", "", true},
	} {
		t.Setenv("GOPROXY", c.goproxy)
		t.Setenv("GOFLAGS", c.goflags)
		t.Setenv("GOMODCACHE", "/cache")
		e, err := EnvFromOS()
		if err != nil || e.Offline != c.offline || e.ModCache != "/cache" {
			t.Errorf("GOPROXY=%q GOFLAGS=%q: %+v %v, want offline %v", c.goproxy, c.goflags, e, err, c.offline)
		}
	}
}

// TestPrefixes lists candidate module paths longest first.
func TestPrefixes(t *testing.T) {
	got := prefixes("github.com/a/b/c")
	want := []string{"github.com/a/b/c", "github.com/a/b", "github.com/a", "github.com"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v", got)
	}
}
