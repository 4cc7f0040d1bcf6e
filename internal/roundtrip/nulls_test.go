package roundtrip

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/internal/synth"
	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/validate"
)

// nullCase is one document with null put where the schema admits it.
type nullCase struct {
	c       Case
	schemas []string
	extras  bool // the instance has unknown members: exact mode refuses it anyway
}

// nullPlan is everything prepared for one version.
type nullPlan struct {
	version   string
	cases     []nullCase
	locations []string // every location of the tree that admits null and says so
	// refused are the locations of places where the validator refused
	// null after all (a condition ties null to other members, say).
	refused map[string]bool
}

// maxNullVariants bounds the union variants walked per schema; above
// maxVariants so that every arm of registry events' 20-way oneOf is seen.
const maxNullVariants = 64

// Every published version: for every schema the generated package has a
// type for, the maximal instance of each union variant is walked, and at
// every place whose schema admits null (type, enum or const naming null,
// directly, through $ref, in items and map values, in copies merged through
// allOf) null is put in, once per place and set of schemas. Each document
// the validator accepts must decode strictly, and in exact mode unless it
// carries unknown members. The locations of the tree that admit null and
// that no document reached are listed in testdata/nulls-<version>.json;
// a location newly unreached fails the test.
func TestNullEverywhere(t *testing.T) {
	specDir := testspec.Dir(t)
	h, refs := harness(t)
	start := time.Now()
	plans := make([]*nullPlan, len(harnessVersions))
	errs := make([]error, len(plans))
	var wg sync.WaitGroup
	for i, v := range harnessVersions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			plans[i], errs[i] = planNulls(v, sourceOf(specDir, v), refs[v])
		}()
	}
	wg.Wait()
	var cases []Case
	for i, p := range plans {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		for _, nc := range p.cases {
			cases = append(cases, nc.c)
		}
	}
	planned := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	results, err := h.Run(ctx, cases)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range plans {
		t.Run(p.version, func(t *testing.T) {
			if len(p.locations) > 0 && len(p.cases) == 0 {
				t.Fatalf("%d locations admit null and no document put null at any", len(p.locations))
			}
			covered := map[string]bool{}
			for _, nc := range p.cases {
				r := results[nc.c.ID]
				switch {
				case r.Panic != "":
					t.Errorf("%s: panic: %s", nc.c.ID, firstLine(r.Panic))
				case r.NoType:
					t.Errorf("%s: no generated type", nc.c.ID)
				case r.Err != nil:
					t.Errorf("%s: the validator accepts null there, the decoder says %s", nc.c.ID, r.Err.Message)
				case r.Exact != nil && !nc.extras:
					t.Errorf("%s: exact mode says %s", nc.c.ID, r.Exact.Message)
				default:
					for _, s := range nc.schemas {
						covered[s] = true
					}
				}
			}
			unreached := map[string]string{}
			for _, loc := range p.locations {
				switch {
				case covered[loc]:
				case p.refused[loc]:
					unreached[loc] = "reached, but the validator refuses null there in every instance tried (a condition on other members)"
				default:
					unreached[loc] = "no synthesised instance reaches it"
				}
			}
			file := filepath.Join("testdata", "nulls-"+p.version+".json")
			compare(t, file, expectations{"unreached": unreached},
				"locations admitting null that TestNullEverywhere does not reach; anything new fails it")
			t.Logf("%s: %d documents with null decoded; %d of %d locations admitting null reached",
				p.version, len(p.cases), len(p.locations)-len(unreached), len(p.locations))
		})
	}
	t.Logf("timing: planning %v, decoding %v", planned.Sub(start).Round(time.Millisecond), time.Since(planned).Round(time.Millisecond))
}

// planNulls builds the null documents of one version.
func planNulls(version, source string, refs []string) (*nullPlan, error) {
	tree, err := spec.Open(source)
	if err != nil {
		return nil, err
	}
	st, err := synth.Load(tree.FS)
	if err != nil {
		return nil, err
	}
	val, err := validate.New(tree, validate.Options{})
	if err != nil {
		return nil, err
	}
	if len(refs) == 0 {
		return nil, fmt.Errorf("%s: the generated package lists no schemas", version)
	}
	p := &nullPlan{version: version, locations: st.NullableLocations(), refused: map[string]bool{}}
	outs := make([][]nullCase, len(refs))
	refused := make([][]string, len(refs))
	errs := make([]error, len(refs))
	parallel(len(refs), func(i int) {
		outs[i], refused[i], errs[i] = planRefNulls(st, val, version, refs[i])
	})
	for i := range refs {
		if errs[i] != nil {
			return nil, errs[i]
		}
		p.cases = append(p.cases, outs[i]...)
		for _, loc := range refused[i] {
			p.refused[loc] = true
		}
	}
	return p, nil
}

// planRefNulls puts null at every place of the maximal instances (one per
// union variant) of one schema, once per place and set of schemas, keeping
// the documents the validator accepts.
func planRefNulls(st *synth.Tree, val *validate.Validator, version, ref string) ([]nullCase, []string, error) {
	path := strings.TrimSuffix(ref, "#")
	first, err := st.Synthesize(path, synth.Options{})
	if err != nil {
		return nil, nil, fmt.Errorf("%s %s: %w", version, ref, err)
	}
	var out []nullCase
	var refused []string
	seen := map[string]bool{}
	for v := range min(first.Arms, maxNullVariants) {
		inst, err := st.Synthesize(path, synth.Options{Max: true, Variant: v})
		if err != nil {
			return nil, nil, fmt.Errorf("%s %s: %w", version, ref, err)
		}
		if issues, err := val.Validate(path, synth.Marshal(inst.Value)); err != nil || len(issues) > 0 {
			continue // not a valid instance: TestRoundTrip reports those
		}
		sites, err := st.NullSites(path, inst.Value)
		if err != nil {
			return nil, nil, fmt.Errorf("%s %s: %w", version, ref, err)
		}
		for _, s := range sites {
			key := placeKey(s)
			if seen[key] {
				continue
			}
			seen[key] = true
			data := synth.Marshal(synth.WithNull(inst.Value, s.Pointer))
			issues, err := val.Validate(path, data)
			if err != nil {
				return nil, nil, fmt.Errorf("%s %s: %w", version, ref, err)
			}
			if len(issues) > 0 {
				refused = append(refused, s.Schemas...)
				continue
			}
			out = append(out, nullCase{schemas: s.Schemas, extras: inst.Extras,
				c: Case{ID: fmt.Sprintf("%s %s null at %s (max/v%d)", version, ref, synth.Pointer(s.Pointer), v), Version: version, Ref: path, Op: OpDecode, Data: data}})
		}
	}
	return out, refused, nil
}

// placeKey identifies a place by its pointer with array indices folded
// and the schemas that admit null there.
func placeKey(s synth.NullSite) string {
	var b strings.Builder
	for _, tok := range s.Pointer {
		if tok != "" && strings.Trim(tok, "0123456789") == "" {
			tok = "[]" // an array index (or a key made of digits: merged, harmlessly)
		}
		b.WriteString("/" + tok)
	}
	schemas := append([]string(nil), s.Schemas...)
	sort.Strings(schemas)
	return b.String() + "|" + strings.Join(schemas, ",")
}
