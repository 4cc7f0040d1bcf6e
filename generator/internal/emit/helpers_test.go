package emit

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/generator/internal/ir"
	"github.com/adcpgen/adcpgen/generator/internal/schema"
)

func TestFileNames(t *testing.T) {
	tests := []struct {
		docs []string
		want []string
	}{
		{[]string{"core/error.json"}, []string{"core_error_gen.go"}},
		{[]string{"media-buy/get-products-response.json"}, []string{"media_buy_get_products_response_gen.go"}},
		{[]string{"Core/Error.JSON.json"}, []string{"core_error_json_gen.go"}},
		// Names that differ only in punctuation clash: later ones (in the
		// order given, which is path order) are numbered.
		{[]string{"a-b.json", "a_b.json", "a.b.json"}, []string{"a_b_gen.go", "a_b_2_gen.go", "a_b_3_gen.go"}},
		// The registry and package doc files are never taken.
		{[]string{"registry.json", "doc.json"}, []string{"registry_2_gen.go", "doc_gen.go"}},
		{[]string{"-x-.json"}, []string{"x_gen.go"}},
	}
	for _, tc := range tests {
		got := fileNames(tc.docs)
		for i, d := range tc.docs {
			if got[d] != tc.want[i] {
				t.Errorf("fileNames(%q)[%q] = %q, want %q", tc.docs, d, got[d], tc.want[i])
			}
		}
	}
}

func TestSchemaRef(t *testing.T) {
	tests := []struct {
		t    ir.Type
		want string
	}{
		{ir.Type{SchemaID: "/schemas/1/core/a.json", Loc: schema.Loc{File: "core/a.json"}}, "/schemas/1/core/a.json#"},
		{ir.Type{SchemaID: "/schemas/1/core/a.json", Loc: schema.Loc{File: "core/a.json", Pointer: "/properties/x"}}, "/schemas/1/core/a.json#/properties/x"},
		{ir.Type{Loc: schema.Loc{File: "core/a.json", Pointer: "/definitions/d"}}, "core/a.json#/definitions/d"},
	}
	for _, tc := range tests {
		if got := schemaRef(&tc.t); got != tc.want {
			t.Errorf("schemaRef = %q, want %q", got, tc.want)
		}
	}
}

// goType (jennifer) and ir.GoString spell every type expression alike.
func TestGoTypeAndByPointer(t *testing.T) {
	st := &ir.Type{Kind: ir.KindStruct, Name: "Thing"}
	en := &ir.Type{Kind: ir.KindEnum, Name: "Color"}
	un := &ir.Type{Kind: ir.KindUnion, Name: "Choice"}
	raw := &ir.Type{Kind: ir.KindRaw, Name: "Blob"}
	tests := []struct {
		ref     *ir.Ref
		goType  string
		pointer bool // an optional field holds *T
	}{
		{ir.BuiltinRef(ir.String), "string", true},
		{ir.BuiltinRef(ir.Int), "int64", true},
		{ir.BuiltinRef(ir.Float), "float64", true},
		{ir.BuiltinRef(ir.Bool), "bool", true},
		{ir.BuiltinRef(ir.Raw), "json.RawMessage", false},
		{ir.BuiltinRef(ir.DateTime), "wire.DateTime", true},
		{ir.BuiltinRef(ir.Date), "wire.Date", true},
		{ir.NamedRef(st), "Thing", true},
		{ir.NamedRef(en), "Color", true},
		{ir.NamedRef(un), "Choice", false},
		{ir.NamedRef(raw), "Blob", false},
		{ir.SliceOf(ir.NamedRef(st)), "[]Thing", false},
		{ir.MapOf(ir.SliceOf(ir.BuiltinRef(ir.String))), "map[string][]string", false},
		{ir.NullableOf(ir.BuiltinRef(ir.String)), "wire.Nullable[string]", false},
		{ir.NullableOf(ir.NullableOf(ir.NamedRef(st))), "wire.Nullable[Thing]", false},
	}
	for _, tc := range tests {
		if got := fmt.Sprintf("%#v", goType(tc.ref)); got != tc.goType {
			t.Errorf("goType = %s, want %s", got, tc.goType)
		}
		if got := ir.GoString(tc.ref, nil); got != tc.goType {
			t.Errorf("ir.GoString = %s, want %s (the spelling emit writes)", got, tc.goType)
		}
		if got := ir.ByPointer(tc.ref); got != tc.pointer {
			t.Errorf("ir.ByPointer(%s) = %v, want %v", tc.goType, got, tc.pointer)
		}
	}
}

// The Source header line is one line whatever the source string holds.
func TestNewFileHeader(t *testing.T) {
	f := newFile("p", "https://example.com/a.json\n// injected\r\nmore")
	out, err := render("x.go", f)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := bytes.Cut(out.Data, []byte("\npackage p"))
	lines := strings.Split(strings.TrimSpace(string(first)), "\n")
	if len(lines) != 2 || lines[0] != "// "+Header || !strings.HasPrefix(lines[1], "// Source: https://example.com/a.json ") {
		t.Errorf("header:\n%s", first)
	}
}
