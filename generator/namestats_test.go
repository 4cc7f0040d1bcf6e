package generator

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/generator/internal/naming"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// nameStats measures how a version's type names read.
type nameStats struct {
	Types     int
	VariantN  int // names ending in VariantN
	Long      int // names of longNameLen characters or more
	Longest   string
	Repeats   int // names that say one word twice
	Initials  int // names spelling an initialism in mixed case (Id5, Hdr10)
	examples  map[string][]string
	longNames []string
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
	for _, t := range pkg.Types {
		n := t.Name
		if variantN.MatchString(n) {
			s.VariantN++
			note("VariantN", n)
		}
		if len(n) >= longNameLen {
			s.Long++
			s.longNames = append(s.longNames, n)
		}
		if len(n) > len(s.Longest) || len(n) == len(s.Longest) && n < s.Longest {
			s.Longest = n
		}
		words := naming.Words(n)
		seen := map[string]bool{}
		repeat, mixed := false, false
		for _, w := range words {
			lw := strings.ToLower(w)
			if len(lw) >= 3 && seen[lw] {
				repeat = true
			}
			seen[lw] = true
			if up, ok := want[lw]; ok && w != up && !(up == "ID" && w == "IDs") {
				mixed = true
			}
		}
		if repeat {
			s.Repeats++
			note("repeat", n)
		}
		if mixed {
			s.Initials++
			note("initialism", n)
		}
	}
	sort.Strings(s.longNames)
	return s
}

// rename is a type whose schema location is unchanged but whose name moved.
type rename struct{ Loc, From, To string }

// unchangedRenames lists the types generated from a schema location whose
// JSON is identical in both trees but whose Go name differs.
func unchangedRenames(t *testing.T, oldTree *spec.Tree, oldPkg *ir.Package, newTree *spec.Tree, newPkg *ir.Package) (renames []rename, unchanged int) {
	oldNodes, newNodes := nodeCache{fsys: oldTree.FS}, nodeCache{fsys: newTree.FS}
	byLoc := func(p *ir.Package) map[string][]string {
		m := map[string][]string{}
		for _, t := range p.Types {
			m[t.Loc.String()] = append(m[t.Loc.String()], t.Name)
		}
		for _, names := range m {
			sort.Strings(names)
		}
		return m
	}
	oldAt, newAt := byLoc(oldPkg), byLoc(newPkg)
	var locs []string
	for loc := range oldAt {
		if _, ok := newAt[loc]; ok {
			locs = append(locs, loc)
		}
	}
	sort.Strings(locs)
	for _, loc := range locs {
		a, errA := oldNodes.canonical(loc)
		b, errB := newNodes.canonical(loc)
		if errA != nil || errB != nil {
			t.Fatalf("%s: %v %v", loc, errA, errB)
		}
		if a != b {
			continue
		}
		unchanged++
		// A location may give several types (a property merged into two
		// parents); it is renamed when one of its old names is gone.
		kept := true
		for _, n := range oldAt[loc] {
			kept = kept && contains(newAt[loc], n)
		}
		if !kept {
			renames = append(renames, rename{loc, strings.Join(oldAt[loc], ","), strings.Join(newAt[loc], ",")})
		}
	}
	return renames, unchanged
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// nodeCache reads schema nodes by location as canonical JSON (keys sorted,
// nothing resolved).
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
	if ptr != "" {
		for _, tok := range strings.Split(ptr[1:], "/") {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
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
	}
	out, err := json.Marshal(node)
	return string(out), err
}

// Budgets the naming policy is held to, per version: names ending in
// VariantN, names of 50 characters or more, the longest name, names with a
// repeated word, initialisms in mixed case. Renames of unchanged schema
// locations between consecutive versions must be zero.
var nameBudgets = map[string]nameStats{
	"3.0.26":       {VariantN: 0, Long: 6, Repeats: 105, Initials: 0},
	"3.1.19":       {VariantN: 2, Long: 24, Repeats: 199, Initials: 0},
	"3.2.0-beta.3": {VariantN: 2, Long: 43, Repeats: 238, Initials: 0},
}

// TestNameStats measures the names of 3.0.26, 3.1.19 and 3.2.0-beta.3
// against their budgets, and the renames of unchanged schema locations from
// one version to the next. Run with -v to see the numbers.
func TestNameStats(t *testing.T) {
	versions := []struct{ version, source string }{
		{"3.0.26", "protocol/3.0.26.tgz"}, {"3.1.19", "schemas/3.1.19"}, {"3.2.0-beta.3", "schemas/3.2.0-beta.3"},
	}
	var prevTree *spec.Tree
	var prevPkg *ir.Package
	for i, v := range versions {
		tree := openCorpus(t, v.source)
		pkg, _, err := build(tree, nil)
		if err != nil {
			t.Fatalf("%s: %v", v.version, err)
		}
		s := measureNames(pkg)
		t.Logf("%s: %d types, %d VariantN, %d of %d+ chars, longest %d (%s), %d repeats, %d mixed-case initialisms",
			v.version, s.Types, s.VariantN, s.Long, longNameLen, len(s.Longest), s.Longest, s.Repeats, s.Initials)
		for _, k := range []string{"VariantN", "repeat", "initialism"} {
			if len(s.examples[k]) > 0 {
				t.Logf("  %s e.g. %s", k, strings.Join(s.examples[k], " "))
			}
		}
		if testing.Verbose() {
			for _, n := range s.longNames {
				t.Logf("  long: %s", n)
			}
		}
		b := nameBudgets[v.version]
		if s.VariantN > b.VariantN || s.Long > b.Long || s.Repeats > b.Repeats || s.Initials > b.Initials {
			t.Errorf("%s: over budget %+v", v.version, b)
		}
		if i > 0 {
			renames, unchanged := unchangedRenames(t, prevTree, prevPkg, tree, pkg)
			t.Logf("%s -> %s: %d unchanged locations, %d renamed", versions[i-1].version, v.version, unchanged, len(renames))
			for _, r := range renames {
				t.Logf("  %s: %s -> %s", r.Loc, r.From, r.To)
			}
			if len(renames) > 0 {
				t.Errorf("%s -> %s: %d types of unchanged schemas renamed", versions[i-1].version, v.version, len(renames))
			}
		}
		prevTree, prevPkg = tree, pkg
	}
}
