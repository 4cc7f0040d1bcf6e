package spec

import (
	"archive/tar"
	"context"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/internal/testspec"
)

// fileURL turns an absolute directory into a file:// URL.
func fileURL(dir string) string {
	p := filepath.ToSlash(dir)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// TestFetchPublishedBundles is the acceptance test: 3.0.0 and 3.0.26 from
// the published mirror, as a directory, a file:// URL and over HTTP.
func TestFetchPublishedBundles(t *testing.T) {
	specDir := testspec.Dir(t)
	srv := newCountingServer(t, specDir)
	abs, err := filepath.Abs(specDir)
	if err != nil {
		t.Fatal(err)
	}
	mirrors := map[string]string{"dir": specDir, "file URL": fileURL(abs), "http": srv.URL}
	for _, version := range []string{"3.0.0", "3.0.26"} {
		side, err := os.ReadFile(filepath.Join(specDir, "protocol", version+".tgz.sha256"))
		if err != nil {
			t.Fatal(err)
		}
		wantSum := strings.Fields(string(side))[0]
		for form, mirror := range mirrors {
			t.Run(version+"/"+form, func(t *testing.T) {
				cache := t.TempDir()
				res, err := Fetch(context.Background(), version, FetchOptions{Mirror: mirror, CacheDir: cache})
				if err != nil {
					t.Fatal(err)
				}
				if res.Version != version || res.SHA256 != wantSum || res.Cached {
					t.Fatalf("got %+v, want version %s sum %s downloaded", res, version, wantSum)
				}
				if want := filepath.Join(cache, version, wantSum+".tgz"); res.Path != want {
					t.Fatalf("path %s, want %s", res.Path, want)
				}
				if !strings.HasSuffix(res.Source, "protocol/"+version+".tgz") {
					t.Fatalf("source %q", res.Source)
				}
				if res.Tree.Version != version || res.Tree.Kind != KindBundle || res.Tree.Checksum != "sha256:"+wantSum || res.Tree.Source != version {
					t.Fatalf("tree %+v", res.Tree)
				}
				if _, err := fs.Stat(res.Tree.FS, "core/error.json"); err != nil {
					t.Fatalf("tree lacks core/error.json: %v", err)
				}
				gotSide, err := os.ReadFile(res.Path + ".sha256")
				if err != nil || string(gotSide) != wantSum+"  "+wantSum+".tgz\n" {
					t.Fatalf("cached sidecar %q, %v", gotSide, err)
				}
				before := len(srv.requests())
				again, err := Fetch(context.Background(), version, FetchOptions{Mirror: mirror, CacheDir: cache})
				if err != nil || !again.Cached || again.Path != res.Path || again.SHA256 != wantSum {
					t.Fatalf("second fetch: %+v, %v", again, err)
				}
				if form == "http" && len(srv.requests()) != before {
					t.Fatalf("a cache hit made requests: %q", srv.requests()[before:])
				}
				assertNoTempFiles(t, cache)
			})
		}
	}
}

// TestFetchRefusesCorruptedPublishedBundle is the other acceptance test:
// one byte flipped in a copy of 3.0.26 is refused and nothing is cached.
func TestFetchRefusesCorruptedPublishedBundle(t *testing.T) {
	specDir := testspec.Dir(t)
	data, err := os.ReadFile(filepath.Join(specDir, "protocol", "3.0.26.tgz"))
	if err != nil {
		t.Fatal(err)
	}
	side, err := os.ReadFile(filepath.Join(specDir, "protocol", "3.0.26.tgz.sha256"))
	if err != nil {
		t.Fatal(err)
	}
	good := sha256Hex(data)
	data[len(data)/2] ^= 0x01
	bad := sha256Hex(data)
	mirror := writeMirror(t, t.TempDir(), "3.0.26", data, ptr(string(side)))
	cache := t.TempDir()

	_, err = Fetch(context.Background(), "3.0.26", FetchOptions{Mirror: mirror, CacheDir: cache})
	var ce *ChecksumError
	if !errors.As(err, &ce) {
		t.Fatalf("got %v, want a *ChecksumError", err)
	}
	if ce.Want != good || ce.Got != bad {
		t.Fatalf("checksum error %+v, want %s / %s", ce, good, bad)
	}
	bundleURL := filepath.Join(mirror, "protocol", "3.0.26.tgz")
	for _, part := range []string{"fetch 3.0.26", bundleURL, "sha256 mismatch", good, bad, bundleURL + ".sha256"} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error %q does not name %q", err, part)
		}
	}
	assertEmptyDir(t, cache)
}

