package validate

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"regexp"
	"strings"

	"github.com/adcpgen/adcpgen/runtime/spec"
)

// siteOrigin is where AdCP publishes its schemas. Root-relative $ids
// ("/schemas/3.1.19/core/error.json") are read against it, so both $id
// styles name the same absolute URL, which the loader maps to the tree.
const siteOrigin = "https://adcontextprotocol.org"

// isSkipped: a tree's derived folders (bundled copies, mcp/ projections,
// async-response-refs copies) are not loaded as schemas of their own.
func isSkipped(p string) bool {
	_, ok := spec.DerivedDir(p)
	return ok
}

// OutsideTreeError reports a schema URL that does not resolve into the tree.
// The validator never fetches anything from the network.
type OutsideTreeError struct {
	URL    string
	Reason string
}

func (e *OutsideTreeError) Error() string {
	return fmt.Sprintf("schema %s is outside the spec tree: %s", e.URL, e.Reason)
}

// ErrUnknownSchema is wrapped by errors for a schema the tree does not have.
var ErrUnknownSchema = errors.New("unknown schema")

var idVersion = regexp.MustCompile(`^(?:https://adcontextprotocol\.org)?/schemas/([^/]+)/`)

// idStyle reads the version and $id style from the tree's schemas.
func idStyle(fsys fs.FS) (version string, rootRelative bool, err error) {
	probe := func(name string) bool {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return false
		}
		var doc struct {
			ID string `json:"$id"`
		}
		if json.Unmarshal(data, &doc) != nil {
			return false
		}
		m := idVersion.FindStringSubmatch(doc.ID)
		if m == nil {
			return false
		}
		version, rootRelative = m[1], strings.HasPrefix(doc.ID, "/")
		return true
	}
	if probe("core/error.json") {
		return version, rootRelative, nil
	}
	found := false
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || found {
			return err
		}
		if d.IsDir() {
			if isSkipped(p) {
				return fs.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(p, ".json") && probe(p) {
			found = true
			return fs.SkipAll
		}
		return nil
	})
	if err == nil && !found {
		err = errors.New("no schema with a /schemas/<version>/ $id found")
	}
	return version, rootRelative, err
}

// urlForPath is the absolute URL of a tree path.
func (v *Validator) urlForPath(p string) string {
	return siteOrigin + "/schemas/" + v.version + "/" + p
}

// pathForURL maps an absolute schema URL (no fragment) to a tree path.
func (v *Validator) pathForURL(u string) (string, error) {
	prefix := siteOrigin + "/schemas/" + v.version + "/"
	if !strings.HasPrefix(u, prefix) {
		return "", &OutsideTreeError{URL: u, Reason: "not under " + prefix}
	}
	p := strings.TrimPrefix(u, prefix)
	if !fs.ValidPath(p) || p == "." || !strings.HasSuffix(p, ".json") {
		return "", &OutsideTreeError{URL: u, Reason: "not a schema file path"}
	}
	if isSkipped(p) {
		return "", &OutsideTreeError{URL: u, Reason: "folder " + path.Dir(p) + " holds copies and is not loaded"}
	}
	return p, nil
}

// displayID writes an absolute URL in the tree's own $id style.
func (v *Validator) displayID(u string) string {
	if v.rootRelative {
		return strings.TrimPrefix(u, siteOrigin)
	}
	return u
}

// resolveRef turns what a caller names (an $id in either style, with or
// without fragment, or a tree path) into an absolute URL without fragment
// and the fragment ("" when none).
func (v *Validator) resolveRef(ref string) (u, fragment string, err error) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return "", "", fmt.Errorf("%w: empty schema name", ErrUnknownSchema)
	}
	if i := strings.IndexByte(ref, '#'); i >= 0 {
		ref, fragment = ref[:i], ref[i+1:]
		if fragment != "" && !strings.HasPrefix(fragment, "/") {
			return "", "", fmt.Errorf("%w: %s#%s: only JSON pointer fragments are supported", ErrUnknownSchema, ref, fragment)
		}
	}
	switch {
	case strings.HasPrefix(ref, "https://") || strings.HasPrefix(ref, "http://"):
		u = ref
	case strings.HasPrefix(ref, "/schemas/"):
		u = siteOrigin + ref
	default:
		p := strings.TrimPrefix(ref, "./")
		if strings.HasPrefix(p, "schemas/") && !v.hasFile(p) {
			p = strings.TrimPrefix(p, "schemas/") // a bundle path
		}
		if !fs.ValidPath(p) {
			return "", "", fmt.Errorf("%w: %q is not a tree path", ErrUnknownSchema, ref)
		}
		if strings.HasPrefix(p, "core/async-response-refs/") {
			// A copy: validate with the original its $id names.
			id, err := v.fileID(p)
			if err != nil {
				return "", "", err
			}
			return v.resolveRef(id + fragmentSuffix(fragment))
		}
		u = v.urlForPath(p)
	}
	if _, err := v.pathForURL(u); err != nil {
		return "", "", fmt.Errorf("%w: %w", ErrUnknownSchema, err)
	}
	return u, fragment, nil
}

func fragmentSuffix(f string) string {
	if f == "" {
		return ""
	}
	return "#" + f
}

func (v *Validator) hasFile(p string) bool {
	if !fs.ValidPath(p) {
		return false
	}
	info, err := fs.Stat(v.tree.FS, p)
	return err == nil && !info.IsDir()
}

func (v *Validator) fileID(p string) (string, error) {
	data, err := fs.ReadFile(v.tree.FS, p)
	if err != nil {
		return "", fmt.Errorf("%w: %s: %w", ErrUnknownSchema, p, err)
	}
	var doc struct {
		ID string `json:"$id"`
	}
	if err := json.Unmarshal(data, &doc); err != nil || doc.ID == "" {
		return "", fmt.Errorf("%w: %s has no $id", ErrUnknownSchema, p)
	}
	return doc.ID, nil
}

// load is the compiler's only way to read a schema: URLs map to the tree,
// and the document's patterns are rewritten for ECMA-262 (see rewrite.go).
func (v *Validator) load(u string) (io.ReadCloser, error) {
	if _, err := v.pathForURL(u); err == nil {
		v.loaded.Add(1)
	}
	return v.readSchema(u)
}

// readSchema reads and rewrites a schema document for the compiler.
func (v *Validator) readSchema(u string) (io.ReadCloser, error) {
	doc, p, err := v.schemaDoc(u)
	if err != nil {
		return nil, err
	}
	out, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("schema %s: %w", p, err)
	}
	return io.NopCloser(bytes.NewReader(out)), nil
}

// schemaDoc reads a schema document (numbers as json.Number) with its
// patterns rewritten (see rewrite.go); the fast path's compiler uses it
// as is.
func (v *Validator) schemaDoc(u string) (any, string, error) {
	p, err := v.pathForURL(u)
	if err != nil {
		return nil, "", err
	}
	data, err := fs.ReadFile(v.tree.FS, p)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, p, &OutsideTreeError{URL: u, Reason: "no file " + p + " in the tree"}
		}
		return nil, p, fmt.Errorf("schema %s (%s): %w", u, p, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, p, fmt.Errorf("schema %s: invalid JSON: %w", p, err)
	}
	if err := rewriteSchema(doc, ""); err != nil {
		return nil, p, fmt.Errorf("schema %s: %w", p, err)
	}
	return doc, p, nil
}
