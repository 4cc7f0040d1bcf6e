package generator

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/generator/internal/naming"
	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// nameStats measures how a version's type names read.
type nameStats struct {
	Types    int
	VariantN int // names ending in VariantN
	Long     int // names of longNameLen characters or more
	Longest  string
	Repeats  int // names saying a word, or a run of words, twice in a row
	Twice    int // names saying a word of three letters or more twice anywhere (not held to a budget)
	Initials int // names spelling an initialism in mixed case (Id5, Hdr10)
	// OneWord are one-word names of definitions and inline types, which
	// mean little out of their context.
	OneWord  []string
	DupKeys  int // schema keys (ir.Type.Key) with more than one type
	examples map[string][]string
	long     []string
}

const longNameLen = 50

var variantN = regexp.MustCompile(`Variant[0-9]+$`)

// checkedInitialisms are words a type name must spell in capitals: Go's
// list and the ad-tech ones the spec writes in capitals.
var checkedInitialisms = []string{"ID", "URL", "URI", "API", "HTTP", "JSON", "UUID", "CPM", "CPC", "CPA", "CPV",
	"VAST", "DAAST", "VPAID", "OMID", "IAB", "GDPR", "TCF", "CTV", "DOOH", "ID5", "UID2", "HDR10", "HDR", "SSP",
	"DSP", "SDK", "MCP", "A2A", "KPI", "ROAS", "GTIN", "MRAID", "HTML", "CSS", "SSAI", "CSAI", "HLS", "SKU", "SLA",
	"CCPA", "GPP", "JWT", "JWKS", "TTL", "ISO", "IP", "DRM", "RSS", "MIME", "SHA256", "HMAC", "AI", "TV", "HTML5",
	"EUID", "PII", "OTT", "UGC", "WCAG"}

func measureNames(pkg *ir.Package) nameStats {
	s := nameStats{Types: len(pkg.Types), examples: map[string][]string{}}
	want := map[string]string{}
	for _, w := range checkedInitialisms {
		want[strings.ToLower(w)] = w
	}
	note := func(kind, name string) {
		if len(s.examples[kind]) < 8 {
			s.examples[kind] = append(s.examples[kind], name)
		}
	}
	keys := map[string]int{}
	for _, t := range pkg.Types {
		n := t.Name
		if keys[t.Key()]++; keys[t.Key()] == 2 {
			s.DupKeys++
			note("duplicate key", t.Key())
		}
		if variantN.MatchString(n) {
			s.VariantN++
			note("VariantN", n)
		}
		if len(n) >= longNameLen {
			s.Long++
			s.long = append(s.long, n)
		}
		if len(n) > len(s.Longest) || len(n) == len(s.Longest) && n < s.Longest {
			s.Longest = n
		}
		words := naming.Words(n)
		if t.Rank > 0 && len(words) == 1 {
			s.OneWord = append(s.OneWord, n)
		}
		seen := map[string]bool{}
		twice, mixed := false, false
		for _, w := range words {
			lw := strings.ToLower(w)
			twice = twice || len(lw) >= 3 && seen[lw]
			seen[lw] = true
			if up, ok := want[lw]; ok && w != up && !(up == "ID" && w == "IDs") {
				mixed = true
			}
		}
		if twice {
			s.Twice++
		}
		if naming.Repeats(n) {
			s.Repeats++
			note("repeat", n)
		}
		if mixed {
			s.Initials++
			note("initialism", n)
		}
	}
	sort.Strings(s.long)
	sort.Strings(s.OneWord)
	return s
}

// rename is a type whose schema is unchanged but whose name moved.
type rename struct{ Key, From, To string }