// TestFetchRefuses runs every refusal through every kind of mirror and
// checks the cache stays empty.
func TestFetchRefuses(t *testing.T) {
	const v = "9.9.9"
	good := miniBundle(t, v)
	other := miniBundle(t, "9.9.8")
	root := "adcp-" + v + "/"
	hostile := func(e tarEntry) []byte { return miniBundle(t, v, e) }
	noVersion := makeTgz(t,
		tarEntry{Name: "pkg/schemas/core/error.json", Body: `{"type":"object"}`})
	notSpec := makeTgz(t, tarEntry{Name: root + "README.md", Body: "hi"})

	cases := []struct {
		name     string
		bundle   []byte
		side     *string
		max      int64
		want     []string
		notFound bool
	}{
		{name: "wrong sidecar", bundle: good, side: ptr(sidecar(other, v)),
			want: []string{"sha256 mismatch", sha256Hex(other), sha256Hex(good), ".tgz.sha256"}},
		{name: "missing sidecar", bundle: good, side: nil, want: []string{"no checksum sidecar", v + ".tgz.sha256"}, notFound: true},
		{name: "garbage sidecar", bundle: good, side: ptr("<html>not found</html>"), want: []string{".tgz.sha256", "is not a sha256 hex digest"}},
		{name: "empty sidecar", bundle: good, side: ptr(""), want: []string{"empty checksum file"}},
		{name: "sidecar of another file", bundle: good, side: ptr(sha256Hex(good) + "  9.9.8.tgz\n"), want: []string{"is the checksum of 9.9.8.tgz, not 9.9.9.tgz"}},
		{name: "missing bundle", bundle: nil, side: ptr(sidecar(good, v)), want: []string{v + ".tgz"}, notFound: true},
		{name: "dot-dot entry", bundle: hostile(tarEntry{Name: root + "../evil.json", Body: "x"}), want: []string{"refusing the bundle", `"adcp-9.9.9/../evil.json": ".." refused`}},
		{name: "symlink", bundle: hostile(tarEntry{Name: root + "schemas/link", Type: tar.TypeSymlink, Linkname: "/etc/passwd"}), want: []string{"symlink entries are refused"}},
		{name: "hard link", bundle: hostile(tarEntry{Name: root + "schemas/link", Type: tar.TypeLink, Linkname: root + "manifest.json"}), want: []string{"hard link entries are refused"}},
		{name: "absolute path", bundle: hostile(tarEntry{Name: "/tmp/evil.json", Body: "x"}), want: []string{`"/tmp/evil.json": absolute or malformed path refused`}},
		{name: "fifo", bundle: hostile(tarEntry{Name: root + "fifo", Type: tar.TypeFifo}), want: []string{"fifo entries are refused"}},
		{name: "not gzip", bundle: []byte("this is not a tarball"), want: []string{"not a gzip stream"}},
		{name: "another version", bundle: other, want: []string{"publishes version 9.9.8, not 9.9.9"}},
		{name: "no version", bundle: noVersion, want: []string{"does not say which version it publishes"}},
		{name: "not a spec", bundle: notSpec, want: []string{"no schema tree found"}},
		{name: "too large", bundle: good, max: 100, want: []string{"100 byte limit"}},
	}
	for _, tc := range cases {
		side := tc.side
		if side == nil && tc.name != "missing sidecar" && tc.bundle != nil {
			side = ptr(sidecar(tc.bundle, v))
		}
		mirrorDir := writeMirror(t, t.TempDir(), v, tc.bundle, side)
		srv := newCountingServer(t, mirrorDir)
		for form, mirror := range map[string]string{"dir": mirrorDir, "file URL": fileURL(mirrorDir), "http": srv.URL} {
			t.Run(tc.name+"/"+form, func(t *testing.T) {
				cache := t.TempDir()
				_, err := Fetch(context.Background(), v, FetchOptions{Mirror: mirror, CacheDir: cache, MaxBytes: tc.max})
				if err == nil {
					t.Fatal("accepted")
				}
				msg := err.Error()
				if !strings.HasPrefix(msg, "fetch 9.9.9: ") {
					t.Errorf("error %q does not start with the version", msg)
				}
				if !strings.Contains(msg, mirror) && !strings.Contains(msg, mirrorDir) {
					t.Errorf("error %q does not name the mirror %s", msg, mirror)
				}
				for _, part := range tc.want {
					if !strings.Contains(msg, part) {
						t.Errorf("error %q does not contain %q", msg, part)
					}
				}
				if tc.notFound && !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("error %q does not match fs.ErrNotExist", msg)
				}
				if form == "http" && tc.notFound && !strings.Contains(msg, "HTTP 404 Not Found") {
					t.Errorf("error %q does not give the HTTP status", msg)
				}
				assertEmptyDir(t, cache)
			})
		}
	}
}

