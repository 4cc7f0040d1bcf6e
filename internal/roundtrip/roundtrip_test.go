package roundtrip

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/internal/synth"
	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/validate"
)

// roundTripVersions are synthesised schema by schema.
var roundTripVersions = []string{"3.1.19", "3.2.0-beta.3", "3.2.0-beta.5"}

// maxVariants bounds the arm variants per schema (a union of more arms is
// covered up to this many).
const maxVariants = 16

// A synthesised instance or mutation, with what checking it needs.
type planned struct {
	c        Case
	ref      string
	inst     *synth.Instance // round trips
	mut      *synth.Mutation // mutations
	rejected bool            // the validator rejects the mutation
	// valid marks a mutation candidate the validator accepts (a required
	// member another arm does without, say): the decoder must accept it
	// too.
	valid bool
}

// versionPlan is everything prepared for one version.
type versionPlan struct {
	version  string
	st       *synth.Tree
	val      *validate.Validator
	refs     []string
	planned  []planned
	byRef    map[string][]planned // round trips per schema, max instances first
	unsynth  map[string]string    // "ref min/v0" -> first validator issue
	variants int
}

// mutation ops the validator must reject too (it cannot see the others:
// it decodes into maps, where "__proto__" is a name and duplicates merge).
var schemaVisible = map[string]bool{synth.OpDropRequired: true, synth.OpWrongType: true, synth.OpUnknown: true}

// wantKind is the wire.Kind a strict decoder reports for a mutation.
var wantKind = map[string]string{
	synth.OpDropRequired: "missing",
	synth.OpWrongType:    "type",
	synth.OpProto:        "forbidden_key",
	synth.OpProtoEscaped: "forbidden_key",
	synth.OpDuplicate:    "duplicate",
	synth.OpUnknown:      "unknown_field",
}

// Every schema the generated packages of 3.1.19, 3.2.0-beta.3 and 3.2.0-beta.5 have a
// type for (SchemaRefs) gets synthesised instances: minimal and maximal,
// once per union arm (up to maxVariants). Each valid one decodes strictly,
// decodes in exact mode (unless it has unknown members), re-encodes to
// bytes the validator accepts, and decodes again to an equal value; the
// json.Marshal/Unmarshal entry points agree. Six mutations per schema must
// be rejected by the decoder with the right kind at the right pointer, and
// the schema-visible ones by the validator too. What the synthesiser
// cannot make valid, and any known failure, is listed in
// testdata/roundtrip-<version>.json; anything new fails the test.
func TestRoundTrip(t *testing.T) {
	specDir := testspec.Dir(t)
	start := time.Now()
	h, refs := harness(t)
	built := time.Now()

	plans := make([]*versionPlan, len(roundTripVersions))
	var wg sync.WaitGroup
	errs := make([]error, len(plans))
	for i, v := range roundTripVersions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			plans[i], errs[i] = plan(v, sourceOf(specDir, v), refs[v])
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	planned := time.Now()

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	// Phase one: round trips. Phase two: mutations of an instance that
	// round-tripped cleanly, so a mutation's failure is its own.
	var cases []Case
	for _, p := range plans {
		for _, pl := range p.planned {
			cases = append(cases, pl.c)
		}
	}
	results, err := h.Run(ctx, cases)
	if err != nil {
		t.Fatal(err)
	}
	var mutCases []Case
	for _, p := range plans {
		n := len(p.planned)
		if err := planMutations(p, results); err != nil {
			t.Fatal(err)
		}
		for _, pl := range p.planned[n:] {
			mutCases = append(mutCases, pl.c)
		}
	}
	more, err := h.Run(ctx, mutCases)
	if err != nil {
		t.Fatal(err)
	}
	for id, r := range more {
		results[id] = r
	}
	cases = append(cases, mutCases...)
	ran := time.Now()

	for _, p := range plans {
		t.Run(p.version, func(t *testing.T) {
			check(t, p, results)
		})
	}
	t.Logf("timing: harness %v, synthesis and validation %v, %d decodes and mutation planning %v, checks %v",
		built.Sub(start).Round(time.Millisecond), planned.Sub(built).Round(time.Millisecond), len(cases),
		ran.Sub(planned).Round(time.Millisecond), time.Since(ran).Round(time.Millisecond))
}

