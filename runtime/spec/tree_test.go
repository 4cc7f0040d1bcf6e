package spec

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/adcpgen/adcpgen/internal/testspec"
)

func TestOpenPublishedTrees(t *testing.T) {
	dir := testspec.Dir(t)
	for _, pv := range testspec.Versions {
		t.Run(pv.Version, func(t *testing.T) {
			source := filepath.Join(dir, filepath.FromSlash(pv.Source))
			tree, err := Open(source)
			if err != nil {
				t.Fatal(err)
			}
			if tree.Version != pv.Version || tree.Source != source {
				t.Fatalf("version %q source %q", tree.Version, tree.Source)
			}
			wantKind := KindDir
			if IsBundleName(source) {
				wantKind = KindBundle
			}
			if tree.Kind != wantKind || (tree.Bundle == nil) != (wantKind == KindDir) {
				t.Fatalf("kind %s, bundle %v", tree.Kind, tree.Bundle != nil)
			}
			if _, err := fs.Stat(tree.FS, "core/error.json"); err != nil {
				t.Fatalf("FS not rooted at the schemas folder: %v", err)
			}
			if !strings.HasPrefix(tree.Checksum, "sha256:") || len(tree.Checksum) != len("sha256:")+64 {
				t.Fatalf("checksum %q", tree.Checksum)
			}
		})
	}
}

func TestOpenErrors(t *testing.T) {
	dir := t.TempDir()
	notTree := filepath.Join(dir, "empty")
	os.Mkdir(notTree, 0o755)
	plain := filepath.Join(dir, "schema.json")
	os.WriteFile(plain, []byte("{}"), 0o644)
	for _, tc := range []struct{ source, want string }{
		{filepath.Join(dir, "missing"), "no such file"},
		{plain, "not a directory or a .tgz bundle"},
		{notTree, "no schema tree found (want core/ or schemas/core/)"},
	} {
		_, err := Open(tc.source)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "spec "+tc.source+": ") {
			t.Errorf("Open(%s) = %v, want %q", tc.source, err, tc.want)
		}
	}
}

func TestIsBundleName(t *testing.T) {
	for name, want := range map[string]bool{
		"3.0.26.tgz": true, "dir/adcp.tar.gz": true, "3.0.26": false, "x.tgz.sha256": false, "x.tar": false, "schemas": false,
	} {
		if IsBundleName(name) != want {
			t.Errorf("IsBundleName(%q) = %v", name, !want)
		}
	}
}

func TestOpenFSRoots(t *testing.T) {
	flat := fstest.MapFS{"core/error.json": {Data: []byte(`{"$id":"/schemas/1.0.0/core/error.json"}`)}}
	tree, err := OpenFS(flat, "flat", KindEmbedded)
	if err != nil {
		t.Fatal(err)
	}
	if tree.Bundle != nil || tree.Version != "1.0.0" || tree.Kind != KindEmbedded || tree.Source != "flat" {
		t.Fatalf("flat: %+v", tree)
	}
	nested := fstest.MapFS{
		"manifest.json":                {Data: []byte(`{"adcp_version":"ignored: not in the schemas folder"}`)},
		"schemas/core/error.json":      {Data: []byte(`{}`)},
		"schemas/manifest.json":        {Data: []byte(`{"adcp_version":"2.0.0"}`)},
		"compliance/storyboards/a.yml": {Data: []byte(``)},
	}
	tree, err = OpenFS(nested, "nested", KindDir)
	if err != nil {
		t.Fatal(err)
	}
	if tree.Bundle == nil || tree.Version != "2.0.0" {
		t.Fatalf("nested: %+v", tree)
	}
	if _, err := fs.Stat(tree.FS, "core/error.json"); err != nil {
		t.Fatalf("nested FS: %v", err)
	}
	if _, err := fs.Stat(tree.Bundle, "compliance/storyboards/a.yml"); err != nil {
		t.Fatalf("nested Bundle: %v", err)
	}
	// core must be a folder.
	if _, err := OpenFS(fstest.MapFS{"core": {Data: []byte("file")}}, "odd", KindDir); err == nil {
		t.Fatal("a file named core passed for a tree")
	}
}

