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

	"github.com/adcpgen/adcpgen/generator/internal/emit"
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
	// RunTwice are names saying a run of two words or more twice
	// anywhere (CreateMediaBuyResponseCreateMediaBuySubmitted).
	RunTwice int
	Over40   int // names of 40 characters or more
	// Numbered are identifiers a number tells apart from another of their
	// kind (BrandContact2 beside BrandContact): types, constants,
	// constructors, arm kinds, fields and arms of one type.
	Numbered []string
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
		if runTwice(words) {
			s.RunTwice++
			note("run twice", n)
		}
		if len(n) >= 40 {
			s.Over40++
		}
		if mixed {
			s.Initials++
			note("initialism", n)
		}
	}
	sort.Strings(s.long)
	sort.Strings(s.OneWord)
	s.Numbered = numberedNames(pkg)
	return s
}

// runTwice reports words saying a run of two or more words twice,
// ignoring case.
func runTwice(words []string) bool {
	w := make([]string, len(words))
	for i := range words {
		w[i] = strings.ToLower(words[i])
	}
	for k := 2; 2*k <= len(w); k++ {
		for i := 0; i+k <= len(w); i++ {
			for j := i + k; j+k <= len(w); j++ {
				if slices.Equal(w[i:i+k], w[j:j+k]) {
					return true
				}
			}
		}
	}
	return false
}

var trailingNumber = regexp.MustCompile(`^(.*[^0-9_])[0-9]+$`)

