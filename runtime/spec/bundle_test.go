package spec

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/internal/testspec"
)

func TestEntryName(t *testing.T) {
	for _, tc := range []struct{ raw, want, err string }{
		{"a/b.json", "a/b.json", ""},
		{"./a/b.json", "a/b.json", ""},
		{"a//b.json", "a/b.json", ""},
		{"a/./b.json", "a/b.json", ""},
		{"adcp-3.0.26/", "adcp-3.0.26", ""},
		{"a..b/c", "a..b/c", ""},
		{"/etc/passwd", "", "absolute or malformed"},
		{"", "", "absolute or malformed"},
		{`a\b`, "", "absolute or malformed"},
		{"a\x00b", "", "absolute or malformed"},
		{"..", "", `".." refused`},
		{"../x", "", `".." refused`},
		{"a/../../x", "", `".." refused`},
		{"a/b/..", "", `".." refused`},
		{".", "", "malformed path"},
		{"./", "", "malformed path"},
	} {
		got, err := entryName(tc.raw)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), "entry ") {
				t.Errorf("entryName(%q) = %q, %v, want error %q", tc.raw, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("entryName(%q) = %q, %v, want %q", tc.raw, got, err, tc.want)
		}
	}
}

func TestUnpackRefuses(t *testing.T) {
	small := BundleLimits{MaxFiles: 3, MaxFileBytes: 10, MaxTotal: 15}
	file := func(name, body string) tarEntry { return tarEntry{Name: name, Body: body} }
	for _, tc := range []struct {
		name    string
		entries []tarEntry
		lim     BundleLimits
		want    string
	}{
		{"symlink", []tarEntry{{Name: "l", Type: tar.TypeSymlink, Linkname: "../../etc/passwd"}}, DefaultBundleLimits, `entry "l": symlink entries are refused`},
		{"hard link", []tarEntry{file("a", "x"), {Name: "l", Type: tar.TypeLink, Linkname: "a"}}, DefaultBundleLimits, "hard link entries are refused"},
		{"char device", []tarEntry{{Name: "d", Type: tar.TypeChar}}, DefaultBundleLimits, "device entries are refused"},
		{"block device", []tarEntry{{Name: "d", Type: tar.TypeBlock}}, DefaultBundleLimits, "device entries are refused"},
		{"fifo", []tarEntry{{Name: "p", Type: tar.TypeFifo}}, DefaultBundleLimits, "fifo entries are refused"},
		{"absolute", []tarEntry{file("/abs", "x")}, DefaultBundleLimits, "absolute"},
		{"dot-dot", []tarEntry{file("a/../../b", "x")}, DefaultBundleLimits, `".." refused`},
		{"duplicate", []tarEntry{file("a/b", "1"), file("./a/b", "2")}, DefaultBundleLimits, `entry "./a/b" appears twice`},
		{"too many entries", []tarEntry{file("a", ""), {Name: "d/", Type: tar.TypeDir}, file("b", ""), file("c", "")}, small, "more than 3 entries"},
		{"file too big", []tarEntry{file("a", "01234567890")}, small, `entry "a": 11 bytes exceeds the 10 byte limit`},
		{"total too big", []tarEntry{file("a", "0123456789"), file("b", "012345")}, small, "unpacked size exceeds 15 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := unpack(strings.NewReader(string(makeTgz(t, tc.entries...))), tc.lim)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
	t.Run("not gzip", func(t *testing.T) {
		if _, err := unpack(strings.NewReader("plain text"), DefaultBundleLimits); err == nil || !strings.Contains(err.Error(), "not a gzip stream") {
			t.Fatalf("got %v", err)
		}
	})
	t.Run("truncated", func(t *testing.T) {
		data := makeTgz(t, file("a", strings.Repeat("x", 5000)))
		if _, err := unpack(strings.NewReader(string(data[:len(data)/2])), DefaultBundleLimits); err == nil {
			t.Fatal("accepted a truncated archive")
		}
	})
}

func TestUnpackAccepts(t *testing.T) {
	// A leading "./" folder entry (tar -C dir .) is refused today; see
	// entryName's table.
	m, err := unpack(strings.NewReader(string(makeTgz(t,
		tarEntry{Name: "./top/", Type: tar.TypeDir},
		tarEntry{Name: "./top/a.json", Body: "{}"},
		tarEntry{Name: "top/empty/", Type: tar.TypeDir},
		tarEntry{Name: "top/n/b.json", Body: "[]"},
	))), DefaultBundleLimits)
	if err != nil {
		t.Fatal(err)
	}
	if data, err := m.ReadFile("top/n/b.json"); err != nil || string(data) != "[]" {
		t.Fatalf("top/n/b.json = %q, %v", data, err)
	}
	// Folders come from files: an empty folder entry leaves nothing.
	if _, err := m.Open("top/empty"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("empty folder: %v", err)
	}
	if m, err := unpack(strings.NewReader(string(makeTgz(t))), DefaultBundleLimits); err != nil || len(m.files) != 0 {
		t.Fatalf("empty archive: %v", err)
	}
}

func TestParseChecksumFile(t *testing.T) {
	for _, tc := range []struct{ in, want, err string }{
		{sumB + "  3.0.26.tgz\n", sumB, ""},
		{sumB + "\n", sumB, ""},
		{"  " + strings.ToUpper(sumB) + " *3.0.26.tgz", sumB, ""},
		{"", "", "empty checksum file"},
		{" \n\t", "", "empty checksum file"},
		{sumB[:63] + "  x", "", "not a sha256 hex digest"},
		{sumB + "0  x", "", "not a sha256 hex digest"},
		{strings.Repeat("g", 64), "", "is not hex"},
		{"<html><body>Not Found</body></html>", "", "not a sha256 hex digest"},
	} {
		got, err := ParseChecksumFile([]byte(tc.in))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseChecksumFile(%q) = %q, %v, want error %q", tc.in, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseChecksumFile(%q) = %q, %v", tc.in, got, err)
		}
	}
}