// unchangedRenames lists the types of a schema whose JSON is the same in
// both trees (and, for a merged copy, the merge's too), with $ref and $id
// read without their version prefix, but whose Go name differs.
func unchangedRenames(t *testing.T, oldTree *spec.Tree, oldPkg *ir.Package, newTree *spec.Tree, newPkg *ir.Package) (renames []rename, unchanged int) {
	oldNodes, newNodes := nodeCache{fsys: oldTree.FS}, nodeCache{fsys: newTree.FS}
	byKey := func(p *ir.Package) map[string]*ir.Type {
		m := map[string]*ir.Type{}
		for _, t := range p.Types {
			m[t.Key()] = t
		}
		return m
	}
	oldAt, newAt := byKey(oldPkg), byKey(newPkg)
	var keys []string
	for k := range oldAt {
		if _, ok := newAt[k]; ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	same := func(loc string) bool {
		a, errA := oldNodes.canonical(loc)
		b, errB := newNodes.canonical(loc)
		if errA != nil || errB != nil {
			t.Fatalf("%s: %v %v", loc, errA, errB)
		}
		return a == b
	}
	for _, k := range keys {
		o := oldAt[k]
		if !same(o.Loc.String()) || o.Merged.File != "" && !same(o.Merged.String()) {
			continue
		}
		unchanged++
		if n := newAt[k]; n.Name != o.Name {
			renames = append(renames, rename{k, o.Name, n.Name})
		}
	}
	return renames, unchanged
}

// nodeCache reads schema nodes by location as canonical JSON (keys sorted,
// nothing resolved, $ref and $id without their version prefix).
type nodeCache struct {
	fsys  fs.FS
	files map[string]any
}

func (c *nodeCache) canonical(loc string) (string, error) {
	file, ptr, _ := strings.Cut(loc, "#")
	if c.files == nil {
		c.files = map[string]any{}
	}
	doc, ok := c.files[file]
	if !ok {
		data, err := fs.ReadFile(c.fsys, path.Clean(file))
		if err != nil {
			return "", err
		}
		if err := json.Unmarshal(data, &doc); err != nil {
			return "", fmt.Errorf("%s: %w", file, err)
		}
		c.files[file] = doc
	}
	node := doc
	for _, tok := range wire.SplitPointer(ptr) {
		switch v := node.(type) {
		case map[string]any:
			node = v[tok]
		case []any:
			var i int
			if _, err := fmt.Sscan(tok, &i); err != nil || i < 0 || i >= len(v) {
				return "", fmt.Errorf("%s: no %q", loc, tok)
			}
			node = v[i]
		default:
			return "", fmt.Errorf("%s: no %q", loc, tok)
		}
	}
	out, err := json.Marshal(normalizeRefs(node))
	return string(out), err
}

// versionPrefix matches the version part of a $ref or $id in either
// published style ("/schemas/3.1.19/", "https://adcontextprotocol.org/schemas/3.2.0-beta.3/"),
// which changes with every release although the schema does not.
var versionPrefix = regexp.MustCompile(`^(https://adcontextprotocol\.org)?/schemas/[^/]+/`)

// normalizeRefs returns node with the version prefix of every $ref and $id
// dropped.
func normalizeRefs(node any) any {
	switch v := node.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			if s, ok := x.(string); ok && (k == "$ref" || k == "$id") {
				out[k] = versionPrefix.ReplaceAllString(s, "/")
				continue
			}
			out[k] = normalizeRefs(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = normalizeRefs(x)
		}
		return out
	}
	return node
}

// Budgets the naming policy is held to, per version: no VariantN, no word
// said twice in a row, no initialism in mixed case, no two types of one
// schema; at most 20 names of 50 characters or more; one-word names of
// definitions and inline types only where qualifying says a word twice
// (brand.json#/definitions/brand is Brand, not BrandBrand).
var nameBudgets = map[string]struct {
	Long    int
	OneWord []string
}{
	"2.5.3":        {Long: 0},
	"3.0.0":        {Long: 3, OneWord: []string{"Brand"}},
	"3.0.26":       {Long: 2, OneWord: []string{"Brand"}},
	"3.1.19":       {Long: 5, OneWord: []string{"Brand"}},
	"3.2.0-beta.3": {Long: 13, OneWord: []string{"Brand"}},
	"3.2.0-beta.5": {Long: 13, OneWord: []string{"Brand"}},
}

// policyRenames are the renames of unchanged schemas the policy alone
// gives between consecutive versions (a fresh directory), each with why;
// regenerating over the previous generation gives none.
var policyRenames = map[string]string{
	// The root's title changed ("Authorized Sales Agents" became "AdCP
	// Agents Authorization"); its inline types follow its name.
	"3.0.0 adagents.json#/oneOf/1/properties/tags/additionalProperties": "AuthorizedSalesAgentsAuthorizedAgentsTagsValue -> AdCPAgentsAuthorizationAuthorizedAgentsTagsValue",
	// The repeatable-group arm gained a title: its members follow its name.
	"3.0.26 core/format.json#/properties/assets/items/oneOf/14/properties/selection_mode": "FormatAssetRepeatableGroupSelectionMode -> RepeatableGroupAssetSelectionMode",
	// A new root, core/performance-feedback-metric.json, is titled
	// "Performance Feedback Metric" and outranks the inline type.
	"3.2.0-beta.3 core/performance-feedback.json#/properties/metric":         "PerformanceFeedbackMetric -> CorePerformanceFeedbackMetric",
	"3.2.0-beta.3 core/performance-feedback.json#/properties/metric/oneOf/0": "PerformanceFeedbackMetricStandard -> CorePerformanceFeedbackMetricStandard",
	"3.2.0-beta.3 core/performance-feedback.json#/properties/metric/oneOf/1": "PerformanceFeedbackMetricVendor -> CorePerformanceFeedbackMetricVendor",
}