func TestFetchHTTPStatusAndLimits(t *testing.T) {
	const v = "9.9.9"
	bundle := miniBundle(t, v)
	for _, tc := range []struct {
		name    string
		handler http.HandlerFunc
		want    string
	}{
		{"server error on the bundle", func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, ".sha256") {
				w.Write([]byte(sidecar(bundle, v)))
				return
			}
			http.Error(w, "boom", http.StatusInternalServerError)
		}, "/protocol/9.9.9.tgz: HTTP 500 Internal Server Error"},
		{"forbidden sidecar", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "no", http.StatusForbidden)
		}, "checksum sidecar: http://"},
		{"announced size over the limit", func(w http.ResponseWriter, r *http.Request) {
			if strings.HasSuffix(r.URL.Path, ".sha256") {
				w.Write([]byte(sidecar(bundle, v)))
				return
			}
			w.Header().Set("Content-Length", "1000000000")
			w.WriteHeader(http.StatusOK)
		}, "1000000000 bytes exceeds the 67108864 byte limit"},
		{"sidecar over its limit", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte(strings.Repeat("a", 5000)))
		}, "larger than the 4096 byte limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(tc.handler)
			defer srv.Close()
			cache := t.TempDir()
			_, err := Fetch(context.Background(), v, FetchOptions{Mirror: srv.URL, CacheDir: cache, Client: srv.Client()})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want it to contain %q", err, tc.want)
			}
			assertEmptyDir(t, cache)
		})
	}
}