func TestOpenBundleFileSidecar(t *testing.T) {
	dir := t.TempDir()
	data := miniBundle(t, "1.2.3")
	name := filepath.Join(dir, "1.2.3.tgz")
	os.WriteFile(name, data, 0o644)

	// No sidecar: opened, unverified but checksummed.
	tree, err := OpenBundleFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if tree.Version != "1.2.3" || tree.Kind != KindBundle || tree.Checksum != "sha256:"+sha256Hex(data) || tree.Source != name {
		t.Fatalf("tree %+v", tree)
	}
	if _, err := fs.Stat(tree.Bundle, "manifest.json"); err != nil {
		t.Fatalf("Bundle lacks manifest.json: %v", err)
	}
	if _, err := fs.Stat(tree.FS, "core/error.json"); err != nil {
		t.Fatalf("FS lacks core/error.json: %v", err)
	}

	// Matching sidecar.
	os.WriteFile(name+".sha256", []byte(sidecar(data, "1.2.3")), 0o644)
	if _, err := OpenBundleFile(name); err != nil {
		t.Fatal(err)
	}

	// Mismatching sidecar: refused before unpacking, both sums named.
	os.WriteFile(name+".sha256", []byte(sumC+"  1.2.3.tgz\n"), 0o644)
	_, err = OpenBundleFile(name)
	var ce *ChecksumError
	if !errors.As(err, &ce) || ce.Name != name || ce.Want != sumC || ce.Got != sha256Hex(data) {
		t.Fatalf("got %v, want a *ChecksumError", err)
	}
	if want := name + ": sha256 mismatch: want " + sumC + ", got " + sha256Hex(data); err.Error() != want {
		t.Fatalf("message %q, want %q", err, want)
	}

	// Malformed sidecar.
	os.WriteFile(name+".sha256", []byte("oops"), 0o644)
	if _, err := OpenBundleFile(name); err == nil || !strings.Contains(err.Error(), name+".sha256") {
		t.Fatalf("malformed sidecar: %v", err)
	}

	// Unreadable sidecar (a folder in its place).
	os.Remove(name + ".sha256")
	os.Mkdir(name+".sha256", 0o755)
	if _, err := OpenBundleFile(name); err == nil || !strings.Contains(err.Error(), name+".sha256") {
		t.Fatalf("unreadable sidecar: %v", err)
	}

	if _, err := OpenBundleFile(filepath.Join(dir, "missing.tgz")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing bundle: %v", err)
	}
}

