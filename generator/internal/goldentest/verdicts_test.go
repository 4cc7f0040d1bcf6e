package goldentest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/generator/testdata/golden/foundation"
	"github.com/adcpgen/adcpgen/generator/testdata/golden/manifest"
	"github.com/adcpgen/adcpgen/generator/testdata/golden/maps"
	"github.com/adcpgen/adcpgen/generator/testdata/golden/nullable"
	"github.com/adcpgen/adcpgen/generator/testdata/golden/refs"
	"github.com/adcpgen/adcpgen/generator/testdata/golden/unions"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// testdata/verdicts.jsonl holds what the decoders generated before the
// descriptor engine (wire's GenVersion 1, one DecodeWire and EncodeWire
// body per type) said about every seed document, decoded as every type of
// the golden packages, leniently and exactly: the error (kind, pointer,
// offset, message, missing fields, arms) or the encoding. Those decoders
// were the reference the engine was built to agree with; they are gone,
// and their verdicts stay as the evidence. Every golden type
// (testdata/golden) must still reach each verdict.
//
// -update rewrites the file from the engine: only for an intended change of
// behaviour, which the file's diff then shows verdict by verdict.
var updateVerdicts = flag.Bool("update", false, "rewrite testdata/verdicts.jsonl from the engine (an intended change)")

const verdictsFile = "testdata/verdicts.jsonl"

// goldenPackage is one golden package.
type goldenPackage struct {
	name string
	refs []string
	make func(string) wire.Value
}

var goldenPackages = []goldenPackage{
	{"foundation", foundation.SchemaRefs(), foundation.NewBySchema},
	{"manifest", manifest.SchemaRefs(), manifest.NewBySchema},
	{"maps", maps.SchemaRefs(), maps.NewBySchema},
	{"nullable", nullable.SchemaRefs(), nullable.NewBySchema},
	{"refs", refs.SchemaRefs(), refs.NewBySchema},
	{"unions", unions.SchemaRefs(), unions.NewBySchema},
}

// The file is JSON lines: first {"types": [...]}, the types in the order
// the seed lines list their verdicts ("package schema-ref"); then each
// distinct verdict once, {"verdict": n, ...}; then one line per seed:
// {"seed": n, "json": document, "lenient": [verdict per type], "exact":
// [...]}.
type verdictsHeader struct {
	Types []string `json:"types"`
}

type seedLine struct {
	Seed    int    `json:"seed"`
	JSON    string `json:"json"`
	Lenient []int  `json:"lenient"`
	Exact   []int  `json:"exact"`
}

// verdict is what decoding (and, when it succeeds, encoding) a seed gave.
type verdict struct {
	ID      int             `json:"verdict"`
	Kind    string          `json:"kind,omitempty"`
	Pointer string          `json:"pointer,omitempty"`
	Offset  int             `json:"offset,omitempty"`
	Message string          `json:"message,omitempty"`
	Missing []string        `json:"missing,omitempty"`
	Arms    []wire.ArmError `json:"arms,omitempty"`
	// Error is a failure that is not a *wire.DecodeError.
	Error string `json:"error,omitempty"`
	// Encoded is wire.Marshal's output after a successful decode; Failed
	// says encoding failed instead, with the error in the fields above.
	Encoded string `json:"encoded,omitempty"`
	Failed  bool   `json:"failed,omitempty"`
}

func verdictOf(err error) verdict {
	var de *wire.DecodeError
	if !errors.As(err, &de) {
		return verdict{Error: err.Error()}
	}
	return verdict{Kind: de.Kind.String(), Pointer: de.Pointer, Offset: de.Offset, Message: de.Message,
		Missing: de.Missing, Arms: de.Arms}
}

// judge decodes data as v and says what happened.
func judge(v wire.Value, data []byte, exact bool) verdict {
	if err := wire.UnmarshalOptions(data, v, wire.DecodeOptions{Exact: exact}); err != nil {
		return verdictOf(err)
	}
	out, err := wire.Marshal(v)
	if err != nil {
		e := verdictOf(err)
		e.Failed = true
		return e
	}
	return verdict{Encoded: string(out)}
}

// recorded is the file's content.
type recorded struct {
	types    []string
	verdicts []verdict
	seeds    []seedLine
}

