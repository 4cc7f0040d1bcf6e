package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// fetchCmd runs "adcpgen fetch args..." in-process with the given
// environment (nothing else leaks in).
func fetchCmd(t *testing.T, environ map[string]string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errOut, getenv: func(k string) string { return environ[k] }}
	code = run(e, append([]string{"fetch"}, args...))
	return code, out.String(), errOut.String()
}

// publishedSum reads the sidecar of a published bundle.
func publishedSum(t *testing.T, version string) string {
	t.Helper()
	side, err := os.ReadFile(testspec.Path(t, "protocol", version+".tgz.sha256"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.Fields(string(side))[0]
}

// fetchMustBeEmpty fails unless dir holds nothing.
func fetchMustBeEmpty(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 0 {
		t.Fatalf("%s should be empty, holds %d entries (first %s)", dir, len(entries), entries[0].Name())
	}
}

func TestFetchCommandPublished(t *testing.T) {
	specDir := testspec.Dir(t)
	abs, _ := filepath.Abs(specDir)
	for form, mirror := range map[string]string{
		"dir":      specDir,
		"file URL": (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String(),
	} {
		t.Run(form, func(t *testing.T) {
			cache := t.TempDir()
			lock := filepath.Join(t.TempDir(), "adcp.lock")
			// 3.0.26 first: the lock still lists 3.0.0 first.
			for _, v := range []string{"3.0.26", "3.0.0"} {
				code, stdout, stderr := fetchCmd(t, nil, v, "--mirror", mirror, "--cache", cache, "--lock", lock)
				if code != exitOK || stderr != "" {
					t.Fatalf("fetch %s: exit %d, stderr %q", v, code, stderr)
				}
				sum := publishedSum(t, v)
				path := filepath.Join(cache, v, sum+".tgz")
				if want := v + " sha256:" + sum + " " + path + "\n"; stdout != want {
					t.Fatalf("stdout %q, want %q", stdout, want)
				}
				if _, err := os.Stat(path); err != nil {
					t.Fatal(err)
				}
			}
			l, err := spec.ReadLock(lock)
			if err != nil {
				t.Fatal(err)
			}
			if len(l.Specs) != 2 || l.Specs[0].Version != "3.0.0" || l.Specs[1].Version != "3.0.26" ||
				l.Specs[0].SHA256 != publishedSum(t, "3.0.0") || !strings.HasSuffix(l.Specs[1].Source, "protocol/3.0.26.tgz") {
				t.Fatalf("lock %+v", l.Specs)
			}
		})
	}
}

func TestFetchCommandHTTPAndCacheHit(t *testing.T) {
	specDir := testspec.Dir(t)
	var requests atomic.Int64
	files := http.FileServer(http.Dir(specDir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		files.ServeHTTP(w, r)
	}))
	defer srv.Close()
	cache := t.TempDir()
	lock := filepath.Join(t.TempDir(), "adcp.lock")
	// The mirror and the cache come from the environment.
	environ := map[string]string{"ADCP_MIRROR": srv.URL, "ADCP_CACHE": cache}

	code, stdout, stderr := fetchCmd(t, environ, "3.0.26", "--lock", lock)
	if code != exitOK || !strings.HasPrefix(stdout, "3.0.26 sha256:"+publishedSum(t, "3.0.26")+" "+cache) {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if n := requests.Load(); n != 2 {
		t.Fatalf("first fetch made %d requests, want 2 (sidecar, bundle)", n)
	}
	lockBefore, _ := os.ReadFile(lock)
	code, again, stderr := fetchCmd(t, environ, "3.0.26", "--lock", lock)
	if code != exitOK || again != stdout {
		t.Fatalf("cached fetch: exit %d, stdout %q, stderr %q", code, again, stderr)
	}
	if n := requests.Load(); n != 2 {
		t.Fatalf("the cache hit made %d more requests", n-2)
	}
	if lockAfter, _ := os.ReadFile(lock); string(lockAfter) != string(lockBefore) {
		t.Fatalf("the lock changed on a cache hit:\n%s", lockAfter)
	}

	// A version the mirror lacks: the HTTP status and URL are named.
	code, _, stderr = fetchCmd(t, environ, "3.0.99", "--no-lock")
	if code != exitFailure || !strings.Contains(stderr, srv.URL+"/protocol/3.0.99.tgz.sha256: HTTP 404 Not Found") {
		t.Fatalf("missing version: exit %d, stderr %q", code, stderr)
	}

	// Flags win over the environment.
	other := t.TempDir()
	code, stdout, _ = fetchCmd(t, map[string]string{"ADCP_MIRROR": "https://unreachable.invalid", "ADCP_CACHE": cache},
		"3.0.0", "--mirror", specDir, "--cache", other, "--no-lock")
	if code != exitOK || !strings.Contains(stdout, other) {
		t.Fatalf("flags over env: exit %d, stdout %q", code, stdout)
	}
}

// TestFetchCommandRefusesCorruptedBundle: one byte flipped in a copy of a
// published bundle fails with both sums named, and nothing is cached or locked.
func TestFetchCommandRefusesCorruptedBundle(t *testing.T) {
	data, err := os.ReadFile(testspec.Path(t, "protocol", "3.0.26.tgz"))
	if err != nil {
		t.Fatal(err)
	}
	side, _ := os.ReadFile(testspec.Path(t, "protocol", "3.0.26.tgz.sha256"))
	data[len(data)/3] ^= 0x80
	mirror := t.TempDir()
	os.MkdirAll(filepath.Join(mirror, "protocol"), 0o755)
	os.WriteFile(filepath.Join(mirror, "protocol", "3.0.26.tgz"), data, 0o644)
	os.WriteFile(filepath.Join(mirror, "protocol", "3.0.26.tgz.sha256"), side, 0o644)
	cache := t.TempDir()
	lockDir := t.TempDir()

	code, stdout, stderr := fetchCmd(t, nil, "3.0.26", "--mirror", mirror, "--cache", cache, "--lock", filepath.Join(lockDir, "adcp.lock"))
	if code != exitFailure || stdout != "" {
		t.Fatalf("exit %d, stdout %q", code, stdout)
	}
	for _, part := range []string{"adcpgen fetch: fetch 3.0.26: ", filepath.Join(mirror, "protocol", "3.0.26.tgz"), "sha256 mismatch", publishedSum(t, "3.0.26"), strings.Fields(string(side))[0]} {
		if !strings.Contains(stderr, part) {
			t.Errorf("stderr %q does not contain %q", stderr, part)
		}
	}
	if strings.Count(stderr, "\n") != 1 {
		t.Errorf("want a one-line error, got %q", stderr)
	}
	fetchMustBeEmpty(t, cache)
	fetchMustBeEmpty(t, lockDir)
}

func TestFetchCommandLockMismatch(t *testing.T) {
	specDir := testspec.Dir(t)
	cache := t.TempDir()
	lock := filepath.Join(t.TempDir(), "adcp.lock")
	bogus := strings.Repeat("0", 64)
	if err := spec.WriteLock(lock, &spec.Lock{Specs: []spec.LockEntry{{Version: "3.0.26", SHA256: bogus}}}); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(lock)
	code, _, stderr := fetchCmd(t, nil, "3.0.26", "--mirror", specDir, "--cache", cache, "--lock", lock)
	if code != exitFailure {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, part := range []string{lock, "3.0.26", bogus, publishedSum(t, "3.0.26")} {
		if !strings.Contains(stderr, part) {
			t.Errorf("stderr %q does not name %q", stderr, part)
		}
	}
	if after, _ := os.ReadFile(lock); string(after) != string(before) {
		t.Fatalf("the lock was rewritten:\n%s", after)
	}
	fetchMustBeEmpty(t, cache)

	// --no-lock ignores it.
	if code, _, stderr := fetchCmd(t, nil, "3.0.26", "--mirror", specDir, "--cache", cache, "--no-lock"); code != exitOK {
		t.Fatalf("--no-lock: exit %d, %q", code, stderr)
	}
	// With the genuine bundle cached, the lock still wins.
	if code, _, _ := fetchCmd(t, nil, "3.0.26", "--mirror", specDir, "--cache", cache, "--lock", lock); code != exitFailure {
		t.Fatalf("cached bundle against a mismatching lock: exit %d", code)
	}
}

// TestFetchCommandDefaultLock: the lock goes to ./adcp.lock unless --no-lock.
func TestFetchCommandDefaultLock(t *testing.T) {
	specDir, err := filepath.Abs(testspec.Dir(t))
	if err != nil {
		t.Fatal(err)
	}
	cache := t.TempDir()
	work := t.TempDir()
	t.Chdir(work)
	if code, _, stderr := fetchCmd(t, nil, "3.0.0", "--mirror", specDir, "--cache", cache, "--no-lock"); code != exitOK {
		t.Fatalf("exit %d, %q", code, stderr)
	}
	fetchMustBeEmpty(t, work)
	if code, _, stderr := fetchCmd(t, nil, "3.0.0", "--mirror", specDir, "--cache", cache); code != exitOK {
		t.Fatalf("exit %d, %q", code, stderr)
	}
	l, err := spec.ReadLock(filepath.Join(work, "adcp.lock"))
	if err != nil || len(l.Specs) != 1 || l.Specs[0].SHA256 != publishedSum(t, "3.0.0") {
		t.Fatalf("lock %+v, %v", l, err)
	}
}

func TestFetchCommandUsage(t *testing.T) {
	brokenLock := filepath.Join(t.TempDir(), "adcp.lock")
	os.WriteFile(brokenLock, []byte(`{"specs": [{"version": "3.0.26"}]}`), 0o644)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no version", nil, "missing VERSION"},
		{"two versions", []string{"3.0.0", "3.0.26"}, "want one VERSION, got 2"},
		{"short version", []string{"3.0"}, `version "3.0" is not MAJOR.MINOR.PATCH`},
		{"path as version", []string{"../3.0.26"}, "is not MAJOR.MINOR.PATCH"},
		{"lock and no-lock", []string{"3.0.26", "--lock", "x.lock", "--no-lock"}, "exclude each other"},
		{"empty lock", []string{"3.0.26", "--lock", ""}, "--lock needs a path"},
		{"unknown flag", []string{"3.0.26", "--offline"}, "flag provided but not defined: -offline"},
		{"broken lock", []string{"3.0.26", "--lock", brokenLock, "--cache", t.TempDir()}, brokenLock + ": /specs/0/sha256"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := fetchCmd(t, nil, tc.args...)
			if code != exitUsage || stdout != "" || !strings.Contains(stderr, tc.want) || strings.Count(stderr, "\n") != 1 {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, stdout, stderr, tc.want)
			}
		})
	}
	code, stdout, _ := fetchCmd(t, map[string]string{"ADCP_MIRROR": "file:///srv/adcp"}, "--help")
	for _, part := range []string{fetchSynopsis, "--mirror", "(default file:///srv/adcp)", "--cache", "--lock", "(default adcp.lock)", "--no-lock", "Exit status"} {
		if code != exitOK || !strings.Contains(stdout, part) {
			t.Errorf("--help: exit %d, output lacks %q", code, part)
		}
	}
}
