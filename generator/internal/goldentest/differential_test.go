package goldentest

import (
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/adcpgen/adcpgen/generator/testdata/golden/foundation"
	"github.com/adcpgen/adcpgen/generator/testdata/golden/manifest"
	"github.com/adcpgen/adcpgen/generator/testdata/golden/maps"
	"github.com/adcpgen/adcpgen/generator/testdata/golden/nullable"
	"github.com/adcpgen/adcpgen/generator/testdata/golden/refs"
	"github.com/adcpgen/adcpgen/generator/testdata/golden/unions"
	foundation2 "github.com/adcpgen/adcpgen/generator/testdata/golden_split/foundation"
	manifest2 "github.com/adcpgen/adcpgen/generator/testdata/golden_split/manifest"
	maps2 "github.com/adcpgen/adcpgen/generator/testdata/golden_split/maps"
	nullable2 "github.com/adcpgen/adcpgen/generator/testdata/golden_split/nullable"
	refs2 "github.com/adcpgen/adcpgen/generator/testdata/golden_split/refs"
	unions2 "github.com/adcpgen/adcpgen/generator/testdata/golden_split/unions"
	foundation1 "github.com/adcpgen/adcpgen/generator/testdata/golden_v1/foundation"
	manifest1 "github.com/adcpgen/adcpgen/generator/testdata/golden_v1/manifest"
	maps1 "github.com/adcpgen/adcpgen/generator/testdata/golden_v1/maps"
	nullable1 "github.com/adcpgen/adcpgen/generator/testdata/golden_v1/nullable"
	refs1 "github.com/adcpgen/adcpgen/generator/testdata/golden_v1/refs"
	unions1 "github.com/adcpgen/adcpgen/generator/testdata/golden_v1/unions"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// The golden packages under testdata/golden_v1 were generated before the
// engine (wire's GenVersion 1): every type had its own DecodeWire and
// EncodeWire bodies. They are kept, frozen, as the reference the
// descriptor-driven decoders of testdata/golden must agree with on any
// input: the same verdict, the same error (kind, pointer, message, missing
// fields, arms), the same encoding. So must the packages of
// testdata/golden_split, the same schemas generated as a package split in
// two (half of the types declared in its internal/types, re-exported by
// alias).

// goldenPair is one golden package generated three ways.
type goldenPair struct {
	name                string
	refs                []string
	newer, older, split func(string) wire.Value
}

var goldenPairs = []goldenPair{
	{"foundation", foundation.SchemaRefs(), foundation.NewBySchema, foundation1.NewBySchema, foundation2.NewBySchema},
	{"manifest", manifest.SchemaRefs(), manifest.NewBySchema, manifest1.NewBySchema, manifest2.NewBySchema},
	{"maps", maps.SchemaRefs(), maps.NewBySchema, maps1.NewBySchema, maps2.NewBySchema},
	{"nullable", nullable.SchemaRefs(), nullable.NewBySchema, nullable1.NewBySchema, nullable2.NewBySchema},
	{"refs", refs.SchemaRefs(), refs.NewBySchema, refs1.NewBySchema, refs2.NewBySchema},
	{"unions", unions.SchemaRefs(), unions.NewBySchema, unions1.NewBySchema, unions2.NewBySchema},
}

// agree decodes data with both generations of every type and fails on any
// difference; it reports how many types accepted data.
func agree(t *testing.T, data []byte, exact bool) int {
	t.Helper()
	accepted := 0
	for _, p := range goldenPairs {
		for _, ref := range p.refs {
			newer, older, split := p.newer(ref), p.older(ref), p.split(ref)
			opts := wire.DecodeOptions{Exact: exact}
			errNew := wire.UnmarshalOptions(data, newer, opts)
			errOld := wire.UnmarshalOptions(data, older, opts)
			errSplit := wire.UnmarshalOptions(data, split, opts)
			if !sameError(errNew, errOld) || !sameError(errNew, errSplit) {
				t.Fatalf("%s %s (exact %v) on %q:\n engine:    %v\n generated: %v\n split:     %v", p.name, ref, exact, data, errNew, errOld, errSplit)
			}
			if errNew != nil {
				continue
			}
			accepted++
			outNew, errNew := wire.Marshal(newer)
			outOld, errOld := wire.Marshal(older)
			outSplit, errSplit := wire.Marshal(split)
			if string(outNew) != string(outOld) || !sameError(errNew, errOld) || string(outNew) != string(outSplit) || !sameError(errNew, errSplit) {
				t.Fatalf("%s %s on %q encodes differently:\n engine:    %s %v\n generated: %s %v\n split:     %s %v", p.name, ref, data, outNew, errNew, outOld, errOld, outSplit, errSplit)
			}
			jsonNew, errNew := json.Marshal(newer)
			jsonOld, errOld := json.Marshal(older)
			if string(jsonNew) != string(jsonOld) || (errNew == nil) != (errOld == nil) {
				t.Fatalf("%s %s on %q: json.Marshal differs:\n engine:    %s %v\n generated: %s %v", p.name, ref, data, jsonNew, errNew, jsonOld, errOld)
			}
		}
	}
	return accepted
}

func sameError(a, b error) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	var wa, wb *wire.DecodeError
	if !errors.As(a, &wa) || !errors.As(b, &wb) {
		return a.Error() == b.Error()
	}
	return wa.Kind == wb.Kind && wa.Pointer == wb.Pointer && wa.Offset == wb.Offset && wa.Message == wb.Message &&
		reflect.DeepEqual(wa.Missing, wb.Missing) && reflect.DeepEqual(wa.Arms, wb.Arms)
}

// differentialSeeds are the JSON documents of this package's tests, and a
// few values of every JSON type.
func differentialSeeds(t testing.TB) []string {
	seeds := []string{`{}`, `[]`, `null`, `true`, `1`, `1.5`, `"s"`, `{"a":1,"a":2}`, `{"__proto__":{}}`, widget}
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil && len(s) > 1 && json.Valid([]byte(s)) {
					seeds = append(seeds, s)
				}
			}
			return true
		})
	}
	return seeds
}

func TestEngineAgreesWithGeneratedDecoders(t *testing.T) {
	seeds := differentialSeeds(t)
	accepted := 0
	for _, s := range seeds {
		for _, exact := range []bool{false, true} {
			accepted += agree(t, []byte(s), exact)
		}
	}
	if len(seeds) < 50 || accepted < 50 {
		t.Fatalf("only %d seeds and %d accepted decodes: the comparison proves little", len(seeds), accepted)
	}
	t.Logf("%d seeds, %d accepted decodes agree", len(seeds), accepted)
}

func FuzzEngineAgreesWithGeneratedDecoders(f *testing.F) {
	for _, s := range differentialSeeds(f) {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, exact bool) {
		agree(t, data, exact)
	})
}
