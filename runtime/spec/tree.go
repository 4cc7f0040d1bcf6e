package spec

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"sort"
	"strings"
)

// SourceKind says where a Tree came from.
type SourceKind string

const (
	KindDir      SourceKind = "dir"
	KindBundle   SourceKind = "bundle"
	KindEmbedded SourceKind = "embedded"
)

// Tree is an opened schema tree.
type Tree struct {
	// FS is rooted at the schemas folder (holding core/, enums/, ...).
	FS fs.FS
	// Bundle is the whole unpacked bundle (manifest.json, schemas/,
	// compliance/, skills/, ...) when the tree came from one; else nil.
	Bundle fs.FS
	// Version is the AdCP version the tree publishes ("3.1.19"), or "" when
	// nothing in the tree names one.
	Version string
	// Source is the source as the caller named it, for messages.
	Source string
	// Checksum is "sha256:<hex>": of the bundle file, or of the tree's
	// contents (see TreeDigest) for directories and embedded trees.
	Checksum string
	Kind     SourceKind
}

// Open opens a schema tree directory or a protocol bundle (.tgz / .tar.gz).
func Open(source string) (*Tree, error) {
	info, err := os.Stat(source)
	if err != nil {
		return nil, fmt.Errorf("spec %s: %w", source, err)
	}
	if info.IsDir() {
		return OpenFS(os.DirFS(source), source, KindDir)
	}
	if IsBundleName(source) {
		return OpenBundleFile(source)
	}
	return nil, fmt.Errorf("spec %s: not a directory or a .tgz bundle", source)
}

// IsBundleName reports whether name looks like a protocol bundle file.
func IsBundleName(name string) bool {
	return strings.HasSuffix(name, ".tgz") || strings.HasSuffix(name, ".tar.gz")
}

// OpenFS opens a tree held in fsys. A tree is found at the root of fsys, or
// under "schemas/" (a bundle or a repository checkout).
func OpenFS(fsys fs.FS, source string, kind SourceKind) (*Tree, error) {
	t, err := openFS(fsys, source, kind)
	if err != nil {
		return nil, err
	}
	if t.Checksum, err = TreeDigest(t.FS); err != nil {
		return nil, fmt.Errorf("spec %s: %w", source, err)
	}
	return t, nil
}

// openFS opens a tree without computing its checksum (bundles use the
// bundle file's own sha256).
func openFS(fsys fs.FS, source string, kind SourceKind) (*Tree, error) {
	root, err := findRoot(fsys)
	if err != nil {
		return nil, fmt.Errorf("spec %s: %w", source, err)
	}
	sub := fsys
	if root != "." {
		if sub, err = fs.Sub(fsys, root); err != nil {
			return nil, fmt.Errorf("spec %s: %w", source, err)
		}
	}
	t := &Tree{FS: sub, Source: source, Kind: kind}
	if root != "." {
		t.Bundle = fsys
	}
	t.Version = detectVersion(sub)
	return t, nil
}

// findRoot locates the schemas folder inside fsys.
func findRoot(fsys fs.FS) (string, error) {
	for _, cand := range []string{".", "schemas"} {
		if looksLikeTree(fsys, cand) {
			return cand, nil
		}
	}
	return "", errors.New("no schema tree found (want core/ or schemas/core/)")
}

func looksLikeTree(fsys fs.FS, dir string) bool {
	info, err := fs.Stat(fsys, path.Join(dir, "core"))
	return err == nil && info.IsDir()
}

var versionInID = regexp.MustCompile(`/schemas/(v?\d+\.\d+\.\d+[0-9A-Za-z.+-]*)/`)

// detectVersion reads the version from manifest.json or index.json, then
// from the first $id that carries one.
func detectVersion(fsys fs.FS) string {
	for _, name := range []string{"manifest.json", "index.json"} {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			continue
		}
		var doc struct {
			Version string `json:"adcp_version"`
		}
		if json.Unmarshal(data, &doc) == nil && doc.Version != "" {
			return doc.Version
		}
	}
	for _, name := range []string{"core/error.json", "core/context.json"} {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			continue
		}
		var doc struct {
			ID string `json:"$id"`
		}
		if json.Unmarshal(data, &doc) == nil {
			if m := versionInID.FindStringSubmatch(doc.ID); m != nil {
				return m[1]
			}
		}
	}
	return ""
}

// TreeDigest hashes every regular file of fsys: sha256 over the sorted list of
// "path NUL sha256(content) NL". It names content, not location, so the same
// tree gives the same digest wherever it sits.
func TreeDigest(fsys fs.FS) (string, error) {
	var names []string
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			names = append(names, p)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Strings(names)
	h := sha256.New()
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return "", err
		}
		sum := sha256.Sum256(data)
		fmt.Fprintf(h, "%s\x00%x\n", name, sum)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}