func readVerdicts(t *testing.T) recorded {
	f, err := os.Open(filepath.FromSlash(verdictsFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var r recorded
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		fail := func(format string, args ...any) {
			t.Fatalf("%s:%d: %s", verdictsFile, n, fmt.Sprintf(format, args...))
		}
		var keys map[string]json.RawMessage
		if err := json.Unmarshal(sc.Bytes(), &keys); err != nil {
			fail("%v", err)
		}
		var err error
		switch {
		case n == 1:
			var h verdictsHeader
			err = json.Unmarshal(sc.Bytes(), &h)
			r.types = h.Types
		case keys["verdict"] != nil:
			var v verdict
			err = json.Unmarshal(sc.Bytes(), &v)
			if v.ID != len(r.verdicts) {
				fail("verdict %d out of order", v.ID)
			}
			r.verdicts = append(r.verdicts, v)
		case keys["seed"] != nil:
			var s seedLine
			err = json.Unmarshal(sc.Bytes(), &s)
			if s.Seed != len(r.seeds) || len(s.Lenient) != len(r.types) || len(s.Exact) != len(r.types) {
				fail("seed %d out of order or without a verdict per type", s.Seed)
			}
			for _, id := range append(slices.Clone(s.Lenient), s.Exact...) {
				if id < 0 || id >= len(r.verdicts) {
					fail("no verdict %d", id)
				}
			}
			r.seeds = append(r.seeds, s)
		default:
			fail("neither a verdict nor a seed")
		}
		if err != nil {
			fail("%v", err)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return r
}

// goldenType is one type of the golden packages.
type goldenType struct {
	name string // "package schema-ref"
	make func() wire.Value
}

func goldenTypes() []goldenType {
	var out []goldenType
	for _, p := range goldenPackages {
		for _, ref := range p.refs {
			out = append(out, goldenType{p.name + " " + ref, func() wire.Value { return p.make(ref) }})
		}
	}
	return out
}

// TestV1Verdicts decodes every seed as every golden type and requires the
// recorded verdict.
func TestV1Verdicts(t *testing.T) {
	r := readVerdicts(t)
	types := goldenTypes()
	if *updateVerdicts {
		writeVerdicts(t, r.seeds, types)
		return
	}
	var names []string
	for _, typ := range types {
		names = append(names, typ.name)
	}
	if !slices.Equal(names, r.types) {
		t.Fatalf("the golden types are not the recorded ones (a golden type added or renamed: -update records the engine's verdicts for it):\n got  %q\n want %q", names, r.types)
	}
	accepted := 0
	for _, s := range r.seeds {
		for _, mode := range []struct {
			exact bool
			ids   []int
		}{{false, s.Lenient}, {true, s.Exact}} {
			for i, typ := range types {
				want := r.verdicts[mode.ids[i]]
				want.ID = 0
				v := typ.make()
				if got := judge(v, []byte(s.JSON), mode.exact); !reflect.DeepEqual(got, want) {
					t.Errorf("%s (%T, exact %v) on seed %d %s:\n got  %+v\n want %+v", typ.name, v, mode.exact, s.Seed, s.JSON, got, want)
				}
				if want.Encoded != "" {
					accepted++
				}
			}
		}
	}
	if len(r.seeds) < 50 || accepted < 50 {
		t.Fatalf("%d seeds, %d accepted decodes: the comparison proves little", len(r.seeds), accepted)
	}
	t.Logf("%d seeds × %d types × 2 modes, %d accepted decodes: every recorded verdict holds", len(r.seeds), len(types), accepted)
}

// writeVerdicts records the engine's verdicts on seeds.
func writeVerdicts(t *testing.T, seeds []seedLine, types []goldenType) {
	var verdicts []verdict
	id := func(v verdict) int {
		at := slices.IndexFunc(verdicts, func(w verdict) bool { w.ID = 0; return reflect.DeepEqual(w, v) })
		if at < 0 {
			v.ID = len(verdicts)
			verdicts = append(verdicts, v)
			at = v.ID
		}
		return at
	}
	h := verdictsHeader{}
	for _, typ := range types {
		h.Types = append(h.Types, typ.name)
	}
	for i := range seeds {
		s := &seeds[i]
		s.Lenient, s.Exact = nil, nil
		for _, typ := range types {
			s.Lenient = append(s.Lenient, id(judge(typ.make(), []byte(s.JSON), false)))
			s.Exact = append(s.Exact, id(judge(typ.make(), []byte(s.JSON), true)))
		}
	}
	var buf bytes.Buffer
	line := func(v any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	line(h)
	for _, v := range verdicts {
		line(v)
	}
	for _, s := range seeds {
		line(s)
	}
	if err := os.WriteFile(filepath.FromSlash(verdictsFile), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s: %d seeds, %d distinct verdicts, %s bytes", verdictsFile, len(seeds), len(verdicts), strings.TrimSpace(fmt.Sprint(buf.Len())))
}
