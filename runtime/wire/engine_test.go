package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
	"unsafe"

	"github.com/adcpgen/adcpgen/runtime/wireimpl"
)

const eAllFull = `{"id":"a","count":3,"ratio":0.5,"on":true,"when":"2025-01-02T03:04:05Z","status":"active","level":2,
"kind":"active","mode":"manual","tags":["x","y"],"levels":[1,3],"points":[{"x":1,"y":2}],"grid":[[1,2],[],[3]],
"notes":{"n":{"deep":[1,null]}},"scores":{"a":1.5},"places":{"p":{"x":0,"y":-1}},"nested":{"o":{"i":{"x":5,"y":6}},"e":{}},
"nick":null,"where":{"x":7,"y":8},"maybe":[1,null,3],"shape":{"kind":"square","side":2},"value":[ "s" ],
"result":{"errors":["bad"]},"either":"anything","any":{"k":[true]},"home":{"x":9,"y":10},
"tree":{"name":"root","children":[{"name":"kid","parent":{"name":"up"}}]},"codes":["plz","\u0070lz"],"x_one":1,"zzz":{"kept":1}}`

func decodeAll(t *testing.T, in string, exact bool) (*eAll, error) {
	t.Helper()
	var v eAll
	return &v, UnmarshalOptions([]byte(in), &v, DecodeOptions{Exact: exact})
}

func TestEngineDecodesEveryShape(t *testing.T) {
	v, err := decodeAll(t, eAllFull, false)
	if err != nil {
		t.Fatal(err)
	}
	switch {
	case v.ID != "a" || *v.Count != 3 || *v.Ratio != 0.5 || !*v.On || *v.When != "2025-01-02T03:04:05Z":
		t.Errorf("scalars: %+v", v)
	case *v.Status != "active" || *v.Level != 2 || *v.Mode != "manual":
		t.Errorf("enums and consts: %v %v %v", *v.Status, *v.Level, *v.Mode)
	case !reflect.DeepEqual(v.Tags, []string{"x", "y"}) || !reflect.DeepEqual(v.Levels, []eLevel{1, 3}):
		t.Errorf("slices: %v %v", v.Tags, v.Levels)
	case !reflect.DeepEqual(v.Points, []ePoint{{1, 2}}) || !reflect.DeepEqual(v.Grid, [][]float64{{1, 2}, {}, {3}}):
		t.Errorf("slices of structs and slices: %v %v", v.Points, v.Grid)
	case string(v.Notes["n"]) != `{"deep":[1,null]}` || v.Scores["a"] != 1.5 || v.Places["p"] != (ePoint{0, -1}):
		t.Errorf("maps: %v %v %v", v.Notes, v.Scores, v.Places)
	case v.Nested["o"]["i"] != (ePoint{5, 6}) || v.Nested["e"] == nil || len(v.Nested) != 2:
		t.Errorf("nested maps: %v", v.Nested)
	case !v.Nick.IsNull():
		t.Errorf("nick: %+v", v.Nick)
	case func() bool { p, ok := v.Where.Get(); return !ok || p != (ePoint{7, 8}) }():
		t.Errorf("where: %+v", v.Where)
	case len(v.Maybe) != 3 || !v.Maybe[1].IsNull() || func() bool { n, ok := v.Maybe[2].Get(); return !ok || n != 3 }():
		t.Errorf("maybe: %+v", v.Maybe)
	case v.Shape.Square == nil || v.Shape.Square.Side != 2 || v.Shape.Circle != nil:
		t.Errorf("shape: %+v", v.Shape)
	case !reflect.DeepEqual(v.Value.List, []string{"s"}):
		t.Errorf("value: %+v", v.Value)
	case v.Result.Failure == nil || v.Result.Failure.Errors[0] != "bad":
		t.Errorf("result: %+v", v.Result)
	case string(v.Either.Raw) != `"anything"` || v.Either.Point != nil:
		t.Errorf("either: %+v", v.Either)
	case string(v.Any) != `{"k":[true]}` || v.Home != (ePoint{9, 10}):
		t.Errorf("any, home: %s %v", v.Any, v.Home)
	case v.Tree.Name != "root" || v.Tree.Children[0].Parent.Name != "up":
		t.Errorf("tree: %+v", v.Tree)
	case !reflect.DeepEqual(v.Codes, []string{"plz", "plz"}):
		t.Errorf("const items: %v", v.Codes)
	case v.Matching["x_one"] != 1 || string(v.Extra["zzz"]) != `{"kept":1}`:
		t.Errorf("patterns and extra: %v %v", v.Matching, v.Extra)
	}
	out, err := Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	again, err := decodeAll(t, string(out), false)
	if err != nil {
		t.Fatalf("re-decode %s: %v", out, err)
	}
	if !reflect.DeepEqual(v, again) {
		t.Fatalf("round trip differs:\n%+v\n%+v", v, again)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, out); err != nil || compact.String() != string(out) {
		t.Fatalf("output is not compact JSON: %s", out)
	}
}

