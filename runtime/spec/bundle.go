package spec

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
)

// BundleLimits bound what an unpacked bundle may hold. The published bundles are
// about 2 MB compressed, 20 MB unpacked and 1,700 entries.
type BundleLimits struct {
	MaxFiles     int   // entries of any kind
	MaxFileBytes int64 // one file, unpacked
	MaxTotal     int64 // all files, unpacked
}

// DefaultBundleLimits leave ample room over the published bundles.
var DefaultBundleLimits = BundleLimits{MaxFiles: 20000, MaxFileBytes: 64 << 20, MaxTotal: 512 << 20}

// ChecksumError reports a bundle whose sha256 differs from the expected one.
type ChecksumError struct {
	Name      string
	Want, Got string
}

func (e *ChecksumError) Error() string {
	return fmt.Sprintf("%s: sha256 mismatch: want %s, got %s", e.Name, e.Want, e.Got)
}

// OpenBundleFile reads a bundle and, when "<file>.sha256" sits beside it,
// verifies the bundle against it before unpacking anything.
func OpenBundleFile(name string) (*Tree, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("spec %s: %w", name, err)
	}
	want := ""
	if side, err := os.ReadFile(name + ".sha256"); err == nil {
		if want, err = ParseChecksumFile(side); err != nil {
			return nil, fmt.Errorf("spec %s.sha256: %w", name, err)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("spec %s.sha256: %w", name, err)
	}
	return OpenBundle(data, name, want, DefaultBundleLimits)
}

// OpenBundle unpacks a gzip'd tar held in data. When wantSHA256 (hex) is not
// empty the bytes must hash to it.
func OpenBundle(data []byte, name, wantSHA256 string, lim BundleLimits) (*Tree, error) {
	sum := sha256.Sum256(data)
	got := hex.EncodeToString(sum[:])
	if wantSHA256 != "" && !strings.EqualFold(wantSHA256, got) {
		return nil, &ChecksumError{Name: name, Want: strings.ToLower(wantSHA256), Got: got}
	}
	fsys, err := unpack(bytes.NewReader(data), lim)
	if err != nil {
		return nil, fmt.Errorf("spec %s: %w", name, err)
	}
	// A bundle unpacks to one top folder, adcp-<version>/.
	root := "."
	if kids, _ := fsys.ReadDir("."); len(kids) == 1 && kids[0].IsDir() {
		root = kids[0].Name()
	}
	var top fs.FS = fsys
	if root != "." {
		if top, err = fsys.Sub(root); err != nil {
			return nil, fmt.Errorf("spec %s: %w", name, err)
		}
	}
	t, err := openFS(top, name, KindBundle)
	if err != nil {
		return nil, err
	}
	t.Checksum = "sha256:" + got
	if t.Version == "" && strings.HasPrefix(root, "adcp-") {
		t.Version = strings.TrimPrefix(root, "adcp-")
	}
	return t, nil
}

// ParseChecksumFile reads a `shasum` line ("<hex>  <name>") and returns the hex.
func ParseChecksumFile(data []byte) (string, error) {
	fields := strings.Fields(string(data))
	if len(fields) == 0 {
		return "", errors.New("empty checksum file")
	}
	h := fields[0]
	if len(h) != 64 {
		return "", fmt.Errorf("checksum %q is not a sha256 hex digest", h)
	}
	if _, err := hex.DecodeString(h); err != nil {
		return "", fmt.Errorf("checksum %q is not hex", h)
	}
	return strings.ToLower(h), nil
}

// Unpack reads a gzip'd tar into memory. It refuses absolute paths, ".."
// elements, links and special files, and enforces lim. The file system it
// returns is read-only and also implements fs.ReadFileFS, fs.ReadDirFS and
// fs.SubFS.
func Unpack(r io.Reader, lim BundleLimits) (fs.FS, error) {
	m, err := unpack(r, lim)
	if err != nil {
		return nil, err
	}
	return m, nil
}

// unpack is Unpack, returning the file system's own type.
func unpack(r io.Reader, lim BundleLimits) (*memFS, error) {
	gz, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("not a gzip stream: %w", err)
	}
	defer gz.Close()
	tr := tar.NewReader(gz)
	out := newMemFS()
	var total int64
	for n := 0; ; n++ {
		hdr, err := tr.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading tar: %w", err)
		}
		if n >= lim.MaxFiles {
			return nil, fmt.Errorf("more than %d entries", lim.MaxFiles)
		}
		if hdr.Typeflag == tar.TypeDir && path.Clean(strings.TrimPrefix(hdr.Name, "./")) == "." {
			continue // "./", as `tar -C dir .` writes it
		}
		name, err := entryName(hdr.Name)
		if err != nil {
			return nil, err
		}
		switch hdr.Typeflag {
		case tar.TypeDir:
			continue
		case tar.TypeReg:
		default:
			return nil, fmt.Errorf("entry %q: %s entries are refused (only files and folders)", hdr.Name, typeName(hdr.Typeflag))
		}
		if hdr.Size > lim.MaxFileBytes {
			return nil, fmt.Errorf("entry %q: %d bytes exceeds the %d byte limit", hdr.Name, hdr.Size, lim.MaxFileBytes)
		}
		if total += hdr.Size; total > lim.MaxTotal {
			return nil, fmt.Errorf("unpacked size exceeds %d bytes", lim.MaxTotal)
		}
		data, err := io.ReadAll(io.LimitReader(tr, hdr.Size+1))
		if err != nil {
			return nil, fmt.Errorf("entry %q: %w", hdr.Name, err)
		}
		if int64(len(data)) != hdr.Size {
			return nil, fmt.Errorf("entry %q: size does not match its header", hdr.Name)
		}
		if _, dup := out.files[name]; dup {
			return nil, fmt.Errorf("entry %q appears twice", hdr.Name)
		}
		out.add(name, data)
	}
}

// entryName validates a tar entry name and returns it cleaned.
func entryName(raw string) (string, error) {
	if raw == "" || strings.HasPrefix(raw, "/") || strings.Contains(raw, "\\") || strings.ContainsRune(raw, 0) {
		return "", fmt.Errorf("entry %q: absolute or malformed path refused", raw)
	}
	for _, elem := range strings.Split(raw, "/") {
		if elem == ".." {
			return "", fmt.Errorf("entry %q: \"..\" refused", raw)
		}
	}
	name := path.Clean(strings.TrimPrefix(raw, "./"))
	if !fs.ValidPath(name) || name == "." {
		return "", fmt.Errorf("entry %q: malformed path refused", raw)
	}
	return name, nil
}

func typeName(t byte) string {
	switch t {
	case tar.TypeSymlink:
		return "symlink"
	case tar.TypeLink:
		return "hard link"
	case tar.TypeChar, tar.TypeBlock:
		return "device"
	case tar.TypeFifo:
		return "fifo"
	}
	return fmt.Sprintf("type %q", t)
}
