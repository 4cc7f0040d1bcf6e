package wire

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/wireimpl"
)

// sample is a hand-written decoder shaped like generated code: required
// "code", optional "retry_after", unknown members kept.
type sample struct {
	Code       string                     `json:"code"`
	RetryAfter *float64                   `json:"retry_after"`
	Tags       []string                   `json:"tags"`
	Extra      map[string]json.RawMessage `json:"-"`
}

var (
	sliceOfSampleTag = wireimpl.Desc{Shape: wireimpl.ShapeSlice, Go: (*[]string)(nil), Elem: &wireimpl.DescString}
	descSample       = wireimpl.Desc{Shape: wireimpl.ShapeStruct, Name: "sample", Go: (*sample)(nil), Members: []wireimpl.Member{
		{Name: "code", Desc: &wireimpl.DescString, Required: true},
		{Name: "retry_after", Desc: &wireimpl.DescFloat},
		{Name: "tags", Desc: &sliceOfSampleTag},
	}}
)

func (*sample) WireDesc() *wireimpl.Desc { return &descSample }

func TestUnmarshalRejects(t *testing.T) {
	deep := strings.Repeat("[", 1000) + strings.Repeat("]", 1000)
	tests := []struct {
		name    string
		in      string
		kind    Kind
		pointer string
		msg     string
	}{
		{"not an object", `[1]`, KindType, "", "want object, got array"},
		{"missing required", `{}`, KindMissing, "", `missing required field "code"`},
		{"wrong type", `{"code":5}`, KindType, "/code", "want string, got number"},
		{"proto key", `{"code":"x","__proto__":{}}`, KindForbiddenKey, "/__proto__", `forbidden key "__proto__"`},
		{"escaped proto key", `{"code":"x","\u005f_proto__":1}`, KindForbiddenKey, "/__proto__", "forbidden key"},
		{"escaped mid proto key", `{"code":"x","__pro\u0074o__":1}`, KindForbiddenKey, "/__proto__", "forbidden key"},
		{"constructor nested in unknown", `{"code":"x","ext":{"a":[{"constructor":1}]}}`, KindForbiddenKey, "/ext/a/0/constructor", "forbidden key"},
		{"prototype", `{"code":"x","prototype":1}`, KindForbiddenKey, "/prototype", "forbidden key"},
		{"duplicate known", `{"code":"x","code":"y"}`, KindDuplicate, "/code", `duplicate key "code"`},
		{"duplicate after unescape", `{"code":"x","c\u006fde":"y"}`, KindDuplicate, "/code", "duplicate key"},
		{"duplicate unknown", `{"code":"x","a":1,"a":2}`, KindDuplicate, "/a", "duplicate key"},
		{"duplicate inside unknown", `{"code":"x","a":{"b":1,"b":2}}`, KindDuplicate, "/a/b", "duplicate key"},
		{"duplicate in big unknown", `{"code":"x","a":{"k1":1,"k2":1,"k3":1,"k4":1,"k5":1,"k6":1,"k7":1,"k8":1,"k9":1,"k3":2}}`, KindDuplicate, "/a/k3", "duplicate key"},
		{"invalid utf8", "{\"code\":\"\xff\"}", KindUTF8, "/code", "invalid UTF-8"},
		{"invalid utf8 in key", "{\"code\":\"x\",\"\xc3\":1}", KindUTF8, "", "invalid UTF-8"},
		{"lone surrogate", `{"code":"\ud800"}`, KindUTF8, "/code", "lone UTF-16 surrogate"},
		{"control char", "{\"code\":\"a\nb\"}", KindSyntax, "/code", "control character"},
		{"trailing data", `{"code":"x"} {}`, KindSyntax, "", "after the top-level value"},
		{"trailing comma", `{"code":"x",}`, KindSyntax, "", "want a string key"},
		{"array trailing comma", `{"code":"x","tags":["a",]}`, KindSyntax, "/tags/0", "trailing ','"},
		{"wrong element type", `{"code":"x","tags":["a",2]}`, KindType, "/tags/1", "want string, got number"},
		{"float overflow", `{"code":"x","retry_after":1e400}`, KindRange, "/retry_after", "out of range"},
		{"bad number", `{"code":"x","retry_after":01}`, KindSyntax, "/retry_after", "want ',' or '}'"},
		{"deep nesting", `{"code":"x","a":` + deep + `}`, KindDepth, "", "nesting deeper than 512"},
		{"empty", ``, KindSyntax, "", "want object, got end of input"},
		{"pointer escapes", `{"code":"x","a/b":{"c~d":[true,nul]}}`, KindSyntax, "/a~1b/c~0d/1", "invalid literal"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var v sample
			err := Unmarshal([]byte(tc.in), &v)
			var we *DecodeError
			if !errors.As(err, &we) {
				t.Fatalf("err = %v, want *DecodeError", err)
			}
			if we.Kind != tc.kind || !strings.HasPrefix(we.Pointer, tc.pointer) || !strings.Contains(we.Message, tc.msg) {
				t.Fatalf("got kind=%s pointer=%q msg=%q; want kind=%s pointer=%q msg containing %q",
					we.Kind, we.Pointer, we.Message, tc.kind, tc.pointer, tc.msg)
			}
			if tc.pointer != "" && we.Pointer != tc.pointer && tc.kind != KindDepth {
				t.Fatalf("pointer = %q, want %q", we.Pointer, tc.pointer)
			}
		})
	}
}