// numberedNames lists the identifiers of pkg that end in a number and
// whose name without it is another identifier of the same kind.
func numberedNames(pkg *ir.Package) []string {
	var out []string
	check := func(kind string, names []string) {
		set := map[string]bool{}
		for _, n := range names {
			set[n] = true
		}
		for _, n := range names {
			if m := trailingNumber.FindStringSubmatch(n); m != nil && set[m[1]] {
				out = append(out, kind+" "+n)
			}
		}
	}
	var types, consts, funcs []string
	for _, t := range pkg.Types {
		types = append(types, t.Name)
		var members []string
		switch t.Kind {
		case ir.KindEnum:
			for _, v := range t.Values {
				consts = append(consts, v.GoName)
			}
			funcs = append(funcs, t.KnownValues)
		case ir.KindStruct:
			for _, f := range t.Fields {
				members = append(members, f.GoName)
			}
		case ir.KindUnion:
			types = append(types, t.Union.KindType)
			for _, a := range t.Union.Arms {
				members = append(members, a.GoName)
				consts = append(consts, a.KindConst)
				funcs = append(funcs, a.Constructor)
			}
		}
		check("member of "+t.Name, members)
	}
	check("type", types)
	check("constant", consts)
	check("func", funcs)
	sort.Strings(out)
	return out
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
// dropped, and without its annotations (description, title, $comment,
// examples, deprecated): a schema whose text differs only in what it says
// of itself is unchanged, and its type keeps its name.
func normalizeRefs(node any) any {
	switch v := node.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			if s, ok := x.(string); ok && (k == "$ref" || k == "$id") {
				out[k] = versionPrefix.ReplaceAllString(s, "/")
				continue
			}
			if annotation(k, x) {
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

// annotation reports a keyword that documents a schema without
// constraining it. A property of that name ("description" under
// properties) is an object, not the keyword's string, array or boolean.
func annotation(key string, v any) bool {
	switch v.(type) {
	case string:
		return key == "description" || key == "title" || key == "$comment"
	case []any:
		return key == "examples"
	case bool:
		return key == "deprecated"
	}
	return false
}

// Budgets the naming policy is held to, per version: no VariantN, no word
// said twice in a row, no initialism in mixed case, no two types of one
// schema; at most 20 names of 50 characters or more; one-word names of
// definitions and inline types only where qualifying says a word twice
// (brand.json#/definitions/brand is Brand, not BrandBrand).
var nameBudgets = map[string]struct {
	Long    int
	OneWord []string
	// RunTwice: names whose own words repeat a run of their parent's
	// (the deliveries of GetMediaBuyDeliveryResponse are
	// GetMediaBuyDeliveryResponseMediaBuyDelivery), never a union's
	// opening words said again by an arm.
	RunTwice int
}{
	"2.5.3":        {Long: 0, RunTwice: 3},
	"3.0.0":        {Long: 3, OneWord: []string{"Brand"}, RunTwice: 7},
	"3.0.26":       {Long: 1, OneWord: []string{"Brand"}, RunTwice: 7},
	"3.1.19":       {Long: 4, OneWord: []string{"Brand"}, RunTwice: 10},
	"3.2.0-beta.3": {Long: 10, OneWord: []string{"Brand"}, RunTwice: 13},
	"3.2.0-beta.5": {Long: 10, OneWord: []string{"Brand"}, RunTwice: 13},
}

// policyRenames explain the renames of unchanged schemas (but for their
// annotations) the policy alone gives between consecutive versions (a
// fresh directory): each rename's "version key" starts with one of these,
// and each explains some; regenerating over the previous generation gives
// none.
var policyRenames = []struct{ at, why string }{
	{"3.0.0 adagents.json#/oneOf/", `the root's title changed ("Authorized Sales Agents" became "AdCP Agents
		Authorization"); its inline types follow its name`},
	{"3.0.26 core/format.json#/properties/assets/items/oneOf/", `the asset arms gained titles ("Individual Image
		Asset", "Repeatable Group Asset"), which name them and their members`},
	{"3.2.0-beta.3 core/performance-feedback.json#/properties/metric", `a new root, core/performance-feedback-metric.json,
		is titled "Performance Feedback Metric" and outranks the inline type`},
	{"3.2.0-beta.3 core/postal-area.json#/anyOf/1", `the legacy arm was retitled ("LegacyPostalArea" became "PostalAreaWithFusedSystem")`},
	{"3.2.0-beta.3 enums/legacy-postal-system.json#", `the enum was retitled ("Legacy Postal Code System" became "Country-Fused Postal Code System")`},
}

// explainRename returns the index of the policyRenames entry explaining a
// rename of key in version, or -1.
func explainRename(version, key string) int {
	for i, p := range policyRenames {
		if strings.HasPrefix(version+" "+key, p.at) {
			return i
		}
	}
	return -1
}

// generation is one version generated in memory, as a directory would
// hold it: the IR named and the files written.
type generation struct {
	tree  *spec.Tree
	pkg   *ir.Package
	files []File
}

// generate names tree's types, over previous when not nil, and emits them.
func generate(t *testing.T, tree *spec.Tree, previous *generation) generation {
	t.Helper()
	keep := naming.Keep{}
	if previous != nil {
		keep = PreviousOf(previous.files).keep()
	}
	pkg, _, err := build(tree, nil, keep)
	if err != nil {
		t.Fatal(err)
	}
	files, err := emit.Emit(pkg, emit.Options{Package: "adcp"})
	if err != nil {
		t.Fatal(err)
	}
	g := generation{tree: tree, pkg: pkg}
	for _, f := range files {
		g.files = append(g.files, File{Name: f.Name, Data: f.Data})
	}
	return g
}

// armRelabels lists the arms of a union both packages have (by schema
// key) whose Go type is one arm's alone on both sides but whose label
// differs.
func armRelabels(oldPkg, newPkg *ir.Package) []string {
	unions := func(p *ir.Package) map[string]*ir.Type {
		m := map[string]*ir.Type{}
		for _, t := range p.Types {
			if t.Kind == ir.KindUnion {
				m[t.Key()] = t
			}
		}
		return m
	}
	byType := func(u *ir.Type) map[string][]string {
		m := map[string][]string{}
		for _, a := range u.Union.Arms {
			k := ir.GoString(a.Type, nil)
			m[k] = append(m[k], a.GoName)
		}
		return m
	}
	olds, news := unions(oldPkg), unions(newPkg)
	var out []string
	for key, o := range olds {
		n, ok := news[key]
		if !ok || o.Name != n.Name {
			continue
		}
		ob, nb := byType(o), byType(n)
		for typ, ol := range ob {
			if nl := nb[typ]; len(ol) == 1 && len(nl) == 1 && ol[0] != nl[0] {
				out = append(out, fmt.Sprintf("%s.%s -> %s.%s (%s)", o.Name, ol[0], n.Name, nl[0], typ))
			}
		}
	}
	sort.Strings(out)
	return out
}

// TestNameStats holds the names of every published version to their
// budgets, and follows the upgrades from one version to the next three
// ways: into a fresh directory (the policy alone: only the renames listed
// in policyRenames), into the directory holding the previous version's
// fresh generation (the case: 3.1.19 generated over 3.0.26's
// package) and into the one holding the chain of generations before it,
// as go generate does. Regenerated in place, no type of a schema
// unchanged but for its annotations is renamed, every type of a schema
// both have keeps its name, and no union arm of the same Go type is
// relabelled. Run with -v for the figures.
func TestNameStats(t *testing.T) {
	skipCorpusInShort(t)
	testspec.Dir(t)
	var prevFresh, prevKept *generation
	explained := map[int]bool{}
	defer func() {
		for i, p := range policyRenames {
			if !explained[i] && !t.Failed() {
				t.Errorf("policyRenames: %s explains no rename", p.at)
			}
		}
	}()
	for i, v := range testspec.Versions {
		tree := openCorpus(t, v.Source)
		fresh := generate(t, tree, nil)
		s := measureNames(fresh.pkg)
		t.Logf("%s: %d types; %d names of 40+ characters, %d of %d+ (longest %d: %s); %d VariantN; %d say a word twice in a row (%d anywhere), %d a run of words twice; %d mixed-case initialisms; one-word %v; %d schemas with two types; numbered %v",
			v.Version, s.Types, s.Over40, s.Long, longNameLen, len(s.Longest), s.Longest, s.VariantN, s.Repeats, s.Twice, s.RunTwice, s.Initials, s.OneWord, s.DupKeys, s.Numbered)
		if len(s.Numbered) > 0 {
			t.Errorf("%s: names told apart by a number: %v", v.Version, s.Numbered)
		}
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
		if s.Long > b.Long || s.Long > 20 || !slices.Equal(s.OneWord, b.OneWord) || s.RunTwice > b.RunTwice {
			t.Errorf("%s: %d long names (budget %d), one-word %v (allowed %v), %d say a run of words twice (budget %d, e.g. %v)",
				v.Version, s.Long, b.Long, s.OneWord, b.OneWord, s.RunTwice, b.RunTwice, s.examples["run twice"])
		}
		kept := fresh
		if i > 0 {
			from := testspec.Versions[i-1].Version
			renames, unchanged := unchangedRenames(t, prevFresh.tree, prevFresh.pkg, tree, fresh.pkg)
			t.Logf("%s -> %s: %d schemas unchanged but for annotations; the policy alone renames %d of them and relabels %d arms",
				from, v.Version, unchanged, len(renames), len(armRelabels(prevFresh.pkg, fresh.pkg)))
			for _, r := range renames {
				if i := explainRename(v.Version, r.Key); i < 0 {
					t.Errorf("%s -> %s: %s: %s -> %s, not a known rename", from, v.Version, r.Key, r.From, r.To)
				} else {
					explained[i] = true
				}
			}
			start := time.Now()
			kept = generate(t, tree, prevKept)
			took := time.Since(start)
			for _, over := range []struct {
				what     string
				old, new generation
			}{
				{"over " + from + "'s fresh generation", *prevFresh, generate(t, tree, prevFresh)},
				{"over the chain of generations up to " + from, *prevKept, kept},
			} {
				renames, _ := unchangedRenames(t, over.old.tree, over.old.pkg, tree, over.new.pkg)
				for _, r := range renames {
					t.Errorf("%s, regenerated %s: %s renamed %s -> %s", v.Version, over.what, r.Key, r.From, r.To)
				}
				relabels := armRelabels(over.old.pkg, over.new.pkg)
				for _, r := range relabels {
					t.Errorf("%s, regenerated %s: arm relabelled: %s", v.Version, over.what, r)
				}
				// Wherever a schema sits now (an arm shifted by another
				// inserted before it), the same schema keeps its name.
				moved := 0
				newByDigest := map[string][]*ir.Type{}
				for _, ty := range over.new.pkg.Types {
					newByDigest[ty.Digest] = append(newByDigest[ty.Digest], ty)
				}
				oldByDigest := map[string][]*ir.Type{}
				for _, ty := range over.old.pkg.Types {
					oldByDigest[ty.Digest] = append(oldByDigest[ty.Digest], ty)
				}
				for d, olds := range oldByDigest {
					if news := newByDigest[d]; len(olds) == 1 && len(news) == 1 && olds[0].Name != news[0].Name {
						moved++
						t.Errorf("%s, regenerated %s: the schema of %s (%s) is %s (%s)",
							v.Version, over.what, olds[0].Name, olds[0].Key(), news[0].Name, news[0].Key())
					}
				}
				t.Logf("%s, regenerated %s: %d renames of unchanged schemas, %d of a schema found elsewhere, %d arms relabelled",
					v.Version, over.what, len(renames), moved, len(relabels))
			}
			t.Logf("%s: regenerated over the previous generation in %v", v.Version, took.Round(time.Millisecond))
		}
		prevFresh, prevKept = &fresh, &kept
	}
}