// plan synthesises and validates every instance and mutation of a version.
func plan(version, source string, refs []string) (*versionPlan, error) {
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
	p := &versionPlan{version: version, st: st, val: val, refs: refs, byRef: map[string][]planned{}, unsynth: map[string]string{}}
	type out struct {
		planned  []planned
		unsynth  map[string]string
		variants int
		err      error
	}
	outs := make([]out, len(refs))
	parallel(len(refs), func(i int) {
		o := &outs[i]
		o.planned, o.unsynth, o.variants, o.err = planRef(st, val, version, refs[i])
	})
	for i, o := range outs {
		if o.err != nil {
			return nil, o.err
		}
		p.planned = append(p.planned, o.planned...)
		p.byRef[refs[i]] = o.planned
		p.variants += o.variants
		for k, v := range o.unsynth {
			p.unsynth[k] = v
		}
	}
	return p, nil
}

// parallel runs f(0..n-1) on GOMAXPROCS goroutines.
func parallel(n int, f func(i int)) {
	work := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				f(i)
			}
		}()
	}
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()
}

// planMutations adds each schema's mutations, made from its first maximal
// (else minimal) instance that round-tripped cleanly. Per kind, the first
// candidate the validator rejects is the mutation; schema-visible
// candidates it accepts before that are valid payloads the decoder must
// accept.
func planMutations(p *versionPlan, results map[string]*Result) error {
	outs := make([][]planned, len(p.refs))
	errs := make([]error, len(p.refs))
	parallel(len(p.refs), func(i int) {
		ref := p.refs[i]
		var from *planned
		for _, pl := range p.byRef[ref] {
			r := results[pl.c.ID]
			if r.Err != nil || !r.Equal || !r.JSONSame || r.Panic != "" {
				continue
			}
			if from == nil || strings.Contains(pl.c.ID, " max/") && !strings.Contains(from.c.ID, " max/") {
				pl := pl
				from = &pl
			}
		}
		if from == nil {
			return
		}
		version, path := p.version, from.ref
		done := map[string]bool{}
		tried := map[string]int{}
		for _, m := range p.st.Mutations(from.inst) {
			if done[m.Op] {
				continue
			}
			issues, err := p.val.Validate(path, m.Data)
			if err != nil {
				errs[i] = fmt.Errorf("%s %s mutation %s: %w", version, ref, m.Op, err)
				return
			}
			rejected := len(issues) > 0
			if schemaVisible[m.Op] && !rejected {
				tried[m.Op]++
				outs[i] = append(outs[i], planned{ref: path, mut: &m, valid: true,
					c: Case{ID: fmt.Sprintf("%s %s valid %s/%d", version, ref, m.Op, tried[m.Op]), Version: version, Ref: path, Op: OpDecode, Data: m.Data}})
				continue
			}
			done[m.Op] = true
			outs[i] = append(outs[i], planned{ref: path, mut: &m, rejected: rejected,
				c: Case{ID: version + " " + ref + " mutation " + m.Op, Version: version, Ref: path, Op: OpDecode, Data: m.Data}})
		}
	})
	for i := range outs {
		if errs[i] != nil {
			return errs[i]
		}
		p.planned = append(p.planned, outs[i]...)
	}
	return nil
}