// TestFetchCacheHitMakesNoRequests: once cached, a version is served
// without the network, and a corrupted cache entry is refused.
func TestFetchCacheHitMakesNoRequests(t *testing.T) {
	const v = "9.9.9"
	bundle := miniBundle(t, v)
	srv := newCountingServer(t, writeMirror(t, t.TempDir(), v, bundle, ptr(sidecar(bundle, v))))
	cache := t.TempDir()
	opts := FetchOptions{Mirror: srv.URL + "/", CacheDir: cache}

	first, err := Fetch(context.Background(), v, opts)
	if err != nil {
		t.Fatal(err)
	}
	if got := srv.requests(); len(got) != 2 || got[0] != "/protocol/9.9.9.tgz.sha256" || got[1] != "/protocol/9.9.9.tgz" {
		t.Fatalf("first fetch requested %q", got)
	}
	if first.Source != srv.URL+"/protocol/9.9.9.tgz" {
		t.Fatalf("source %q", first.Source)
	}
	for i := 0; i < 3; i++ {
		again, err := Fetch(context.Background(), v, opts)
		if err != nil || !again.Cached {
			t.Fatalf("cached fetch: %+v, %v", again, err)
		}
	}
	if got := srv.requests(); len(got) != 2 {
		t.Fatalf("cache hits made requests: %q", got[2:])
	}
	offline, err := Fetch(context.Background(), v, FetchOptions{Mirror: "https://unreachable.invalid", CacheDir: cache, Offline: true})
	if err != nil || offline.SHA256 != first.SHA256 {
		t.Fatalf("offline cache hit: %+v, %v", offline, err)
	}

	// Corrupt the cached bundle: reading re-verifies, and says what to do.
	data, _ := os.ReadFile(first.Path)
	data[10] ^= 0xff
	os.WriteFile(first.Path, data, 0o644)
	_, err = Fetch(context.Background(), v, opts)
	var cc *CacheCorruptError
	if !errors.As(err, &cc) || cc.Path != first.Path || cc.Want != first.SHA256 || cc.Got != sha256Hex(data) {
		t.Fatalf("got %v, want a *CacheCorruptError for %s", err, first.Path)
	}
	for _, part := range []string{first.Path, first.SHA256, sha256Hex(data), "delete it and fetch again"} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error %q does not contain %q", err, part)
		}
	}
}

func TestFetchOfflineMiss(t *testing.T) {
	cache := t.TempDir()
	_, err := Fetch(context.Background(), "9.9.9", FetchOptions{Mirror: "https://unreachable.invalid", CacheDir: cache, Offline: true})
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "offline") || !strings.Contains(err.Error(), cache) {
		t.Fatalf("offline miss: %v", err)
	}
	assertEmptyDir(t, cache)
}

// TestFetchSeveralCachedBundles: when the cache holds two bundles for a
// version, the lock or the mirror's sidecar says which one is meant.
func TestFetchSeveralCachedBundles(t *testing.T) {
	const v = "9.9.9"
	old := miniBundle(t, v, tarEntry{Name: "adcp-9.9.9/OLD", Body: "old"})
	cur := miniBundle(t, v)
	cache := t.TempDir()
	c := &Cache{Dir: cache}
	for _, b := range [][]byte{old, cur} {
		if _, err := c.Put(v, sha256Hex(b), b); err != nil {
			t.Fatal(err)
		}
	}
	_, err := Fetch(context.Background(), v, FetchOptions{CacheDir: cache, Offline: true})
	if err == nil || !strings.Contains(err.Error(), "holds 2 bundles") {
		t.Fatalf("ambiguous offline fetch: %v", err)
	}

	srv := newCountingServer(t, writeMirror(t, t.TempDir(), v, cur, ptr(sidecar(cur, v))))
	res, err := Fetch(context.Background(), v, FetchOptions{Mirror: srv.URL, CacheDir: cache})
	if err != nil || res.SHA256 != sha256Hex(cur) || !res.Cached {
		t.Fatalf("online: %+v, %v", res, err)
	}
	if got := srv.requests(); len(got) != 1 || !strings.HasSuffix(got[0], ".sha256") {
		t.Fatalf("want the sidecar only, got %q", got)
	}

	lock := filepath.Join(t.TempDir(), "adcp.lock")
	if _, err := UpdateLock(lock, LockEntry{Version: v, SHA256: sha256Hex(old)}); err != nil {
		t.Fatal(err)
	}
	res, err = Fetch(context.Background(), v, FetchOptions{CacheDir: cache, Offline: true, LockFile: lock})
	if err != nil || res.SHA256 != sha256Hex(old) {
		t.Fatalf("locked offline: %+v, %v", res, err)
	}
	if _, err := fs.Stat(res.Tree.Bundle, "OLD"); err != nil {
		t.Fatalf("served the wrong bundle: %v", err)
	}
}

