package spec

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
)

// tarEntry is one entry of an archive a test builds.
type tarEntry struct {
	Name     string
	Body     string
	Type     byte // tar.TypeReg when 0
	Linkname string
}

// makeTgz builds a gzip'd tar holding entries, in order.
func makeTgz(t testing.TB, entries ...tarEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for _, e := range entries {
		typ := e.Type
		if typ == 0 {
			typ = tar.TypeReg
		}
		hdr := &tar.Header{Name: e.Name, Typeflag: typ, Mode: 0o644, Linkname: e.Linkname}
		if typ == tar.TypeReg {
			hdr.Size = int64(len(e.Body))
		}
		if typ == tar.TypeDir {
			hdr.Mode = 0o755
		}
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatalf("tar header %q: %v", e.Name, err)
		}
		if typ == tar.TypeReg {
			if _, err := tw.Write([]byte(e.Body)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := gz.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// miniBundle is the smallest bundle Fetch accepts for version, plus extra
// entries (which may be hostile).
func miniBundle(t testing.TB, version string, extra ...tarEntry) []byte {
	t.Helper()
	root := "adcp-" + version + "/"
	entries := []tarEntry{
		{Name: root, Type: tar.TypeDir},
		{Name: root + "manifest.json", Body: `{"adcp_version": "` + version + `"}`},
		{Name: root + "schemas/core/error.json", Body: `{"$id": "/schemas/` + version + `/core/error.json", "type": "object"}`},
	}
	return makeTgz(t, append(entries, extra...)...)
}

// sidecar is the upstream .sha256 line for a bundle.
func sidecar(data []byte, version string) string {
	return sha256Hex(data) + "  " + version + ".tgz\n"
}

// writeMirror lays out a mirror directory holding one version. A nil
// sidecar text means no sidecar file.
func writeMirror(t testing.TB, dir, version string, bundle []byte, side *string) string {
	t.Helper()
	p := filepath.Join(dir, "protocol")
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	if bundle != nil {
		if err := os.WriteFile(filepath.Join(p, version+".tgz"), bundle, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if side != nil {
		if err := os.WriteFile(filepath.Join(p, version+".tgz.sha256"), []byte(*side), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func ptr(s string) *string { return &s }

// countingServer serves dir over HTTP and records every request path.
type countingServer struct {
	*httptest.Server
	mu    sync.Mutex
	paths []string
}

func newCountingServer(t testing.TB, dir string) *countingServer {
	t.Helper()
	s := &countingServer{}
	files := http.FileServer(http.Dir(dir))
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.paths = append(s.paths, r.URL.Path)
		s.mu.Unlock()
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *countingServer) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.paths...)
}

// assertEmptyDir fails unless dir exists and holds nothing at all.
func assertEmptyDir(t testing.TB, dir string) {
	t.Helper()
	var left []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			t.Fatalf("walking %s: %v", dir, err)
		}
		if p != dir {
			left = append(left, p)
		}
		return nil
	})
	sort.Strings(left)
	if len(left) > 0 {
		t.Fatalf("the cache should be empty, it holds %q", left)
	}
}