func TestOpenBundleLayouts(t *testing.T) {
	// Version from the root folder's name when nothing inside names one.
	tree, err := OpenBundle(makeTgz(t, tarEntry{Name: "adcp-1.2.3/schemas/core/x.json", Body: "{}"}), "b.tgz", "", DefaultBundleLimits)
	if err != nil || tree.Version != "1.2.3" {
		t.Fatalf("root-named version: %+v, %v", tree, err)
	}
	// No single top folder: the archive root is the bundle.
	tree, err = OpenBundle(makeTgz(t,
		tarEntry{Name: "manifest.json", Body: "{}"},
		tarEntry{Name: "schemas/core/x.json", Body: `{"$id":"/schemas/4.5.6/core/x.json"}`},
		tarEntry{Name: "schemas/core/error.json", Body: `{"$id":"/schemas/4.5.6/core/error.json"}`},
	), "b.tgz", "", DefaultBundleLimits)
	if err != nil || tree.Version != "4.5.6" {
		t.Fatalf("flat bundle: %+v, %v", tree, err)
	}
	if _, err := fs.Stat(tree.Bundle, "manifest.json"); err != nil {
		t.Fatalf("flat bundle: %v", err)
	}
	// Hostile entries name the bundle.
	_, err = OpenBundle(makeTgz(t, tarEntry{Name: "../x", Body: ""}), "evil.tgz", "", DefaultBundleLimits)
	if err == nil || !strings.HasPrefix(err.Error(), "spec evil.tgz: ") {
		t.Fatalf("hostile: %v", err)
	}
	// No schema tree.
	_, err = OpenBundle(makeTgz(t, tarEntry{Name: "adcp-1.2.3/README.md", Body: ""}), "b.tgz", "", DefaultBundleLimits)
	if err == nil || !strings.Contains(err.Error(), "no schema tree found") {
		t.Fatalf("no tree: %v", err)
	}
}

func TestOpenPublishedBundles(t *testing.T) {
	for _, v := range []string{"3.0.0", "3.0.26"} {
		name := testspec.Path(t, "protocol", v+".tgz")
		tree, err := OpenBundleFile(name)
		if err != nil {
			t.Fatal(err)
		}
		side, _ := os.ReadFile(name + ".sha256")
		if tree.Version != v || tree.Checksum != "sha256:"+strings.Fields(string(side))[0] {
			t.Fatalf("%s: version %q checksum %q", v, tree.Version, tree.Checksum)
		}
		for _, p := range []string{"manifest.json", "schemas/core/error.json"} {
			if _, err := fs.Stat(tree.Bundle, p); err != nil {
				t.Errorf("%s: bundle lacks %s", v, p)
			}
		}
	}
}

func FuzzUnpack(f *testing.F) {
	f.Add(miniBundle(f, "1.2.3"))
	f.Add(makeTgz(f, tarEntry{Name: "../x", Body: "x"}))
	f.Add(makeTgz(f, tarEntry{Name: "l", Type: tar.TypeSymlink, Linkname: "/"}))
	f.Add([]byte("not gzip"))
	lim := BundleLimits{MaxFiles: 100, MaxFileBytes: 1 << 16, MaxTotal: 1 << 18}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := unpack(strings.NewReader(string(data)), lim)
		if err != nil {
			return
		}
		var total int64
		for name, content := range m.files {
			if !fs.ValidPath(name) || name == "." || strings.Contains(name, `\`) {
				t.Fatalf("accepted entry %q", name)
			}
			total += int64(len(content))
		}
		if len(m.files) > lim.MaxFiles || total > lim.MaxTotal {
			t.Fatalf("limits broken: %d files, %d bytes", len(m.files), total)
		}
	})
}

func FuzzParseChecksumFile(f *testing.F) {
	f.Add([]byte(sumB + "  3.0.26.tgz\n"))
	f.Add([]byte(""))
	f.Add([]byte("zz"))
	f.Fuzz(func(t *testing.T, data []byte) {
		sum, err := ParseChecksumFile(data)
		if err == nil && !isSHA256Hex(sum) {
			t.Fatalf("returned %q", sum)
		}
	})
}

func TestUnpackAcceptsDotDirectoryEntry(t *testing.T) {
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	if err := tw.WriteHeader(&tar.Header{Name: "./", Typeflag: tar.TypeDir, Mode: 0o755}); err != nil {
		t.Fatal(err)
	}
	body := []byte("{}")
	if err := tw.WriteHeader(&tar.Header{Name: "./core/x.json", Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(body))}); err != nil {
		t.Fatal(err)
	}
	tw.Write(body)
	tw.Close()
	gz.Close()
	fsys, err := Unpack(&buf, DefaultBundleLimits)
	if err != nil {
		t.Fatalf("Unpack refused a ./ entry: %v", err)
	}
	if _, err := fs.ReadFile(fsys, "core/x.json"); err != nil {
		t.Fatal(err)
	}
}
