package spec

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/internal/testspec"
)

func TestCheckVersion(t *testing.T) {
	for _, v := range []string{"0.0.0", "3.0.26", "3.2.0-beta.3", "10.20.30", "1.0.0-rc.1", "1.0.0-0", "1.0.0-x-y.7z.92", "1.0.0-alpha-1"} {
		if err := CheckVersion(v); err != nil {
			t.Errorf("CheckVersion(%q) = %v", v, err)
		}
	}
	for _, v := range []string{"", "3", "3.0", "3.0.26.1", "v3.0.26", "3.0.26+build.1", "03.0.0", "3.00.0", "3.0.0-", "3.0.0-beta..1",
		"3.0.0-01", "3.0.0-a/b", "../3.0.0", "3.0.0/..", "3.0.0\\x", " 3.0.0", "3.0.0\n", "latest", "3.0.0-" + strings.Repeat("a", 60)} {
		if err := CheckVersion(v); err == nil {
			t.Errorf("CheckVersion(%q) accepted", v)
		}
	}
}

func TestCompareVersions(t *testing.T) {
	// Semver 2.0 precedence example, plus numeric fields longer than one digit.
	ordered := []string{
		"1.0.0-alpha", "1.0.0-alpha.1", "1.0.0-alpha.beta", "1.0.0-beta", "1.0.0-beta.2", "1.0.0-beta.11",
		"1.0.0-rc.1", "1.0.0", "2.0.0", "3.0.0", "3.0.9", "3.0.26", "3.1.19", "3.2.0-beta.3", "3.2.0", "10.0.0",
	}
	for i := range ordered {
		for j := range ordered {
			got := compareVersions(ordered[i], ordered[j])
			if (i < j && got >= 0) || (i > j && got <= 0) || (i == j && got != 0) {
				t.Errorf("compareVersions(%q, %q) = %d", ordered[i], ordered[j], got)
			}
		}
	}
	shuffled := []string{"3.0.26", "1.0.0-beta.11", "10.0.0", "3.2.0-beta.3", "1.0.0-alpha", "3.0.9", "1.0.0", "3.2.0"}
	sort.Slice(shuffled, func(i, j int) bool { return compareVersions(shuffled[i], shuffled[j]) < 0 })
	if strings.Join(shuffled, " ") != "1.0.0-alpha 1.0.0-beta.11 1.0.0 3.0.9 3.0.26 3.2.0-beta.3 3.2.0 10.0.0" {
		t.Fatalf("sorted: %v", shuffled)
	}
}

// TestResolveVersionThroughCache: the first Resolve fetches, the next ones
// are served by the cache without a request.
func TestResolveVersionThroughCache(t *testing.T) {
	const v = "9.9.9"
	bundle := miniBundle(t, v)
	srv := newCountingServer(t, writeMirror(t, t.TempDir(), v, bundle, ptr(sidecar(bundle, v))))
	opts := ResolveOptions{Mirror: srv.URL, CacheDir: t.TempDir(), Client: srv.Client()}

	tree, err := Resolve(context.Background(), v, opts)
	if err != nil {
		t.Fatal(err)
	}
	if tree.Version != v || tree.Source != v || tree.Kind != KindBundle || tree.Checksum != "sha256:"+sha256Hex(bundle) {
		t.Fatalf("tree %+v", tree)
	}
	n := len(srv.requests())
	if n != 2 {
		t.Fatalf("first resolve made %d requests", n)
	}
	for i := 0; i < 2; i++ {
		if _, err := Resolve(context.Background(), v, opts); err != nil {
			t.Fatal(err)
		}
	}
	if got := srv.requests(); len(got) != n {
		t.Fatalf("cache hits made requests: %q", got[n:])
	}

	opts.Offline = true
	if _, err := Resolve(context.Background(), "9.9.8", opts); err == nil || !strings.Contains(err.Error(), "offline") {
		t.Fatalf("offline miss: %v", err)
	}
	if got := srv.requests(); len(got) != n {
		t.Fatalf("offline resolve made requests: %q", got[n:])
	}
}