func TestUnmarshalKeepsUnknownAndRoundTrips(t *testing.T) {
	in := `{"code":"RATE_LIMITED","retry_after":5,"zeta":{"x":[1,2.5,"\u00e9"]},"alpha":null,"tags":[]}`
	var v sample
	if err := Unmarshal([]byte(in), &v); err != nil {
		t.Fatal(err)
	}
	if v.Code != "RATE_LIMITED" || v.RetryAfter == nil || *v.RetryAfter != 5 || v.Tags == nil || len(v.Tags) != 0 {
		t.Fatalf("decoded %+v", v)
	}
	out, err := Marshal(&v)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"code":"RATE_LIMITED","retry_after":5,"tags":[],"alpha":null,"zeta":{"x":[1,2.5,"\u00e9"]}}`
	if string(out) != want {
		t.Fatalf("round trip:\n got %s\nwant %s", out, want)
	}
	if err := UnmarshalExact([]byte(in), new(sample)); err == nil || !strings.Contains(err.Error(), "exact mode") {
		t.Fatalf("exact mode accepted an unknown field: %v", err)
	}
}

func TestEncoderEscapesAndNumbers(t *testing.T) {
	e := &Encoder{}
	e.ArrayStart()
	e.String("a\"b\\c\n\x01\xff</>")
	e.Float(1e21)
	e.Float(1e-7)
	e.Float(0.5)
	e.Float(-0)
	e.Int(-42)
	e.ArrayEnd()
	want := `["a\"b\\c\n\u0001\ufffd</>",1e+21,1e-7,0.5,0,-42]`
	if got := string(e.Bytes()); got != want {
		t.Fatalf("got %s\nwant %s", got, want)
	}
	e.Float(math.Inf(1))
	if e.Err() == nil {
		t.Fatal("encoding +Inf did not fail")
	}
}

func TestIntAcceptsIntegralNumbers(t *testing.T) {
	for in, want := range map[string]int64{"1": 1, "-7": -7, "1.0": 1, "2e2": 200, "9223372036854775807": math.MaxInt64} {
		d := NewDecoder([]byte(in), DecodeOptions{})
		got, err := d.Int()
		if err != nil || got != want {
			t.Errorf("Int(%s) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"1.5", "9223372036854775808", `"1"`, "1e400"} {
		d := NewDecoder([]byte(in), DecodeOptions{})
		if _, err := d.Int(); err == nil {
			t.Errorf("Int(%s) accepted", in)
		}
	}
}

func TestProbe(t *testing.T) {
	in := `{"a":{"x":[1,{"y":"}"}]},"status":"sub\u006ditted","ok":true,"n":null}`
	d := NewDecoder([]byte(in), DecodeOptions{})
	p := probe{Keys: []string{"status", "ok", "n", "missing", "a"}}
	if err := d.probeObject(&p); err != nil {
		t.Fatal(err)
	}
	if d.Offset() != 0 {
		t.Fatal("probe consumed input")
	}
	if !p.StringIs(0, "submitted") || !p.BoolIs(1, true) || !p.IsNull(2) || p.Has(3) || p.ValueKind(4) != '{' {
		t.Fatalf("probe = %+v", p.present)
	}
	bad := NewDecoder([]byte(`{"a":[1,2}`), DecodeOptions{})
	if err := bad.probeObject(&p); err == nil {
		t.Fatal("probe accepted malformed input")
	}
}

func TestValid(t *testing.T) {
	if err := Valid([]byte(` {"a":[1,"x",{"b":null}]} `)); err != nil {
		t.Fatal(err)
	}
	if err := Valid([]byte(`{"a":1,"a":2}`)); err == nil {
		t.Fatal("duplicate accepted")
	}
}

func TestNullable(t *testing.T) {
	var absent Nullable[string]
	if !absent.IsAbsent() || absent.IsNull() {
		t.Fatal("zero Nullable is not absent")
	}
	if !Null[string]().IsNull() {
		t.Fatal("Null is not null")
	}
	if v, ok := Some("x").Get(); !ok || v != "x" {
		t.Fatal("Some lost its value")
	}
}

func FuzzUnmarshal(f *testing.F) {
	for _, s := range []string{`{"code":"x"}`, `{"code":"x","a":{"b":[1,2,{"c":null}]}}`, `{"__proto__":1}`, `[`, `{"code":"\ud83d\ude00"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v sample
		err := Unmarshal(data, &v)
		if err != nil {
			var we *DecodeError
			if !errors.As(err, &we) {
				t.Fatalf("non-wire error %T: %v", err, err)
			}
			return
		}
		// Whatever decodes must re-encode to something that decodes equal.
		out, err := Marshal(&v)
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		var again sample
		if err := Unmarshal(out, &again); err != nil {
			t.Fatalf("re-decode of %s: %v", out, err)
		}
		if json.Valid(data) == false {
			t.Fatalf("accepted invalid JSON %q", data)
		}
	})
}