// TestNameStats holds the names of every published version to their
// budgets, and follows the upgrades from one version to the next twice:
// into a fresh directory (the policy alone: only the renames listed in
// policyRenames) and into the directory holding the previous generation,
// as go generate does (no type of an unchanged schema renamed, and every
// type of a schema both have keeps its name). Run with -v for the figures.
func TestNameStats(t *testing.T) {
	testspec.Dir(t)
	var prevTree *spec.Tree
	var prevFresh, prevKept *ir.Package
	var prevFiles []File
	for i, v := range testspec.Versions {
		tree := openCorpus(t, v.Source)
		fresh, _, err := build(tree, nil, naming.Keep{})
		if err != nil {
			t.Fatalf("%s: %v", v.Version, err)
		}
		s := measureNames(fresh)
		t.Logf("%s: %d types; %d names of %d+ characters (longest %d: %s); %d VariantN; %d say a word twice in a row (%d anywhere); %d mixed-case initialisms; one-word %v; %d schemas with two types",
			v.Version, s.Types, s.Long, longNameLen, len(s.Longest), s.Longest, s.VariantN, s.Repeats, s.Twice, s.Initials, s.OneWord, s.DupKeys)
		for _, k := range []string{"VariantN", "repeat", "initialism", "duplicate key"} {
			if len(s.examples[k]) > 0 {
				t.Errorf("%s: %s e.g. %s", v.Version, k, strings.Join(s.examples[k], " "))
			}
		}
		if testing.Verbose() {
			for _, n := range s.long {
				t.Logf("  long: %s", n)
			}
		}
		b, ok := nameBudgets[v.Version]
		if !ok {
			t.Fatalf("%s: no name budget", v.Version)
		}
		if s.Long > b.Long || s.Long > 20 || !slices.Equal(s.OneWord, b.OneWord) {
			t.Errorf("%s: %d long names (budget %d), one-word %v (allowed %v)", v.Version, s.Long, b.Long, s.OneWord, b.OneWord)
		}

		start := time.Now()
		var previous *Previous
		if i > 0 {
			previous = PreviousOf(prevFiles)
		}
		res, err := Generate(Options{Tree: tree, Package: "adcp", Source: v.Version, Previous: previous})
		if err != nil {
			t.Fatal(err)
		}
		kept, _, err := build(tree, nil, previous.keep())
		if err != nil {
			t.Fatal(err)
		}
		took := time.Since(start)
		if i > 0 {
			from := testspec.Versions[i-1].Version
			renames, unchanged := unchangedRenames(t, prevTree, prevFresh, tree, fresh)
			t.Logf("%s -> %s: %d schemas unchanged; the policy alone renames %d of them", from, v.Version, unchanged, len(renames))
			for _, r := range renames {
				got := r.From + " -> " + r.To
				if want := policyRenames[v.Version+" "+r.Key]; got != want {
					t.Errorf("%s -> %s: %s: %s, not a known rename (%q)", from, v.Version, r.Key, got, want)
				}
			}
			renames, _ = unchangedRenames(t, prevTree, prevKept, tree, kept)
			for _, r := range renames {
				t.Errorf("%s -> %s, regenerated over the previous generation: %s renamed %s -> %s", from, v.Version, r.Key, r.From, r.To)
			}
			// Wherever a schema sits now (an arm shifted by another
			// inserted before it), the same schema text keeps its name.
			moved := 0
			newByDigest := map[string][]*ir.Type{}
			for _, ty := range kept.Types {
				newByDigest[ty.Digest] = append(newByDigest[ty.Digest], ty)
			}
			oldByDigest := map[string][]*ir.Type{}
			for _, ty := range prevKept.Types {
				oldByDigest[ty.Digest] = append(oldByDigest[ty.Digest], ty)
			}
			for d, olds := range oldByDigest {
				if news := newByDigest[d]; len(olds) == 1 && len(news) == 1 && olds[0].Name != news[0].Name {
					moved++
					t.Errorf("%s -> %s, regenerated over the previous generation: the schema of %s (%s) is %s (%s)",
						from, v.Version, olds[0].Name, olds[0].Key(), news[0].Name, news[0].Key())
				}
			}
			t.Logf("%s -> %s, regenerated over the previous generation (%v): %d renames of unchanged schemas, %d of a schema found elsewhere",
				from, v.Version, took.Round(time.Millisecond), len(renames), moved)
		}
		prevTree, prevFresh, prevKept, prevFiles = tree, fresh, kept, res.Files
	}
}
