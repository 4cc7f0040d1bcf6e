// Package load reads a schema tree into schema documents, indexes them by
// $id and tree path, and resolves every $ref offline.
package load

import (
	"fmt"
	"io/fs"
	"net/url"
	"regexp"
	"sort"
	"strings"

	"github.com/adcpgen/adcpgen/generator/internal/par"
	"github.com/adcpgen/adcpgen/generator/internal/schema"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// Set is a loaded schema tree.
type Set struct {
	Tree *spec.Tree
	// Docs are the schema documents, sorted by path.
	Docs    []*schema.Document
	Skipped []Skipped
	// Data are JSON files that are not schemas (manifest.json, index.json),
	// kept for registries.
	Data   map[string][]byte
	byPath map[string]*schema.Document
	byID   map[string]*schema.Document
}

// Skipped is a file the loader read but did not treat as a schema.
type Skipped struct {
	Path   string
	Reason string
}

// Load reads every .json file of the tree except its derived folders
// (spec.DerivedDir: bundled copies, mcp/ projections, async-response-refs
// copies), parses the schemas and resolves their references.
func Load(tree *spec.Tree) (*Set, error) {
	paths, derived, err := jsonFiles(tree.FS)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", tree.Source, err)
	}
	docs, err := parseAll(tree.FS, paths)
	if err != nil {
		return nil, err
	}
	set := &Set{Tree: tree, Data: map[string][]byte{}, byPath: map[string]*schema.Document{}, byID: map[string]*schema.Document{}}
	for _, d := range derived {
		set.Skipped = append(set.Skipped, Skipped{Path: d + "/", Reason: "copies or projections of the canonical schemas, not generated"})
	}
	for _, d := range docs {
		if reason := notSchema(d); reason != "" {
			set.Skipped = append(set.Skipped, Skipped{Path: d.Path, Reason: reason})
			set.Data[d.Path] = d.Data
			continue
		}
		if d.ID != "" {
			key := idKey(d.ID)
			if prev, dup := set.byID[key]; dup {
				return nil, schema.Errorf(schema.Loc{File: d.Path, Pointer: "/$id"}, "duplicate $id %q (also in %s)", d.ID, prev.Path)
			}
			set.byID[key] = d
		}
		set.byPath[d.Path] = d
		set.Docs = append(set.Docs, d)
	}
	for _, d := range set.Docs {
		if err := set.resolveDoc(d); err != nil {
			return nil, err
		}
	}
	return set, nil
}

// Doc returns the document at a tree path.
func (s *Set) Doc(p string) *schema.Document { return s.byPath[p] }

// jsonFiles lists the tree's .json files, sorted, and the derived folders
// it skipped.
func jsonFiles(fsys fs.FS) (out, derived []string, err error) {
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if dir, ok := spec.DerivedDir(p); ok && dir == p {
				derived = append(derived, p)
				return fs.SkipDir
			}
		}
		if d.Type().IsRegular() && strings.HasSuffix(p, ".json") {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out, derived, err
}

// parseAll reads and parses files on every core; the result keeps paths'
// order and the first error in that order wins, so output is deterministic.
func parseAll(fsys fs.FS, paths []string) ([]*schema.Document, error) {
	docs := make([]*schema.Document, len(paths))
	err := par.Do(len(paths), 0, func(i int) error {
		data, err := fs.ReadFile(fsys, paths[i])
		if err != nil {
			return &schema.Error{Loc: schema.Loc{File: paths[i]}, Msg: "unreadable", Err: err}
		}
		docs[i], err = schema.ParseDocument(paths[i], data)
		return err
	})
	return docs, err
}

var schemaKeywords = []string{"type", "properties", "$ref", "allOf", "anyOf", "oneOf", "enum", "const",
	"items", "definitions", "$defs", "patternProperties", "additionalProperties", "not", "if"}

// notSchema says why a JSON file is data rather than a schema, or "".
func notSchema(d *schema.Document) string {
	r := d.Root
	if r.Bool != nil {
		return ""
	}
	if r.SchemaURI != "" && !strings.Contains(r.SchemaURI, "json-schema.org") {
		return "data document (its $schema is " + r.SchemaURI + ")"
	}
	for _, kw := range r.Keywords {
		for _, want := range schemaKeywords {
			if kw.Name == want {
				return ""
			}
		}
	}
	return "no schema keywords (a registry document, not a schema)"
}

// versionedPath matches the published id layout: /schemas/<version>/<path>.
var versionedPath = regexp.MustCompile(`^/schemas/[^/]+/(.+)$`)

// idKey normalises an $id: both the root-relative and the absolute
// (https://adcontextprotocol.org/...) spellings map to the tree path.
func idKey(id string) string {
	u, err := url.Parse(id)
	if err != nil {
		return id
	}
	u.Fragment = ""
	if m := versionedPath.FindStringSubmatch(u.Path); m != nil {
		return m[1]
	}
	return u.String()
}

// baseURL is the URL relative references in d resolve against.
func baseURL(d *schema.Document) *url.URL {
	if d.ID != "" {
		if u, err := url.Parse(d.ID); err == nil {
			return u
		}
	}
	return &url.URL{Path: "/" + d.Path}
}

func (s *Set) resolveDoc(d *schema.Document) error {
	base := baseURL(d)
	return schema.Walk(d.Root, func(n *schema.Schema) error {
		if n.Ref == "" {
			return nil
		}
		t, err := s.resolve(d, base, n.Ref)
		if err != nil {
			return schema.Errorf(n.Loc.Child("$ref"), "%v", err)
		}
		n.Target = t
		return nil
	})
}

// resolve finds the schema a $ref names.
func (s *Set) resolve(from *schema.Document, base *url.URL, ref string) (*schema.Schema, error) {
	u, err := url.Parse(ref)
	if err != nil {
		return nil, fmt.Errorf("$ref %q is not a URL: %w", ref, err)
	}
	abs := base.ResolveReference(u)
	frag := abs.Fragment
	target := from
	if !(u.Scheme == "" && u.Host == "" && u.Path == "") {
		abs.Fragment = ""
		target = s.lookup(abs)
		if target == nil {
			return nil, fmt.Errorf("$ref %q does not resolve: no schema %s in the tree", ref, s.describe(abs))
		}
	}
	if frag == "" {
		return target.Root, nil
	}
	if !strings.HasPrefix(frag, "/") {
		return nil, fmt.Errorf("$ref %q: plain-name fragments are not supported, use a JSON pointer", ref)
	}
	ptr := frag // url.Parse has decoded percent escapes already
	n := target.At(ptr)
	if n == nil {
		return nil, fmt.Errorf("$ref %q does not resolve: %s has no schema at #%s", ref, target.Path, ptr)
	}
	return n, nil
}

func (s *Set) lookup(abs *url.URL) *schema.Document {
	key := idKey(abs.String())
	if d := s.byID[key]; d != nil {
		return d
	}
	if d := s.byPath[key]; d != nil {
		return d
	}
	return s.byPath[strings.TrimPrefix(abs.Path, "/")]
}

func (s *Set) describe(abs *url.URL) string {
	if k := idKey(abs.String()); k != abs.String() {
		return k
	}
	return abs.String()
}