func TestResolvePublished(t *testing.T) {
	specDir := testspec.Dir(t)
	cache := t.TempDir()
	for _, pv := range testspec.Versions {
		t.Run(pv.Version, func(t *testing.T) {
			source := filepath.Join(specDir, filepath.FromSlash(pv.Source))
			tree, err := Resolve(context.Background(), source, ResolveOptions{Offline: true})
			if err != nil {
				t.Fatal(err)
			}
			if tree.Version != pv.Version || tree.Source != source {
				t.Fatalf("Resolve(%s): version %q source %q", source, tree.Version, tree.Source)
			}
			if !IsBundleName(source) {
				return
			}
			// The same bundle by version, from the mirror through the cache.
			byVersion, err := Resolve(context.Background(), pv.Version, ResolveOptions{Mirror: specDir, CacheDir: cache})
			if err != nil {
				t.Fatal(err)
			}
			if byVersion.Checksum != tree.Checksum || byVersion.Version != pv.Version {
				t.Fatalf("by version: %s %s, by path: %s %s", byVersion.Version, byVersion.Checksum, tree.Version, tree.Checksum)
			}
		})
	}
}

// TestResolveHonoursLock covers versions, bundles and directories against
// a lock file.
func TestResolveHonoursLock(t *testing.T) {
	const v = "9.9.9"
	bundle := miniBundle(t, v)
	sum := sha256Hex(bundle)
	mirror := writeMirror(t, t.TempDir(), v, bundle, ptr(sidecar(bundle, v)))
	tgz := filepath.Join(mirror, "protocol", v+".tgz")
	// A directory publishing the locked version, named like a version: a
	// path all the same, and not held to the lock (it has no bundle sum).
	dir := filepath.Join(t.TempDir(), "9.9.9")
	os.MkdirAll(filepath.Join(dir, "core"), 0o755)
	os.WriteFile(filepath.Join(dir, "core", "error.json"), []byte(`{"$id": "/schemas/9.9.9/core/error.json"}`), 0o644)

	locks := t.TempDir()
	good := filepath.Join(locks, "good.lock")
	bad := filepath.Join(locks, "bad.lock")
	UpdateLock(good, LockEntry{Version: v, SHA256: sum})
	UpdateLock(bad, LockEntry{Version: v, SHA256: sumC})

	for _, tc := range []struct {
		name, source, lock string
		mismatch           bool
	}{
		{"version, matching lock", v, good, false},
		{"version, mismatching lock", v, bad, true},
		{"version, no lock file yet", v, filepath.Join(locks, "missing.lock"), false},
		{"bundle, matching lock", tgz, good, false},
		{"bundle, mismatching lock", tgz, bad, true},
		{"directory, lock not applicable", dir, bad, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cache := t.TempDir()
			tree, err := Resolve(context.Background(), tc.source, ResolveOptions{Mirror: mirror, CacheDir: cache, LockFile: tc.lock})
			if !tc.mismatch {
				if err != nil {
					t.Fatal(err)
				}
				if tree.Source != tc.source || tree.Version != v {
					t.Fatalf("source %q version %q", tree.Source, tree.Version)
				}
				return
			}
			var mm *LockMismatchError
			if !errors.As(err, &mm) {
				t.Fatalf("got %v, want a *LockMismatchError", err)
			}
			for _, part := range []string{tc.lock, v, sumC, sum} {
				if !strings.Contains(err.Error(), part) {
					t.Errorf("error %q does not name %q", err, part)
				}
			}
			assertEmptyDir(t, cache)
		})
	}

	broken := filepath.Join(locks, "broken.lock")
	os.WriteFile(broken, []byte("not json"), 0o644)
	for _, source := range []string{v, tgz} {
		if _, err := Resolve(context.Background(), source, ResolveOptions{Mirror: mirror, CacheDir: t.TempDir(), LockFile: broken}); err == nil || !strings.Contains(err.Error(), broken) {
			t.Errorf("Resolve(%s) with a broken lock: %v", source, err)
		}
	}
}

func TestResolveBadSources(t *testing.T) {
	for _, tc := range []struct{ source, want string }{
		{"", "no source given"},
		{"3.0", `spec 3.0: not a version (version "3.0" is not MAJOR.MINOR.PATCH`},
		{"latest", "nor an existing directory or .tgz bundle"},
		{filepath.Join(t.TempDir(), "missing.tgz"), "no such file"},
		{filepath.Join(t.TempDir(), "x", "3.0.26"), "no such file"},
	} {
		_, err := Resolve(context.Background(), tc.source, ResolveOptions{Offline: true, CacheDir: t.TempDir()})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Resolve(%q) = %v, want %q", tc.source, err, tc.want)
		}
	}
}