func TestEngineEncodesInMemberOrder(t *testing.T) {
	v := eAll{ID: "i", Home: ePoint{1, 2}, Tags: []string{}, Nick: Some("n"), Maybe: []Nullable[int64]{Null[int64](), Some[int64](4)},
		Shape: eShape{Circle: &eCircle{R: 1}}, Matching: map[string]int64{"x_b": 2, "x_a": 1}, Extra: map[string]json.RawMessage{"z": []byte(` [ 1 ] `)},
		Places: map[string]ePoint{"b": {3, 4}, "a": {1, 2}}}
	out, err := Marshal(&v)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"i","kind":"active","tags":[],"places":{"a":{"x":1,"y":2},"b":{"x":3,"y":4}},"nick":"n","maybe":[null,4],` +
		`"shape":{"kind":"circle","r":1},"home":{"x":1,"y":2},"x_a":1,"x_b":2,"z":[1]}`
	if string(out) != want {
		t.Fatalf("got  %s\nwant %s", out, want)
	}
}

// An encoding failure names the value it happened at: the first one wins,
// and its pointer is built from the members, indexes and keys around it.
func TestEngineEncodeErrors(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(-1)
	for _, c := range []struct {
		name    string
		v       Encodable
		kind    Kind
		pointer string
		msg     string
	}{
		{"two arms", &eShape{Circle: &eCircle{}, Square: &eSquare{}}, KindUnion, "", "eShape: 2 variants set"},
		{"no arm", new(eShape), KindUnion, "", "eShape: no variant set"},
		{"declared extra key", &eAll{ID: "i", Extra: map[string]json.RawMessage{"id": []byte(`1`)}}, KindDuplicate, "/id", `extra member "id" duplicates a declared field`},
		{"forbidden map key", &eAll{ID: "i", Places: map[string]ePoint{"__proto__": {}}}, KindForbiddenKey, "/places/__proto__", "forbidden key"},
		{"NaN member", &eAll{ID: "i", Ratio: &nan}, KindRange, "/ratio", "cannot encode NaN as JSON"},
		{"infinite member of a required struct", &eAll{ID: "i", Home: ePoint{Y: inf}}, KindRange, "/home/y", "cannot encode -Inf as JSON"},
		{"NaN in a slice of structs", &eAll{ID: "i", Points: []ePoint{{}, {}, {X: nan}}}, KindRange, "/points/2/x", "NaN"},
		{"NaN in nested slices", &eAll{ID: "i", Grid: [][]float64{{1}, {2, nan}}}, KindRange, "/grid/1/1", "NaN"},
		{"NaN in a map of floats", &eAll{ID: "i", Scores: map[string]float64{"a": 1, "b/~": nan}}, KindRange, "/scores/b~1~0", "NaN"},
		{"NaN in a map of maps", &eAll{ID: "i", Nested: map[string]map[string]ePoint{"n": {"m": {X: nan}}}}, KindRange, "/nested/n/m/x", "NaN"},
		{"NaN in a nullable", &eAll{ID: "i", Where: Some(ePoint{X: nan})}, KindRange, "/where/x", "NaN"},
		{"NaN in a union arm", &eAll{ID: "i", Value: eValue{Num: &nan}}, KindRange, "/value", "NaN"},
		{"raw JSON with a duplicate key", &eAll{ID: "i", Notes: map[string]json.RawMessage{"n": []byte(`{"a":1,"a":2}`)}}, KindDuplicate, "/notes/n/a", "duplicate key"},
		{"raw member that is not JSON", &eAll{ID: "i", Any: []byte(`{`)}, KindSyntax, "/any", ""},
		{"the first failure wins", &eAll{ID: "i", Ratio: &nan, Home: ePoint{X: nan}}, KindRange, "/ratio", "NaN"},
		{"a key pattern's map, then extra members", &eAll{ID: "i", Matching: map[string]int64{"id": 1}, Extra: map[string]json.RawMessage{"__proto__": []byte(`1`)}},
			KindDuplicate, "/id", `extra member "id" duplicates a declared field`},
		{"typed extra members", &eTyped{Rest: map[string]ePoint{"p": {X: nan}}}, KindRange, "/p/x", "NaN"},
		{"a required pointer left nil", &eLink{}, KindMissing, "", `eLink: required field "next" is nil`},
		{"a required pointer left nil, nested", &eLink{Next: &eLink{}}, KindMissing, "/next", `eLink: required field "next" is nil`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Marshal(c.v)
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("Marshal = %v, want a *DecodeError", err)
			}
			if de.Kind != c.kind || de.Pointer != c.pointer || !strings.Contains(de.Message, c.msg) {
				t.Errorf("got %v %q %q, want %v %q containing %q", de.Kind, de.Pointer, de.Message, c.kind, c.pointer, c.msg)
			}
		})
	}
	// The encoder reused from the pool starts without the last failure's place.
	if _, err := Marshal(&eAll{ID: "i", Home: ePoint{}}); err != nil {
		t.Errorf("after a failure: %v", err)
	}
}

func TestEngineRejects(t *testing.T) {
	tests := []struct {
		name, in     string
		exact        bool
		kind         Kind
		pointer, in2 string
	}{
		{"missing required, all at once", `{"kind":"active"}`, false, KindMissing, "", `missing required fields "id", "home"`},
		{"duplicate member", `{"id":"a","id":"b"}`, false, KindDuplicate, "/id", `duplicate key "id"`},
		{"escaped duplicate", `{"id":"a","\u0069d":"b"}`, false, KindDuplicate, "/id", `duplicate key "id"`},
		{"escaped proto in kept member", `{"zzz":{"\u005f_proto__":1}}`, false, KindForbiddenKey, "/zzz/__proto__", "forbidden key"},
		{"proto in a map", `{"places":{"constructor":{}}}`, false, KindForbiddenKey, "/places/constructor", "forbidden key"},
		{"duplicate map key", `{"scores":{"a":1,"a":2}}`, false, KindDuplicate, "/scores/a", "duplicate"},
		{"duplicate reflected map key", `{"places":{"a":{"x":1,"y":1},"a":{"x":1,"y":1}}}`, false, KindDuplicate, "/places/a", "duplicate"},
		{"duplicate pattern key", `{"x_a":1,"x_a":2}`, false, KindDuplicate, "/x_a", "duplicate"},
		{"wrong type", `{"count":"3"}`, false, KindType, "/count", "want integer, got string"},
		{"wrong element type", `{"points":[{"x":1,"y":"2"}]}`, false, KindType, "/points/0/y", "want number"},
		{"fixed const", `{"kind":"paused"}`, false, KindConst, "/kind", `want the constant "active", got "paused"`},
		{"optional const", `{"mode":"auto"}`, false, KindConst, "/mode", `want the constant "manual"`},
		{"const items", `{"codes":["plz","zip"]}`, false, KindConst, "/codes/1", `want the constant "plz", got "zip"`},
		{"unknown field in a closed struct", `{"home":{"x":1,"y":2,"z":3}}`, false, KindUnknownField, "/home/z", `unknown field "z"`},
		{"unknown field, exact", `{"id":"a","kind":"active","home":{"x":1,"y":2},"zzz":1}`, true, KindUnknownField, "/zzz", "exact mode"},
		{"unknown enum, exact", `{"id":"a","kind":"active","home":{"x":1,"y":2},"status":"gone"}`, true, KindUnknownEnum, "/status", `unknown enum value "gone" (want one of "active", "paused")`},
		{"unknown int enum, exact", `{"id":"a","kind":"active","home":{"x":1,"y":2},"level":4}`, true, KindUnknownEnum, "/level", `unknown enum value "4"`},
		{"no arm for the discriminator", `{"shape":{"kind":"hex"}}`, false, KindUnion, "/shape", "eShape: no arm for kind=\"hex\""},
		{"missing discriminator", `{"shape":{}}`, false, KindUnion, "/shape", `missing discriminator "kind"`},
		{"no arm by kind", `{"value":true}`, false, KindType, "/value", "want string or number or array or object, got boolean"},
		{"no arm by presence", `{"result":{"data":1,"errors":[]}}`, false, KindUnion, "/result", "eResult: the payload matches no arm; Success: has \"errors\""},
		{"trial arms all fail", `{"either":{"x":1,"__proto__":2}}`, false, KindUnion, "/either", `eEither: the value matches no arm; Point: /either/__proto__: forbidden key "__proto__"; Raw: `},
		{"null where not nullable", `{"tags":null}`, false, KindType, "/tags", "want array, got null"},
		{"int out of range", `{"count":9223372036854775808}`, false, KindRange, "/count", "does not fit in int64"},
		{"deep union arm", `{"result":{"errors":[1]}}`, false, KindType, "/result/errors/0", "want string"},
		{"required in recursion", `{"tree":{"children":[{}]}}`, false, KindMissing, "/tree/children/0", `missing required field "name"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decodeAll(t, tc.in, tc.exact)
			var we *DecodeError
			if !errors.As(err, &we) {
				t.Fatalf("err = %v", err)
			}
			if we.Kind != tc.kind || we.Pointer != tc.pointer || !strings.Contains(we.Error(), tc.in2) {
				t.Fatalf("got %s at %q: %v; want %s at %q containing %q", we.Kind, we.Pointer, we, tc.kind, tc.pointer, tc.in2)
			}
		})
	}
}