// planRef builds the cases of one schema.
func planRef(st *synth.Tree, val *validate.Validator, version, ref string) ([]planned, map[string]string, int, error) {
	path := strings.TrimSuffix(ref, "#")
	first, err := st.Synthesize(path, synth.Options{})
	if err != nil {
		return nil, nil, 0, fmt.Errorf("%s %s: %w", version, ref, err)
	}
	variants := min(first.Arms, maxVariants)
	var out []planned
	unsynth := map[string]string{}
	seen := map[string]bool{}
	for v := range variants {
		for _, maxMode := range []bool{false, true} {
			inst, err := st.Synthesize(path, synth.Options{Max: maxMode, Variant: v})
			if err != nil {
				return nil, nil, 0, fmt.Errorf("%s %s: %w", version, ref, err)
			}
			data := synth.Marshal(inst.Value)
			if seen[string(data)] {
				continue
			}
			seen[string(data)] = true
			name := fmt.Sprintf("min/v%d", v)
			if maxMode {
				name = fmt.Sprintf("max/v%d", v)
			}
			issues, err := val.Validate(path, data)
			if err != nil {
				return nil, nil, 0, fmt.Errorf("%s %s: %w", version, ref, err)
			}
			if len(issues) > 0 {
				unsynth[ref+" "+name] = issues[0].Keyword + "@" + issues[0].Pointer + ": " + issues[0].Message
				continue
			}
			out = append(out, planned{ref: path, inst: inst, c: Case{ID: version + " " + ref + " " + name, Version: version, Ref: path, Op: OpRoundTrip, Data: data}})
		}
	}
	return out, unsynth, variants, nil
}

// check compares the harness's results with what must hold.
func check(t *testing.T, p *versionPlan, results map[string]*Result) {
	failures := map[string]string{}
	fail := func(id, format string, args ...any) {
		failures[strings.TrimPrefix(id, p.version+" ")] = fmt.Sprintf(format, args...)
	}
	var trips, exact, extras, changed, validVariants int
	var revalidate []planned
	// op -> planned, decoder rejected right, rejected only in exact mode,
	// validator rejected
	mutations := map[string]*[4]int{}
	for op := range wantKind {
		mutations[op] = new([4]int)
	}
	for _, pl := range p.planned {
		r := results[pl.c.ID]
		switch {
		case r.Panic != "":
			fail(pl.c.ID, "panic: %s", firstLine(r.Panic))
			continue
		case r.NoType:
			fail(pl.c.ID, "no generated type for %s", pl.ref)
			continue
		}
		if pl.valid {
			validVariants++
			if r.Err != nil {
				fail(pl.c.ID, "decoder rejects a schema-valid payload: %s: %s", r.Err, r.Err.Message)
			}
			continue
		}
		if pl.mut != nil {
			m := pl.mut
			counts := mutations[m.Op]
			counts[0]++
			switch reason := judgeMutation(m, r.Err); {
			case reason == "":
				counts[1]++
			case r.Err == nil && r.Exact != nil:
				// Strict mode keeps unknown enum values and members (forward
				// compatibility), which can make another arm fit; exact mode
				// must reject it.
				counts[2]++
			default:
				fail(pl.c.ID, "decoder: %s", reason)
			}
			if pl.rejected {
				counts[3]++
			} else if schemaVisible[m.Op] {
				fail(pl.c.ID, "no candidate violates the schema (the validator accepts them all)")
			}
			continue
		}
		if r.Err != nil {
			fail(pl.c.ID, "strict decode rejects a schema-valid instance: %s: %s", r.Err, r.Err.Message)
			continue
		}
		switch {
		case r.EncErr != "":
			fail(pl.c.ID, "encode: %s", r.EncErr)
			continue
		case r.Redecode != nil:
			fail(pl.c.ID, "decoding the re-encoded bytes: %s: %s", r.Redecode, r.Redecode.Message)
			continue
		case !r.Equal:
			fail(pl.c.ID, "the second decode differs from the first")
			continue
		case !r.JSONSame:
			fail(pl.c.ID, "MarshalJSON/UnmarshalJSON disagree with wire.Marshal/Unmarshal")
			continue
		}
		if pl.inst.Extras {
			extras++
			// An unknown member inside a trial union's arm makes every arm
			// fail: a union error.
			if r.Exact != nil && r.Exact.Kind != "unknown_field" && r.Exact.Kind != "union" {
				fail(pl.c.ID, "exact mode: %s (want ok, unknown_field or union)", r.Exact)
				continue
			}
		} else if r.Exact != nil {
			fail(pl.c.ID, "exact mode rejects an instance without unknown members: %s: %s", r.Exact, r.Exact.Message)
			continue
		} else {
			exact++
		}
		if !sameJSON(pl.c.Data, r.Enc) {
			changed++
		}
		revalidate = append(revalidate, pl)
	}
	// The re-encoded bytes validate clean (in parallel: the slow part).
	bad := make([]string, len(revalidate))
	parallel(len(revalidate), func(i int) {
		pl := revalidate[i]
		issues, err := p.val.Validate(pl.ref, results[pl.c.ID].Enc)
		if err != nil || len(issues) > 0 {
			bad[i] = fmt.Sprintf("re-encoded bytes fail validation: %v %v", err, issues)
		}
	})
	for i, pl := range revalidate {
		if bad[i] != "" {
			fail(pl.c.ID, "%s", bad[i])
		} else {
			trips++
		}
	}
	compare(t, filepath.Join("testdata", "roundtrip-"+p.version+".json"), expectations{
		"unsynthesisable": p.unsynth,
		"failures":        failures,
	}, "AdCP "+p.version+": instances the synthesiser cannot make valid (ref variant: first validator issue) and round-trip or mutation checks that fail (case: why); see roundtrip_test.go")

	instances := 0
	for _, pl := range p.planned {
		if pl.inst != nil {
			instances++
		}
	}
	t.Logf("%d schemas, %d variants, %d distinct valid instances (%d the synthesiser could not make valid), %d round trips proven (re-encoded bytes validated, %d of them not the input's JSON value), %d decoded in exact mode too, %d with unknown members",
		len(p.refs), p.variants, instances, len(p.unsynth), trips, changed, exact, extras)
	for _, op := range sortedKeys(mutations) {
		c := mutations[op]
		t.Logf("mutation %-14s %4d planned, %4d rejected by the decoder as %s at the right pointer (%d more only in exact mode), %4d rejected by the validator", op, c[0], c[1], wantKind[op], c[2], c[3])
	}
	t.Logf("%d schema-valid mutation candidates (the validator accepts them) decoded too", validVariants)
	t.Logf("%d known failures listed", len(failures))
}