// TestFetchHonoursLock: a lock that pins another checksum is a hard error,
// online or offline, and nothing is stored.
func TestFetchHonoursLock(t *testing.T) {
	const v = "9.9.9"
	bundle := miniBundle(t, v)
	sum := sha256Hex(bundle)
	srv := newCountingServer(t, writeMirror(t, t.TempDir(), v, bundle, ptr(sidecar(bundle, v))))
	lockDir := t.TempDir()
	good := filepath.Join(lockDir, "good.lock")
	bad := filepath.Join(lockDir, "bad.lock")
	UpdateLock(good, LockEntry{Version: v, SHA256: sum})
	UpdateLock(bad, LockEntry{Version: v, SHA256: sumC})

	cache := t.TempDir()
	_, err := Fetch(context.Background(), v, FetchOptions{Mirror: srv.URL, CacheDir: cache, LockFile: bad})
	var mm *LockMismatchError
	if !errors.As(err, &mm) || mm.File != bad || mm.Locked != sumC || mm.Got != sum {
		t.Fatalf("got %v, want a *LockMismatchError", err)
	}
	for _, part := range []string{bad, v, sumC, sum, srv.URL + "/protocol/9.9.9.tgz.sha256"} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error %q does not name %q", err, part)
		}
	}
	if got := srv.requests(); len(got) != 1 {
		t.Fatalf("a mismatching sidecar should stop before the bundle; requests %q", got)
	}
	assertEmptyDir(t, cache)

	if _, err := Fetch(context.Background(), v, FetchOptions{Mirror: srv.URL, CacheDir: cache, LockFile: good}); err != nil {
		t.Fatalf("matching lock: %v", err)
	}
	// Offline, the cached bundle does not match the bad lock either.
	_, err = Fetch(context.Background(), v, FetchOptions{CacheDir: cache, Offline: true, LockFile: bad})
	if !errors.As(err, &mm) || !strings.Contains(err.Error(), "the cache") {
		t.Fatalf("offline mismatch: %v", err)
	}
	// A lock that does not list the version does not constrain it.
	other := filepath.Join(lockDir, "other.lock")
	UpdateLock(other, LockEntry{Version: "1.0.0", SHA256: sumC})
	if _, err := Fetch(context.Background(), v, FetchOptions{CacheDir: cache, Offline: true, LockFile: other}); err != nil {
		t.Fatalf("unrelated lock: %v", err)
	}
	// A broken lock is an error, not silently ignored.
	broken := filepath.Join(lockDir, "broken.lock")
	os.WriteFile(broken, []byte(`{"specs":[{"version":"9.9.9"}]}`), 0o644)
	if _, err := Fetch(context.Background(), v, FetchOptions{CacheDir: cache, Offline: true, LockFile: broken}); err == nil || !strings.Contains(err.Error(), broken) {
		t.Fatalf("broken lock: %v", err)
	}
}

func TestFetchBadVersions(t *testing.T) {
	srv := newCountingServer(t, t.TempDir())
	cache := t.TempDir()
	for _, v := range []string{"", "3.0", "v3.0.26", "../3.0.26", "3.0.26/../../x", "3.0.26\\x", "latest", "3.0.26+build", "03.0.0", strings.Repeat("1", 70) + ".0.0"} {
		_, err := Fetch(context.Background(), v, FetchOptions{Mirror: srv.URL, CacheDir: cache})
		if err == nil || !strings.HasPrefix(err.Error(), "fetch: ") {
			t.Errorf("Fetch(%q) = %v, want a version error", v, err)
		}
	}
	if got := srv.requests(); len(got) != 0 {
		t.Fatalf("bad versions reached the network: %q", got)
	}
	assertEmptyDir(t, cache)
}