func TestEngineExactAcceptsKnown(t *testing.T) {
	if _, err := decodeAll(t, `{"id":"a","kind":"active","home":{"x":1,"y":2},"status":"paused","level":3,"x_k":1}`, true); err != nil {
		t.Fatal(err)
	}
}

func TestEngineResetsTarget(t *testing.T) {
	v := eAll{ID: "old", Tags: []string{"old"}, Count: new(int64)}
	if err := Unmarshal([]byte(`{"id":"new","kind":"active","home":{"x":1,"y":2}}`), &v); err != nil {
		t.Fatal(err)
	}
	if v.ID != "new" || v.Tags != nil || v.Count != nil {
		t.Fatalf("decoding did not start from the zero value: %+v", v)
	}
}

func TestEngineTrialUnionResetsBetweenArms(t *testing.T) {
	var u eEither
	if err := Unmarshal([]byte(`{"x":1}`), &u); err != nil {
		t.Fatal(err)
	}
	if u.Point != nil || string(u.Raw) != `{"x":1}` {
		t.Fatalf("a failed arm left state behind: %+v", u)
	}
	var fails *DecodeError
	if err := Unmarshal([]byte(`[`), &u); !errors.As(err, &fails) || fails.Kind != KindUnion || len(fails.Arms) != 2 {
		t.Fatalf("every arm failing: %v", err)
	}
}

