package validate_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/internal/synth"
	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/validate"
)

// differentialVersions are the versions whose every root schema runs
// through both validators.
var differentialVersions = []string{"3.0.26", "3.1.19", "3.2.0-beta.3", "3.2.0-beta.5"}

// referenceOnly lists the root schemas allowed off the fast path, by
// version, with the reason. It is empty: the fast path covers the corpus.
var referenceOnly = map[string][]string{}

// The fast path agrees with the reference validator: for every root
// schema, its synthesised instances (minimal and maximal, several union
// arms) and their mutants (a required member dropped, a member of the
// wrong type, an unknown member where the object is closed, duplicate and
// "__proto__" keys, and values broken for enum, pattern, format, length,
// range and integer checks) get the same verdict and the same issues.
func TestDifferential(t *testing.T) {
	for _, version := range differentialVersions {
		t.Run(version, func(t *testing.T) {
			t.Parallel()
			differential(t, version)
		})
	}
}

type diffStats struct {
	sync.Mutex
	payloads, invalid, schemas int
	kinds                      map[string]int // mutant kind -> payloads found invalid
}

func differential(t *testing.T, version string) {
	src := ""
	for _, tv := range testspec.Versions {
		if tv.Version == version {
			src = tv.Source
		}
	}
	tree, err := spec.Open(filepath.Join(testspec.Dir(t), src))
	if err != nil {
		t.Fatal(err)
	}
	fast, err := validate.New(tree, validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := validate.New(tree, validate.Options{Reference: true})
	if err != nil {
		t.Fatal(err)
	}
	st, err := synth.Load(tree.FS)
	if err != nil {
		t.Fatal(err)
	}
	paths, err := fast.SchemaPaths()
	if err != nil {
		t.Fatal(err)
	}
	if testing.Short() {
		paths = everyNth(paths, 5)
	}
	stats := &diffStats{kinds: map[string]int{}}
	var offFast []string
	type timed struct {
		path string
		d    time.Duration
	}
	var slow []timed
	var mu sync.Mutex
	work := make(chan string)
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range work {
				s, err := fast.Schema(p)
				if err != nil {
					continue // a schema that does not compile; TestCorpus* cover those
				}
				if ok, why := s.FastPath(); !ok {
					mu.Lock()
					offFast = append(offFast, fmt.Sprintf("%s (%v)", p, why))
					mu.Unlock()
					continue
				}
				start := time.Now()
				compareSchema(t, st, fast, ref, p, stats)
				mu.Lock()
				slow = append(slow, timed{p, time.Since(start)})
				mu.Unlock()
			}
		}()
	}
	for _, p := range paths {
		work <- p
	}
	close(work)
	wg.Wait()
	sort.Slice(slow, func(a, b int) bool { return slow[a].d > slow[b].d })
	for _, s := range slow[:min(5, len(slow))] {
		t.Logf("slowest: %s %v", s.path, s.d)
	}
	sort.Strings(offFast)
	if want := referenceOnly[version]; !slices.Equal(offFast, want) {
		t.Errorf("schemas off the fast path:\n%s\nwant %v", strings.Join(offFast, "\n"), want)
	}
	t.Logf("%s: %d schemas, %d payloads, %d invalid; invalid by mutant kind %v", version, stats.schemas, stats.payloads, stats.invalid, stats.kinds)
	if stats.payloads < len(paths) || stats.invalid == 0 {
		t.Errorf("too few payloads compared: %d (%d invalid)", stats.payloads, stats.invalid)
	}
	for _, k := range []string{synth.OpDropRequired, synth.OpWrongType, synth.OpUnknown, "enum", "pattern", "format", "minLength", "maxLength", "minimum"} {
		if stats.kinds[k] == 0 && !testing.Short() {
			t.Errorf("no payload was rejected for %s", k)
		}
	}
}

func everyNth(s []string, n int) []string {
	var out []string
	for i := 0; i < len(s); i += n {
		out = append(out, s[i])
	}
	return out
}