// judgeMutation says why a decoder's answer to a mutation is wrong, or "".
func judgeMutation(m *synth.Mutation, e *WireError) string {
	if e == nil {
		return "accepts it"
	}
	want := wantKind[m.Op]
	switch {
	case e.Kind == want && e.Pointer == m.Pointer:
		if m.Op == synth.OpDropRequired && !slices.Contains(e.Missing, m.Key) {
			return fmt.Sprintf("missing %v does not name %q", e.Missing, m.Key)
		}
		return ""
	case m.Op == synth.OpWrongType && m.Const && e.Kind == "const" && e.Pointer == m.Pointer:
		return ""
	case m.Union && e.Kind == "union" && isPrefix(e.Pointer, m.Pointer):
		return ""
	case m.Union && m.Op == synth.OpWrongType && e.Kind == "type" && e.Pointer == m.Pointer:
		return ""
	}
	return fmt.Sprintf("%s, want %s@%s", e, want, orRoot(m.Pointer))
}

// isPrefix reports whether pointer a is b or an ancestor of b.
func isPrefix(a, b string) bool {
	return a == b || strings.HasPrefix(b, a+"/")
}

func orRoot(p string) string {
	if p == "" {
		return "(root)"
	}
	return p
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// sameJSON reports whether two documents hold the same JSON value.
func sameJSON(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var x, y any
	da, db := json.NewDecoder(bytes.NewReader(a)), json.NewDecoder(bytes.NewReader(b))
	da.UseNumber()
	db.UseNumber()
	if da.Decode(&x) != nil || db.Decode(&y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