func TestEngineTypedExtraAndQuotedKeys(t *testing.T) {
	in := `{"quo\"te":"q","tab\there":"plz","p":{"x":1,"y":2}}`
	var v eTyped
	if err := Unmarshal([]byte(in), &v); err != nil {
		t.Fatal(err)
	}
	if *v.Quote != "q" || v.Rest["p"] != (ePoint{1, 2}) {
		t.Fatalf("%+v", v)
	}
	out, err := Marshal(&v)
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != `{"quo\"te":"q","tab\there":"plz","p":{"x":1,"y":2}}` {
		t.Fatalf("got %s", out)
	}
	var bad eTyped
	err = Unmarshal([]byte(`{"tab\there":"plz","p":{"x":1}}`), &bad)
	var we *DecodeError
	if !errors.As(err, &we) || we.Pointer != "/p" || we.Kind != KindMissing {
		t.Fatalf("typed extra member: %v", err)
	}
}

func TestEngineEnums(t *testing.T) {
	if !descEStatus.Known("paused") || descEStatus.Known("gone") {
		t.Error("Known")
	}
	if !descELevel.KnownInt(3) || descELevel.KnownInt(4) {
		t.Error("KnownInt: an integer enum listing 3.0 lists 3")
	}
	if got := wireimpl.EnumValues[eStatus](&descEStatus); !reflect.DeepEqual(got, []eStatus{"active", "paused"}) {
		t.Errorf("EnumValues = %v", got)
	}
	if got := wireimpl.EnumInts[eLevel](&descELevel); !reflect.DeepEqual(got, []eLevel{1, 2, 3}) {
		t.Errorf("EnumInts = %v", got)
	}
}