func TestFetchCanceled(t *testing.T) {
	bundle := miniBundle(t, "9.9.9")
	dir := writeMirror(t, t.TempDir(), "9.9.9", bundle, ptr(sidecar(bundle, "9.9.9")))
	srv := newCountingServer(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, mirror := range []string{dir, srv.URL} {
		cache := t.TempDir()
		_, err := Fetch(ctx, "9.9.9", FetchOptions{Mirror: mirror, CacheDir: cache})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("mirror %s: got %v, want context.Canceled", mirror, err)
		}
		assertEmptyDir(t, cache)
	}
}

func TestFetchUnwritableCache(t *testing.T) {
	bundle := miniBundle(t, "9.9.9")
	dir := writeMirror(t, t.TempDir(), "9.9.9", bundle, ptr(sidecar(bundle, "9.9.9")))
	notADir := filepath.Join(t.TempDir(), "file")
	os.WriteFile(notADir, nil, 0o644)
	_, err := Fetch(context.Background(), "9.9.9", FetchOptions{Mirror: dir, CacheDir: notADir})
	if err == nil || !strings.Contains(err.Error(), "spec cache") {
		t.Fatalf("got %v", err)
	}
}

func TestParseMirror(t *testing.T) {
	const name = "protocol/3.0.26.tgz"
	for _, tc := range []struct{ base, where, err string }{
		{"", "https://adcontextprotocol.org/protocol/3.0.26.tgz", ""},
		{"https://adcontextprotocol.org/", "https://adcontextprotocol.org/protocol/3.0.26.tgz", ""},
		{"http://127.0.0.1:8080/adcp", "http://127.0.0.1:8080/adcp/protocol/3.0.26.tgz", ""},
		{"file:///srv/adcp", "file:///srv/adcp/protocol/3.0.26.tgz", ""},
		{"file://localhost/srv/adcp/", "file:///srv/adcp/protocol/3.0.26.tgz", ""},
		{"../shared/adcp", filepath.Join("..", "shared", "adcp", "protocol", "3.0.26.tgz"), ""},
		{"file://../shared/adcp", "", "a file URL must be absolute"},
		{"file://", "", "no path"},
		{"https://", "", "no host"},
		{"https://x.org/?v=1", "", "query or fragment"},
		{"ftp://x.org/adcp", "", `unsupported scheme "ftp"`},
		{"https://x.org/%zz", "", "invalid URL escape"},
	} {
		m, err := parseMirror(tc.base)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("parseMirror(%q) = %v, want error %q", tc.base, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("parseMirror(%q): %v", tc.base, err)
			continue
		}
		if got := m.where(name); got != tc.where {
			t.Errorf("parseMirror(%q).where = %q, want %q", tc.base, got, tc.where)
		}
	}
}

func TestRefuseDowngrade(t *testing.T) {
	req := func(u string) *http.Request {
		r, _ := http.NewRequest(http.MethodGet, u, nil)
		return r
	}
	if err := refuseDowngrade(req("http://x/a"), []*http.Request{req("https://x/a")}); err == nil {
		t.Error("followed https -> http")
	}
	if err := refuseDowngrade(req("https://y/a"), []*http.Request{req("https://x/a")}); err != nil {
		t.Errorf("refused https -> https: %v", err)
	}
	if err := refuseDowngrade(req("http://y/a"), []*http.Request{req("http://x/a")}); err != nil {
		t.Errorf("refused http -> http: %v", err)
	}
	via := make([]*http.Request, 10)
	for i := range via {
		via[i] = req("https://x/a")
	}
	if err := refuseDowngrade(req("https://x/b"), via); err == nil {
		t.Error("followed an 11th redirect")
	}
}

func TestHTTPErrorIsNotExist(t *testing.T) {
	for code, want := range map[int]bool{404: true, 410: true, 403: false, 500: false} {
		e := &HTTPError{URL: "u", StatusCode: code}
		if errors.Is(e, fs.ErrNotExist) != want {
			t.Errorf("HTTP %d: Is(ErrNotExist) = %v", code, !want)
		}
		if !strings.Contains(e.Error(), http.StatusText(code)) {
			t.Errorf("HTTP %d: message %q", code, e.Error())
		}
	}
}
