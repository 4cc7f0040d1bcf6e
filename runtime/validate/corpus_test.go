package validate

import (
	"encoding/json"
	"io/fs"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/internal/testspec"
)

// corpusKeyword is one occurrence of a keyword in a schema position.
type corpusKeyword struct {
	version, file, ptr, value string
}

// scanCorpus lists every string value of keyword in a schema position, in
// every published version.
func scanCorpus(t *testing.T, keyword string) []corpusKeyword {
	t.Helper()
	var out []corpusKeyword
	for _, tv := range testspec.Versions {
		v := versionValidator(t, tv.Version)
		paths, err := v.SchemaPaths()
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			data, err := fs.ReadFile(v.tree.FS, p)
			if err != nil {
				t.Fatal(err)
			}
			var doc any
			if err := json.Unmarshal(data, &doc); err != nil {
				t.Fatalf("%s %s: %v", tv.Version, p, err)
			}
			_ = walkSchema(doc, "", func(m map[string]any, ptr string) error {
				if s, ok := m[keyword].(string); ok {
					out = append(out, corpusKeyword{tv.Version, p, ptr, s})
				}
				return nil
			})
		}
	}
	return out
}

// nonRE2Patterns are the corpus patterns Go's RE2 rejects, each with a value
// that must match and one that must not (as JavaScript's RegExp answers).
var nonRE2Patterns = map[string][2]string{
	`^P(?!$)(\d+Y)?(\d+M)?(\d+D)?(T(\d+H)?(\d+M)?(\d+S)?)?$`: {"PT4H", "P"},
	`^[^\u0000-\u001F\u007F]+$`:                              {"1.4.3 Contrast", "1.4.3\nContrast"},
	`^[^\u0000-\u001F\u007F]*$`:                              {"Add alt text", "Add\talt text"},
	`^(?:/(?:[^~/\u0000-\u001F\u007F]|~0|~1)*)*$`:            {"/assets/0/alt~1text", "/assets/~2"},
}

// Every pattern RE2 cannot read is enforced, with its ECMA-262 meaning,
// through the full pipeline (loader, rewrite, extension).
func TestNonRE2CorpusPatterns(t *testing.T) {
	found := map[string]bool{}
	for _, occ := range scanCorpus(t, "pattern") {
		if _, err := regexp.Compile(occ.value); err == nil {
			continue
		}
		found[occ.value] = true
		vals, ok := nonRE2Patterns[occ.value]
		if !ok {
			t.Errorf("%s %s#%s: non-RE2 pattern %q has no test values; add it to nonRE2Patterns", occ.version, occ.file, occ.ptr, occ.value)
			continue
		}
		v := versionValidator(t, occ.version)
		ref := occ.file + "#" + occ.ptr
		is, err := v.Validate(ref, mustJSON(t, vals[0]))
		if err != nil || len(is) != 0 {
			t.Errorf("%s %s with %q: issues %v, err %v; want valid", occ.version, ref, vals[0], is, err)
		}
		is, err = v.Validate(ref, mustJSON(t, vals[1]))
		if err != nil || !hasKeyword(is, "pattern") {
			t.Errorf("%s %s with %q: issues %v, err %v; want a pattern issue", occ.version, ref, vals[1], is, err)
		} else if !strings.Contains(is[0].Message, occ.value) {
			t.Errorf("%s %s: message %q does not quote the pattern as published", occ.version, ref, is[0].Message)
		}
		t.Logf("%s %s: %s", occ.version, ref, occ.value)
	}
	for p := range nonRE2Patterns {
		if !found[p] {
			t.Errorf("pattern %q is no longer in the corpus; drop it from nonRE2Patterns", p)
		}
	}
	if len(found) < 4 {
		t.Errorf("found %d distinct non-RE2 patterns, want the 4 the spec README names", len(found))
	}
}

// Every corpus pattern has an ECMA-262 parse, and those RE2 also reads the
// same way (no '.', \s, \S or \u) get the same answers from the translation
// as from the backtracking reference on a few probe strings.
func TestCorpusPatternsTranslate(t *testing.T) {
	probes := []string{"", "a", "A1", "abc_def", "US", "USD", "2026-01-31", "https://x.example/a", "sha256:" + strings.Repeat("a", 64), "a b", "é", "x\n"}
	seen := map[string]bool{}
	for _, occ := range scanCorpus(t, "pattern") {
		if seen[occ.value] {
			continue
		}
		seen[occ.value] = true
		re, err := compileECMA(occ.value)
		if err != nil {
			t.Errorf("%s %s#%s: %v", occ.version, occ.file, occ.ptr, err)
			continue
		}
		ast, _ := parseECMA(occ.value)
		for _, s := range probes {
			got, err1 := re.MatchString(s)
			ref, err2 := backtrackSearch(ast, s)
			if err1 != nil || err2 != nil || got != ref {
				t.Errorf("%q on %q: compiled %v (%v), reference %v (%v)", occ.value, s, got, err1, ref, err2)
			}
		}
	}
	if len(seen) < 50 {
		t.Errorf("found only %d distinct patterns", len(seen))
	}
}

// formatValues hold, per format used in the corpus, a valid and an invalid
// string.
var formatValues = map[string][2]string{
	"date-time":    {"2026-04-01T00:00:00Z", "2026-04-01 00:00"},
	"date":         {"2026-04-01", "2026-02-30"},
	"uri":          {"https://cdn.example.com/a.png?x=1#top", "https://cdn.example.com/a b.png"},
	"uri-template": {"https://t.example.com/imp?cb={cachebuster}&id={+id}", "https://t.example.com/imp?cb={cache buster}"},
	"email":        {"ops@example.com", "ops@@example.com"},
	"uuid":         {"3f2504e0-4f89-41d3-9a0c-0305e82c3301", "3f2504e0-4f89-41d3-9a0c"},
	"hostname":     {"seller.example.com", "-seller.example.com"},
}

// Every format in a schema position of any version is asserted through
// the pipeline.
func TestCorpusFormatsAsserted(t *testing.T) {
	first := map[string]corpusKeyword{} // version+format -> first occurrence
	formatsSeen := map[string]bool{}
	for _, occ := range scanCorpus(t, "format") {
		formatsSeen[occ.value] = true
		if _, ok := first[occ.version+" "+occ.value]; !ok {
			first[occ.version+" "+occ.value] = occ
		}
	}
	var keys []string
	for k := range first {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		occ := first[k]
		vals, ok := formatValues[occ.value]
		if !ok {
			t.Errorf("%s %s#%s: format %q has no test values; add it to formatValues", occ.version, occ.file, occ.ptr, occ.value)
			continue
		}
		v := versionValidator(t, occ.version)
		ref := occ.file + "#" + occ.ptr
		is, err := v.Validate(ref, mustJSON(t, vals[0]))
		if err != nil || hasKeyword(is, "format") {
			t.Errorf("%s %s with %q: issues %v, err %v; want no format issue", occ.version, ref, vals[0], is, err)
		}
		is, err = v.Validate(ref, mustJSON(t, vals[1]))
		if err != nil || !hasKeyword(is, "format") {
			t.Errorf("%s %s with %q: issues %v, err %v; want a format issue", occ.version, ref, vals[1], is, err)
		}
	}
	for f := range formatValues {
		if !formatsSeen[f] {
			t.Errorf("format %q is no longer in the corpus", f)
		}
	}
}

func hasKeyword(is []Issue, kw string) bool {
	for _, i := range is {
		if i.Keyword == kw {
			return true
		}
	}
	return false
}