// A Desc that disagrees with its Go type is a generator bug: the engine
// says so on first use rather than reading the wrong memory.
func TestEngineChecksDescAgainstGoType(t *testing.T) {
	type two struct {
		A string `json:"a"`
		B string `json:"b"`
	}
	cases := map[string]*wireimpl.Desc{
		"wrong tag":      {Shape: wireimpl.ShapeStruct, Name: "two", Go: (*two)(nil), Members: []wireimpl.Member{{Name: "a", Desc: &wireimpl.DescString}, {Name: "c", Desc: &wireimpl.DescString}}, Extra: wireimpl.ExtraReject},
		"too few fields": {Shape: wireimpl.ShapeStruct, Name: "two", Go: (*two)(nil), Members: []wireimpl.Member{{Name: "a", Desc: &wireimpl.DescString}}, Extra: wireimpl.ExtraReject},
		"no Go type":     {Shape: wireimpl.ShapeSlice, Elem: &wireimpl.DescString},
	}
	for name, desc := range cases {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Fatal("no panic")
				}
			}()
			infos(desc)
		})
	}
}

// First uses of a Desc may race; each computes the same information and
// one is kept (run with -race).
func TestEngineConcurrentFirstUse(t *testing.T) {
	fresh := func() *wireimpl.Desc {
		return &wireimpl.Desc{Shape: wireimpl.ShapeStruct, Name: "ePoint", Go: (*ePoint)(nil), Members: []wireimpl.Member{
			{Name: "x", Desc: &wireimpl.DescFloat, Required: true}, {Name: "y", Desc: &wireimpl.DescFloat, Required: true}}, Extra: wireimpl.ExtraReject}
	}
	desc := fresh()
	done := make(chan error)
	for range 8 {
		go func() {
			var p ePoint
			d := NewDecoder([]byte(`{"x":1,"y":2}`), DecodeOptions{})
			done <- d.decodeValue(unsafe.Pointer(&p), desc)
		}()
	}
	for range 8 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

// The engine never panics on any input; whatever it accepts re-encodes
// to JSON it decodes back to an equal value, in both modes.
func FuzzEngine(f *testing.F) {
	for _, s := range append(fuzzSeeds, eAllFull, `{"id":"a","kind":"active","home":{"x":1,"y":2}}`,
		`{"shape":{"kind":"circle","r":1}}`, `{"result":{"data":null}}`, `{"either":{"x":1,"y":2}}`,
		`{"tree":{"name":"a","children":[{"name":"b","children":[]}]}}`, `{"nested":{"a":{"b":{"x":1,"y":1}},"a":{}}}`) {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, exact bool) {
		for _, fresh := range []func() Value{
			func() Value { return new(eAll) }, func() Value { return new(eTyped) }, func() Value { return new(eNode) },
			func() Value { return new(eResult) }, func() Value { return new(eEither) }, func() Value { return new(eValue) },
		} {
			v := fresh()
			err := UnmarshalOptions(data, v, DecodeOptions{Exact: exact})
			if err != nil {
				asWireError(t, err, data)
				continue
			}
			if Valid(data) != nil {
				t.Fatalf("%T accepts %q, which Valid rejects", v, data)
			}
			out, err := Marshal(v)
			if err != nil {
				t.Fatalf("%T decoded %q but does not encode: %v", v, data, err)
			}
			again := fresh()
			if err := UnmarshalOptions(out, again, DecodeOptions{Exact: exact}); err != nil {
				t.Fatalf("%T: %q re-encodes as %s, which does not decode: %v", v, data, out, err)
			}
			if !reflect.DeepEqual(v, again) {
				t.Fatalf("%T: %q re-encodes as %s, which decodes differently", v, data, out)
			}
		}
	})
}
