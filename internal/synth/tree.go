package synth

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"regexp"
	"strings"
	"sync"

	"github.com/adcpgen/adcpgen/runtime/spec"
)

// Tree holds the parsed schema documents of one spec tree, keyed by tree
// path ("core/error.json"). It is safe for concurrent use.
type Tree struct {
	docs      map[string]any
	patterns  sync.Map // ECMA pattern -> *regexp.Regexp (nil: not expressible in RE2)
	generated sync.Map // pattern, salt, rep -> string built from it ("\x00": none)
	locOnce   sync.Once
	locs      map[string]string // node id -> "doc#pointer" (NullSites)
}

// node is a schema value and the document it sits in (for local $refs).
type node struct {
	doc string
	v   any // map[string]any or bool
	// cond marks a node that applies because of a choice (a union arm, a
	// then/else branch, a schema dependency), not to every instance.
	cond bool
}

// Load parses every JSON file of fsys (a schema tree rooted at its schemas
// folder), leaving out the folders of copies and projections
// (spec.DerivedDir: bundled/, mcp/, core/async-response-refs/), as the
// generator and the validator do.
func Load(fsys fs.FS) (*Tree, error) {
	t := &Tree{docs: map[string]any{}}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if _, derived := spec.DerivedDir(p); derived {
				return fs.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".json") {
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return fmt.Errorf("synth: %s: %w", p, err)
		}
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return fmt.Errorf("synth: %s: %w", p, err)
		}
		t.docs[p] = v
		return nil
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// Has reports whether ref names a schema of the tree.
func (t *Tree) Has(ref string) bool {
	_, err := t.root(ref)
	return err == nil
}

// root resolves a reference given by a caller: a tree path, a path with a
// "#/pointer" fragment, or a $id in either published style.
func (t *Tree) root(ref string) (node, error) {
	return t.resolve("", ref)
}

// resolve finds ref relative to the document from.
func (t *Tree) resolve(from, ref string) (node, error) {
	p, frag, _ := strings.Cut(ref, "#")
	doc := from
	if p != "" {
		doc = treePath(from, p)
	}
	v, ok := t.docs[doc]
	if !ok {
		return node{}, fmt.Errorf("synth: $ref %q: no document %q in the tree", ref, doc)
	}
	if frag != "" {
		if f, err := url.PathUnescape(frag); err == nil {
			frag = f
		}
		for _, tok := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			switch c := v.(type) {
			case map[string]any:
				v, ok = c[tok]
			case []any:
				i, err := atoi(tok)
				ok = err == nil && i >= 0 && i < len(c)
				if ok {
					v = c[i]
				}
			default:
				ok = false
			}
			if !ok {
				return node{}, fmt.Errorf("synth: $ref %q: no %q in %s", ref, frag, doc)
			}
		}
	}
	return node{doc: doc, v: v}, nil
}

func atoi(s string) (int, error) {
	var n int
	if s == "" {
		return 0, fmt.Errorf("empty index")
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("bad index %q", s)
		}
		n = n*10 + int(c-'0')
	}
	return n, nil
}

// treePath maps a $ref path to a tree path: "https://host/schemas/<v>/a/b.json"
// and "/schemas/<v>/a/b.json" become "a/b.json"; relative paths resolve
// against the referring document's folder.
func treePath(from, p string) string {
	if _, rest, ok := strings.Cut(p, "://"); ok {
		p = rest
		if i := strings.IndexByte(p, '/'); i >= 0 {
			p = p[i:]
		}
	}
	if rest, ok := strings.CutPrefix(p, "/schemas/"); ok {
		if _, tail, found := strings.Cut(rest, "/"); found {
			return tail
		}
	}
	if strings.HasPrefix(p, "/") {
		return strings.TrimPrefix(p, "/")
	}
	return path.Join(path.Dir(from), p)
}

// sub is a keyword's subschema of n, in n's document.
func (n node) sub(key string) (node, bool) {
	m, ok := n.v.(map[string]any)
	if !ok {
		return node{}, false
	}
	v, ok := m[key]
	if !ok {
		return node{}, false
	}
	return node{doc: n.doc, v: v}, true
}

// obj is n's keywords (nil for boolean schemas).
func (n node) obj() map[string]any {
	m, _ := n.v.(map[string]any)
	return m
}

// list is a keyword holding an array of subschemas.
func (n node) list(key string) []node {
	raw, _ := n.obj()[key].([]any)
	out := make([]node, len(raw))
	for i, v := range raw {
		out[i] = node{doc: n.doc, v: v}
	}
	return out
}

// props is a keyword holding a map of subschemas.
func (n node) props(key string) map[string]node {
	raw, _ := n.obj()[key].(map[string]any)
	if raw == nil {
		return nil
	}
	out := make(map[string]node, len(raw))
	for k, v := range raw {
		out[k] = node{doc: n.doc, v: v}
	}
	return out
}

// id identifies a schema value for "seen" sets (maps compare by address).
func (n node) id() string {
	if m, ok := n.v.(map[string]any); ok {
		return fmt.Sprintf("%p", m)
	}
	return fmt.Sprint(n.v)
}

// regexp compiles an ECMA-262 pattern when RE2 can express it: \uXXXX
// escapes are rewritten; lookarounds and back-references cannot be, and
// give nil (the caller treats the pattern as unknown).
func (t *Tree) regexp(pattern string) *regexp.Regexp {
	if re, ok := t.patterns.Load(pattern); ok {
		return re.(*regexp.Regexp)
	}
	re, err := regexp.Compile(ecmaToRE2(pattern))
	if err != nil {
		re = nil
	}
	t.patterns.Store(pattern, re)
	return re
}

var uEscape = regexp.MustCompile(`\\u([0-9A-Fa-f]{4})`)

func ecmaToRE2(p string) string {
	return uEscape.ReplaceAllString(p, `\x{$1}`)
}

// Members lists the property names a schema declares for its top-level
// object, and those it requires, through $ref, allOf and every arm of
// oneOf/anyOf (sorted, without duplicates).
func (t *Tree) Members(ref string) (declared, required []string, err error) {
	n, err := t.root(ref)
	if err != nil {
		return nil, nil, err
	}
	props, req := map[string]bool{}, map[string]bool{}
	seen := map[string]bool{}
	var walk func(n node, depth int)
	walk = func(n node, depth int) {
		m := n.obj()
		if m == nil || depth > 16 || seen[n.id()] {
			return
		}
		seen[n.id()] = true
		if r, ok := m["$ref"].(string); ok {
			if target, err := t.resolve(n.doc, r); err == nil {
				walk(target, depth+1)
			}
			return
		}
		for k := range n.props("properties") {
			props[k] = true
		}
		rs, _ := m["required"].([]any)
		for _, r := range rs {
			if s, ok := r.(string); ok {
				req[s] = true
			}
		}
		for _, kw := range [...]string{"allOf", "oneOf", "anyOf"} {
			for _, s := range n.list(kw) {
				walk(s, depth+1)
			}
		}
	}
	walk(n, 0)
	return sortedKeys(props), sortedKeys(req), nil
}