// compareSchema runs one root schema's payloads through both validators.
func compareSchema(t *testing.T, st *synth.Tree, fast, ref *validate.Validator, p string, stats *diffStats) {
	type payload struct {
		kind string
		data []byte
	}
	var payloads []payload
	seen := map[string]bool{}
	add := func(kind string, data []byte) {
		if !seen[string(data)] {
			seen[string(data)] = true
			payloads = append(payloads, payload{kind, data})
		}
	}
	for _, max := range []bool{false, true} {
		for variant := 0; variant < 3; variant++ {
			inst, err := st.Synthesize(p, synth.Options{Max: max, Variant: variant})
			if err != nil {
				break
			}
			data := synth.Marshal(inst.Value)
			add("instance", data)
			if variant == 0 {
				// Structural mutants of the minimal instance; value
				// mutants of both (maximal instances are big and the
				// reference is slow on them).
				if !max {
					for _, m := range st.Mutations(inst) {
						add(m.Op, m.Data)
					}
				}
				for _, m := range valueMutants(data) {
					add(m.kind, m.data)
				}
			}
			if max || variant+1 >= inst.Arms {
				break
			}
		}
	}
	stats.Lock()
	stats.schemas++
	stats.Unlock()
	for _, pl := range payloads {
		got, gerr := fast.Validate(p, pl.data)
		want, werr := ref.Validate(p, pl.data)
		if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
			t.Errorf("%s %s: %s\nfast error %v\nreference error %v", p, pl.kind, pl.data, gerr, werr)
			continue
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s %s: %s\nfast      %v\nreference %v", p, pl.kind, clip(pl.data), got, want)
		}
		stats.Lock()
		stats.payloads++
		if len(want) > 0 {
			stats.invalid++
			kinds := map[string]bool{pl.kind: true}
			for _, is := range want {
				kinds[is.Keyword] = true
			}
			for k := range kinds {
				stats.kinds[k]++
			}
		}
		stats.Unlock()
	}
}

func clip(b []byte) string {
	if len(b) > 600 {
		return string(b[:600]) + "..."
	}
	return string(b)
}

type mutant struct {
	kind string
	data []byte
}

// valueMutants breaks leaf values of a valid payload: strings emptied,
// lengthened, or made unfit for any enum, pattern or format; numbers made
// negative, huge, fractional or strings; booleans made strings. One
// change for each of up to eight leaves spread over the payload, the kind
// of change rotating.
func valueMutants(data []byte) []mutant {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc any
	if dec.Decode(&doc) != nil {
		return nil
	}
	var leaves [][]string
	var walk func(v any, path []string)
	walk = func(v any, path []string) {
		switch v := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				walk(v[k], append(slices.Clone(path), k))
			}
		case []any:
			for i, x := range v {
				walk(x, append(slices.Clone(path), strconv.Itoa(i)))
			}
		default:
			leaves = append(leaves, path)
		}
	}
	walk(doc, nil)
	const maxLeaves = 8
	step := 1
	if len(leaves) > maxLeaves {
		step = len(leaves) / maxLeaves
	}
	var out []mutant
	for i, n := 0, 0; i < len(leaves) && n < maxLeaves; i, n = i+step, n+1 {
		path := leaves[i]
		old := lookup(doc, path)
		var repl []any
		switch old.(type) {
		case string:
			repl = []any{"", strings.Repeat("x", 3000), "not a valid value: é %zz"}
		case json.Number:
			repl = []any{json.Number("-1"), json.Number("1e15"), json.Number("0.5"), "12"}
		case bool:
			repl = []any{"true"}
		case nil:
			repl = []any{json.Number("0")}
		}
		out = append(out, mutant{"value", replaceAt(doc, path, repl[n%len(repl)])})
	}
	return out
}

func lookup(doc any, path []string) any {
	for _, tok := range path {
		switch d := doc.(type) {
		case map[string]any:
			doc = d[tok]
		case []any:
			i, _ := strconv.Atoi(tok)
			doc = d[i]
		}
	}
	return doc
}

// replaceAt returns doc, as JSON, with the value at path replaced.
func replaceAt(doc any, path []string, v any) []byte {
	if len(path) == 0 {
		b, _ := json.Marshal(v)
		return b
	}
	var clone func(x any, depth int) any
	clone = func(x any, depth int) any {
		if depth == len(path) {
			return v
		}
		switch d := x.(type) {
		case map[string]any:
			m := make(map[string]any, len(d))
			for k, e := range d {
				m[k] = e
			}
			m[path[depth]] = clone(d[path[depth]], depth+1)
			return m
		case []any:
			l := slices.Clone(d)
			i, _ := strconv.Atoi(path[depth])
			l[i] = clone(d[i], depth+1)
			return l
		}
		return x
	}
	b, _ := json.Marshal(clone(doc, 0))
	return b
}