func TestDetectVersion(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"manifest", map[string]string{"manifest.json": `{"adcp_version":"3.0.26"}`, "core/error.json": `{"$id":"/schemas/9.9.9/core/error.json"}`}, "3.0.26"},
		{"index", map[string]string{"index.json": `{"adcp_version":"2.5.3"}`}, "2.5.3"},
		{"manifest before index", map[string]string{"manifest.json": `{"adcp_version":"1.0.0"}`, "index.json": `{"adcp_version":"2.0.0"}`}, "1.0.0"},
		{"broken manifest falls through", map[string]string{"manifest.json": `{`, "core/error.json": `{"$id":"/schemas/3.1.19/core/error.json"}`}, "3.1.19"},
		{"manifest without version falls through", map[string]string{"manifest.json": `{"tools":{}}`, "index.json": `{"adcp_version":"2.0.0"}`}, "2.0.0"},
		{"root-relative $id", map[string]string{"core/error.json": `{"$id":"/schemas/3.1.19/core/error.json"}`}, "3.1.19"},
		{"absolute $id", map[string]string{"core/error.json": `{"$id":"https://adcontextprotocol.org/schemas/3.2.0-beta.3/core/error.json"}`}, "3.2.0-beta.3"},
		{"context.json fallback", map[string]string{"core/error.json": `{"$id":"/schemas/latest/core/error.json"}`, "core/context.json": `{"$id":"/schemas/v2.5.3/core/context.json"}`}, "v2.5.3"},
		{"nothing", map[string]string{"core/error.json": `{"type":"object"}`}, ""},
		{"unversioned $id", map[string]string{"core/error.json": `{"$id":"/schemas/core/error.json"}`}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := fstest.MapFS{}
			for name, body := range tc.files {
				m[name] = &fstest.MapFile{Data: []byte(body)}
			}
			if got := detectVersion(m); got != tc.want {
				t.Fatalf("detectVersion = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestTreeDigest(t *testing.T) {
	base := fstest.MapFS{
		"core/a.json":  {Data: []byte("a")},
		"enums/b.json": {Data: []byte("b")},
	}
	digest := func(fsys fs.FS) string { return treeDigest(t, fsys) }
	d0 := digest(base)
	if !strings.HasPrefix(d0, "sha256:") || !isSHA256Hex(strings.TrimPrefix(d0, "sha256:")) {
		t.Fatalf("digest %q", d0)
	}
	same := fstest.MapFS{
		"enums/b.json": {Data: []byte("b"), Mode: 0o600},
		"core/a.json":  {Data: []byte("a")},
		"empty":        {Mode: fs.ModeDir},
	}
	if digest(same) != d0 {
		t.Fatal("digest depends on order, modes or empty folders")
	}
	for name, m := range map[string]fstest.MapFS{
		"content": {"core/a.json": {Data: []byte("A")}, "enums/b.json": {Data: []byte("b")}},
		"rename":  {"core/a2.json": {Data: []byte("a")}, "enums/b.json": {Data: []byte("b")}},
		"extra":   {"core/a.json": {Data: []byte("a")}, "enums/b.json": {Data: []byte("b")}, "c": {Data: nil}},
		"move":    {"core/a.json": {Data: []byte("a")}, "core/b.json": {Data: []byte("b")}},
	} {
		if digest(m) == d0 {
			t.Errorf("a %s change kept the digest", name)
		}
	}
	// Directories on disk digest like the same files anywhere else.
	dir := t.TempDir()
	for name, f := range base {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, f.Data, 0o644)
	}
	if got := digest(os.DirFS(dir)); got != d0 {
		t.Fatalf("on disk %s, in memory %s", got, d0)
	}
}

func treeDigest(t *testing.T, fsys fs.FS) string {
	t.Helper()
	d, err := TreeDigest(fsys)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