func TestExpectConstSkipsWhitespace(t *testing.T) {
	for _, in := range []string{`"submitted"`, " \n\t\"submitted\"", ` "sub\u006ditted"`} {
		d := NewDecoder([]byte(in), DecodeOptions{})
		if err := d.expectConst(`"submitted"`); err != nil {
			t.Errorf("expectConst(%q): %v", in, err)
		}
	}
	d := NewDecoder([]byte(`  "working"`), DecodeOptions{})
	err := d.expectConst(`"submitted"`)
	if err == nil || !strings.Contains(err.Error(), `want the constant "submitted", got "working"`) {
		t.Fatalf("mismatch: %v", err)
	}
}

// A nil target is the caller's mistake, reported as an error: Unmarshal
// has nowhere to decode to (encoding/json says the same), and Value writes
// a nil value as null.
func TestNilValues(t *testing.T) {
	var p *sample
	for _, v := range []Decodable{nil, p} {
		if err := Unmarshal([]byte(`{"code":"x"}`), v); err == nil || !strings.Contains(err.Error(), "nil") {
			t.Errorf("Unmarshal into %#v: %v", v, err)
		}
	}
	var e Encoder
	e.ArrayStart()
	e.Value(p)
	e.Value(nil)
	e.ArrayEnd()
	if got := string(e.Bytes()); got != "[null,null]" || e.Err() != nil {
		t.Errorf("nil values encode as %s, %v", got, e.Err())
	}
}
