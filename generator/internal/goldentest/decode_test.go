package goldentest

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/generator/testdata/golden/foundation"
	"github.com/adcpgen/adcpgen/generator/testdata/golden/maps"
	"github.com/adcpgen/adcpgen/generator/testdata/golden/refs"
	"github.com/adcpgen/adcpgen/generator/testdata/golden/unions"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// rejects asserts a strict decode failure of the given kind at pointer,
// with msg in the message.
func rejects(t *testing.T, err error, kind wire.Kind, pointer, msg string) {
	t.Helper()
	var we *wire.DecodeError
	if !errors.As(err, &we) {
		t.Fatalf("err = %v, want a *wire.DecodeError", err)
	}
	if we.Kind != kind || we.Pointer != pointer || !strings.Contains(we.Error(), msg) {
		t.Fatalf("got %s at %q: %v; want %s at %q containing %q", we.Kind, we.Pointer, we, kind, pointer, msg)
	}
}

// roundTrip decodes, re-encodes and decodes again; both decodes must agree.
func roundTrip[T any, PT interface {
	*T
	wire.Value
}](t *testing.T, in string) (*T, string) {
	t.Helper()
	v := PT(new(T))
	if err := wire.Unmarshal([]byte(in), v); err != nil {
		t.Fatalf("decode %s: %v", in, err)
	}
	out, err := wire.Marshal(v)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	again := PT(new(T))
	if err := wire.Unmarshal(out, again); err != nil {
		t.Fatalf("re-decode %s: %v", out, err)
	}
	out2, _ := wire.Marshal(again)
	if string(out) != string(out2) {
		t.Fatalf("round trip unstable:\n%s\n%s", out, out2)
	}
	return (*T)(v), string(out)
}

const widget = `{"id":"w1","owner":{"name":"Ann","age":41,"nick":"a"},"status":"active","count":3,"price":9.5,
  "tags":[],"created_at":"2025-01-22T10:30:00.000+02:00","kind":"doo-hickey","level":2,"nickname":null,
  "notes":{"x":[1,{"y":null}]},"ext":{"vendor":{"k":"v"}},"mode":"manual","dimensions":{"width":1,"height":2},
  "measurements":[{"value":3,"unit":"cm"}],"anything":{"free":true},"type":"t"}`

func TestFoundationStructs(t *testing.T) {
	w, out := roundTrip[foundation.Widget](t, widget)
	if w.ID != "w1" || *w.Count != 3 || w.Owner.Name != "Ann" || w.Owner.Age != 41 || *w.Kind != foundation.WidgetKindDooHickey {
		t.Fatalf("decoded %+v", w)
	}
	if w.Tags == nil || len(w.Tags) != 0 {
		t.Fatal("a present empty array must decode to a non-nil empty slice")
	}
	if !w.Nickname.IsNull() {
		t.Fatal("nickname: null must stay null")
	}
	if string(w.Owner.AdditionalProperties["nick"]) != `"a"` || string(w.Ext["vendor"]) != `{"k":"v"}` {
		t.Fatal("unknown members of open objects must be kept")
	}
	if got, _ := w.CreatedAt.Time(); got.IsZero() || string(*w.CreatedAt) != "2025-01-22T10:30:00.000+02:00" {
		t.Fatal("date-time must keep its exact text and parse")
	}
	for _, want := range []string{`"status":"active"`, `"nickname":null`, `"nick":"a"`, `"created_at":"2025-01-22T10:30:00.000+02:00"`} {
		if !strings.Contains(out, want) {
			t.Fatalf("re-encoded %s lacks %s", out, want)
		}
	}

	var absent foundation.Widget
	if err := json.Unmarshal([]byte(`{"id":"w","owner":{"name":"n","age":1},"status":"active"}`), &absent); err != nil {
		t.Fatal(err)
	}
	if !absent.Nickname.IsAbsent() || absent.Count != nil || absent.Tags != nil {
		t.Fatal("absent fields must stay absent")
	}

	// An unknown enum value decodes (forward compatibility) but not in exact mode.
	var w2 foundation.Widget
	in := strings.Replace(strings.Replace(widget, `"doo-hickey"`, `"thingamajig"`, 1), `,"nick":"a"`, "", 1)
	if err := foundation.Decode([]byte(in), &w2); err != nil || w2.Kind.IsKnown() {
		t.Fatalf("unknown enum value: %v, known=%v", err, w2.Kind.IsKnown())
	}
	rejects(t, foundation.DecodeExact([]byte(in), &w2), wire.KindUnknownEnum, "/kind", `"thingamajig"`)
}

func TestFoundationRejects(t *testing.T) {
	cases := []struct {
		name, in     string
		kind         wire.Kind
		pointer, msg string
	}{
		{"every missing field at once", `{"status":"active"}`, wire.KindMissing, "", `missing required fields "id", "owner"`},
		{"nested missing", `{"id":"w","status":"active","owner":{"age":1}}`, wire.KindMissing, "/owner", `"name"`},
		{"wrong type", `{"id":7,"owner":{"name":"n","age":1},"status":"active"}`, wire.KindType, "/id", "want string, got number"},
		{"wrong const", `{"id":"w","owner":{"name":"n","age":1},"status":"retired"}`, wire.KindConst, "/status", `want the constant "active"`},
		{"unknown field under additionalProperties:false", `{"id":"w","owner":{"name":"n","age":1},"status":"active","colour":"red"}`, wire.KindUnknownField, "/colour", `unknown field "colour"`},
		{"proto in open object", `{"id":"w","owner":{"name":"n","age":1},"status":"active","ext":{"a":{"__proto__":{}}}}`, wire.KindForbiddenKey, "/ext/a/__proto__", "forbidden key"},
		{"escaped proto in raw", `{"id":"w","owner":{"name":"n","age":1},"status":"active","anything":{"\u005f_proto__":1}}`, wire.KindForbiddenKey, "/anything/__proto__", "forbidden key"},
		{"constructor in kept member", `{"id":"w","owner":{"name":"n","age":1,"x":{"constructor":1}},"status":"active"}`, wire.KindForbiddenKey, "/owner/x/constructor", "forbidden key"},
		{"duplicate", `{"id":"w","id":"v","owner":{"name":"n","age":1},"status":"active"}`, wire.KindDuplicate, "/id", `duplicate key "id"`},
		{"integer enum wrong type", `{"id":"w","owner":{"name":"n","age":1},"status":"active","level":"2"}`, wire.KindType, "/level", "want integer"},
		{"non-integer integer", `{"id":"w","owner":{"name":"n","age":1.5},"status":"active"}`, wire.KindType, "/owner/age", "want integer, got 1.5"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var w foundation.Widget
			rejects(t, json.Unmarshal([]byte(tc.in), &w), tc.kind, tc.pointer, tc.msg)
		})
	}
}

func TestRecursiveType(t *testing.T) {
	n, _ := roundTrip[foundation.TreeNode](t, `{"label":"a","root":{"label":"r","root":null},"children":[{"label":"c","root":null}]}`)
	if r, ok := n.Root.Get(); !ok || r.Label != "r" || len(n.Children) != 1 {
		t.Fatalf("decoded %+v", n)
	}
	var deep foundation.TreeNode
	in := strings.Repeat(`{"label":"x","root":`, 600) + `null` + strings.Repeat(`}`, 600)
	err := json.Unmarshal([]byte(in), &deep)
	var we *wire.DecodeError
	if !errors.As(err, &we) || we.Kind != wire.KindDepth || strings.Count(we.Pointer, "/root") != 512 || len(err.Error()) > 200 {
		t.Fatalf("deep nesting: %v", err)
	}
}

func TestPresenceUnion(t *testing.T) {
	var r unions.CreateOrderResponse
	if err := json.Unmarshal([]byte(`{"order_id":"o1","lines":["a"],"confirmed_at":null,"context_id":"c"}`), &r); err != nil || r.Success == nil {
		t.Fatalf("success: %v %+v", err, r)
	}
	if r.Variant() != "Success" || r.Success.ContextID == nil || !r.Success.ConfirmedAt.IsNull() {
		t.Fatalf("success arm must carry the envelope fields: %+v", r.Success)
	}
	if err := json.Unmarshal([]byte(`{"errors":[{"code":"RATE_LIMITED"}]}`), &r); err != nil || r.Error == nil || r.Success != nil {
		t.Fatalf("error arm: %v %+v", err, r)
	}
	if err := json.Unmarshal([]byte(`{"status":"submitted","task_id":"t1"}`), &r); err != nil || r.Submitted == nil {
		t.Fatalf("submitted arm: %v %+v", err, r)
	}
	err := json.Unmarshal([]byte(`{"order_id":"o","lines":[],"errors":[{"code":"X"}]}`), &r)
	rejects(t, err, wire.KindUnion, "", "matches no arm")
	if !strings.Contains(err.Error(), `Success: has "errors", which this arm forbids`) || !strings.Contains(err.Error(), `Error: has "order_id"`) {
		t.Fatalf("the error must say why each arm failed: %v", err)
	}
	if err := json.Unmarshal([]byte(`{"errors":[{"code":"X"}],"status":"submitted","task_id":"t"}`), &r); err != nil || r.Submitted == nil {
		t.Fatalf("submitted with errors is the submitted arm: %v %+v", err, r)
	}
	rejects(t, json.Unmarshal([]byte(`{"errors":[{"code":"X"}],"status":"submitted"}`), &r),
		wire.KindUnion, "", `Error: "status" is "submitted", which this arm forbids; Submitted: missing "task_id"`)
	rejects(t, json.Unmarshal([]byte(`[]`), &r), wire.KindType, "", "want object, got array")

	out, err := json.Marshal(unions.NewCreateOrderResponseSubmitted(unions.CreateOrderSubmitted{TaskID: "t9"}))
	if err != nil || string(out) != `{"status":"submitted","task_id":"t9"}` {
		t.Fatalf("encode submitted: %s %v", out, err)
	}
	if _, err := json.Marshal(unions.CreateOrderResponse{}); err == nil || !strings.Contains(err.Error(), "no variant set") {
		t.Fatalf("encoding an empty union must fail: %v", err)
	}
}

// Payloads as people and servers format them: spaces and newlines around
// every token, consts included.
func TestSpacedPayloads(t *testing.T) {
	var r unions.CreateOrderResponse
	if err := json.Unmarshal([]byte("{\n  \"status\" : \"submitted\" ,\n  \"task_id\": \"t1\"\n}\n"), &r); err != nil || r.Submitted == nil {
		t.Fatalf("submitted with spaces: %v", err)
	}
	var a unions.AudienceSelector
	if err := json.Unmarshal([]byte(`{ "type": "signal", "value_type": "binary", "signal_id": "s", "value": true }`), &a); err != nil || a.SignalBinary == nil {
		t.Fatalf("fixed members with spaces: %v", err)
	}
	var w foundation.Widget
	if err := json.Unmarshal([]byte(`{ "id": "w", "owner": { "name": "n", "age": 1 }, "status": "active", "mode": "manual" }`), &w); err != nil || *w.Mode != "manual" {
		t.Fatalf("consts with spaces: %v", err)
	}
}

func TestConstDiscriminators(t *testing.T) {
	var p unions.PricingOption
	if err := json.Unmarshal([]byte(`{"rate":2.5,"pricing_model":"cpm"}`), &p); err != nil || p.CPM == nil || p.CPM.Rate != 2.5 {
		t.Fatalf("cpm: %v %+v", err, p)
	}
	if err := json.Unmarshal([]byte(`{"pricing_model":"fl\u0061t_rate","amount":100}`), &p); err != nil || p.FlatRate == nil {
		t.Fatalf("escaped discriminator: %v %+v", err, p)
	}
	rejects(t, json.Unmarshal([]byte(`{"pricing_model":"cpc"}`), &p), wire.KindUnion, "", `no arm for pricing_model="cpc"`)
	rejects(t, json.Unmarshal([]byte(`{"rate":1}`), &p), wire.KindUnion, "", `missing discriminator "pricing_model"`)

	var u unions.UpdateResponse
	if err := json.Unmarshal([]byte(`{"success":false,"errors":[]}`), &u); err != nil || u.Failure == nil {
		t.Fatalf("boolean discriminator: %v %+v", err, u)
	}
	if err := json.Unmarshal([]byte(`{"success":true,"id":"x"}`), &u); err != nil || u.Success == nil {
		t.Fatalf("boolean discriminator: %v %+v", err, u)
	}

	var a unions.AudienceSelector
	if err := json.Unmarshal([]byte(`{"type":"signal","value_type":"categorical","signal_id":"s","values":["a"]}`), &a); err != nil || a.SignalCategorical == nil {
		t.Fatalf("compound: %v %+v", err, a)
	}
	if err := json.Unmarshal([]byte(`{"type":"description","description":"d"}`), &a); err != nil || a.Description == nil {
		t.Fatalf("compound, second level absent: %v %+v", err, a)
	}
	rejects(t, json.Unmarshal([]byte(`{"type":"signal","value_type":"numeric","signal_id":"s"}`), &a), wire.KindUnion, "", `type="signal", value_type="numeric"`)
	rejects(t, json.Unmarshal([]byte(`{"type":"signal","value_type":"binary","signal_id":"s","value":true,"extra":1}`), &a),
		wire.KindUnknownField, "/extra", `unknown field "extra"`)
}

func TestPrimitiveUnionsAndNullables(t *testing.T) {
	v, _ := roundTrip[unions.Values](t, `{"tagline":["a","b"],"voice":{"languages":["en"]},"version":"1.2","feature_value":null,"note":"n","last_error":{"code":"E"},"count":12}`)
	if len(v.Tagline.Array) != 2 || v.Voice.Object == nil || v.Version.String == nil || !v.FeatureValue.IsNull() || v.Count.Integer == nil {
		t.Fatalf("decoded %+v", v)
	}
	if e, ok := v.LastError.Get(); !ok || e.Code != "E" {
		t.Fatal("anyOf [null, $ref] must type the value with the referenced type")
	}
	v, _ = roundTrip[unions.Values](t, `{"tagline":"one","voice":true,"version":3,"feature_value":2.5,"count":"unlimited"}`)
	if v.Tagline.String == nil || v.Voice.Bool == nil || v.Version.Number == nil || v.Count.String == nil || !v.Note.IsAbsent() {
		t.Fatalf("decoded %+v", v)
	}
	if fv, ok := v.FeatureValue.Get(); !ok || fv.Number == nil || *fv.Number != 2.5 {
		t.Fatal("feature_value")
	}
	var bad unions.Values
	rejects(t, json.Unmarshal([]byte(`{"version":true}`), &bad), wire.KindType, "/version", "want string or number, got boolean")
	rejects(t, json.Unmarshal([]byte(`{"count":1.5}`), &bad), wire.KindType, "/count", "want integer or string, got number")
	if empty := unions.NewValuesTaglineArray(nil); empty.Variant() != "Array" || empty.Array == nil {
		t.Fatal("a constructor must set its arm even for a nil slice")
	}
}

func TestConstraintOnlyCombinators(t *testing.T) {
	var c unions.Constrained
	// anyOf/not/if-then-else are validation, not type: the decoder accepts
	// what the validator would reject.
	if err := json.Unmarshal([]byte(`{"a":"1","b":"2","mode":"x"}`), &c); err != nil || c.A == nil || c.B == nil {
		t.Fatalf("%v %+v", err, c)
	}
}

func TestMaps(t *testing.T) {
	m, out := roundTrip[maps.CreativeManifest](t, `{"assets":{"hero":{"url":"u","width":300},"gallery":[{"url":"a"},{"url":"b"}]},
		"weights":{"x":0.5},"labels":{"a":"b"},"context":{"ui":"dash","nested":{"k":[1]}},"zzz":1}`)
	if m.Assets["hero"].Object == nil || len(m.Assets["gallery"].Array) != 2 || m.Weights["x"] != 0.5 {
		t.Fatalf("decoded %+v", m)
	}
	if string(m.Context["nested"]) != `{"k":[1]}` || !strings.Contains(out, `"zzz":1`) {
		t.Fatalf("open members lost: %s", out)
	}
	var bad maps.CreativeManifest
	rejects(t, json.Unmarshal([]byte(`{"assets":{"a":{"url":"u"},"a":{"url":"v"}}}`), &bad), wire.KindDuplicate, "/assets/a", "duplicate key")
	rejects(t, json.Unmarshal([]byte(`{"assets":{"prototype":{"url":"u"}}}`), &bad), wire.KindForbiddenKey, "/assets/prototype", "forbidden key")
	rejects(t, json.Unmarshal([]byte(`{"assets":{"a":7}}`), &bad), wire.KindType, "/assets/a", "want object or array")

	mt, out := roundTrip[maps.Metrics](t, `{"impressions":10,"ctr":0.25,"cpm":1}`)
	if *mt.Impressions != 10 || mt.AdditionalProperties["ctr"] != 0.25 || out != `{"impressions":10,"cpm":1,"ctr":0.25}` {
		t.Fatalf("typed extra members: %+v %s", mt, out)
	}
	rejects(t, json.Unmarshal([]byte(`{"ctr":"high"}`), &mt), wire.KindType, "/ctr", "want number")
	if _, err := json.Marshal(maps.Metrics{AdditionalProperties: map[string]float64{"impressions": 1}}); err == nil {
		t.Fatal("an extra member shadowing a declared one must not encode")
	}
}

func TestRefs(t *testing.T) {
	c, _ := roundTrip[refs.Completion](t, `{"result":{"brand":{"primary_font":"heading","status":"active","version":"3.0","fonts":[{"family":"F","role":"body"}]}}}`)
	if c.Result == nil || *c.Result.Brand.PrimaryFont != refs.FontRoleHeading || *c.Result.Brand.Status != refs.BrandStatusActive {
		t.Fatalf("decoded %+v", c)
	}
	// The fragment a $ref names and the union arm it is share one type.
	var r refs.GetBrandResponse
	if err := json.Unmarshal([]byte(`{"brand":{}}`), &r); err != nil || r.Success == nil {
		t.Fatal(err)
	}
	// A $ref into definitions nested under a property of a oneOf arm.
	if err := json.Unmarshal([]byte(`{"brand":{},"fonts":["display","text"]}`), &r); err != nil || len(r.Success.Fonts) != 2 || r.Success.Fonts[0] != refs.FontUseDisplay {
		t.Fatalf("nested definitions: %v %+v", err, r.Success)
	}
	var same *refs.GetBrandSuccess = c.Result
	_ = same
	if v := refs.NewBySchema("https://adcontextprotocol.org/schemas/3.0.0/core/brand.json"); v == nil {
		t.Fatal("NewBySchema must accept an absolute $id")
	}
	if v := refs.NewBySchema("/schemas/3.0.0/core/brand.json#/$defs/font"); v == nil {
		t.Fatal("NewBySchema must accept a definition pointer")
	}
}

func TestPatternMembers(t *testing.T) {
	r, out := roundTrip[maps.Registry](t, `{"name":"n","https://ext.example/a":{"extends":"core"},"x_hero":{"url":"u"},"x_gallery":[{"url":"a"}],"other":[1,"two"]}`)
	if r.Matching1["https://ext.example/a"].Extends != "core" || r.Matching2["x_hero"].Object == nil || len(r.Matching2["x_gallery"].Array) != 1 {
		t.Fatalf("pattern members: %+v", r)
	}
	if string(r.AdditionalProperties["other"]) != `[1,"two"]` || !strings.Contains(out, `"other":[1,"two"]`) {
		t.Fatalf("a key matching no pattern must be kept raw: %s", out)
	}
	// Keys matching a pattern are declared by the schema: exact mode keeps them.
	if err := maps.DecodeExact([]byte(`{"name":"n","x_a":{"url":"u"}}`), new(maps.Registry)); err != nil {
		t.Fatal(err)
	}
	rejects(t, json.Unmarshal([]byte(`{"name":"n","https://x":{"extends":7}}`), new(maps.Registry)), wire.KindType, "/https:~1~1x/extends", "want string")
	rejects(t, maps.DecodeExact([]byte(`{"name":"n","other":1}`), new(maps.Registry)), wire.KindUnknownField, "/other", `"other"`)
}

// TestUnionKind: Kind reports the arm as a typed constant a switch can
// cover; the zero Kind is no arm, and Variant and String agree with it.
func TestUnionKind(t *testing.T) {
	cases := []struct {
		in   string
		want unions.CreateOrderResponseKind
		name string
	}{
		{`{"order_id":"o1","lines":["a"],"confirmed_at":null}`, unions.CreateOrderResponseKindSuccess, "Success"},
		{`{"errors":[{"code":"RATE_LIMITED"}]}`, unions.CreateOrderResponseKindError, "Error"},
		{`{"status":"submitted","task_id":"t1"}`, unions.CreateOrderResponseKindSubmitted, "Submitted"},
	}
	for _, c := range cases {
		var r unions.CreateOrderResponse
		if err := json.Unmarshal([]byte(c.in), &r); err != nil {
			t.Fatalf("%s: %v", c.in, err)
		}
		var got string
		switch r.Kind() {
		case unions.CreateOrderResponseKindSuccess:
			got = "Success"
		case unions.CreateOrderResponseKindError:
			got = "Error"
		case unions.CreateOrderResponseKindSubmitted:
			got = "Submitted"
		}
		if r.Kind() != c.want || got != c.name || r.Variant() != c.name || r.Kind().String() != c.name || r.IsZero() {
			t.Fatalf("%s: Kind %d (%q), Variant %q", c.in, r.Kind(), r.Kind(), r.Variant())
		}
	}
	var zero unions.CreateOrderResponse
	if zero.Kind() != 0 || zero.Variant() != "" || !zero.IsZero() || unions.CreateOrderResponseKind(200).String() != "" {
		t.Fatalf("the zero union: Kind %d, Variant %q", zero.Kind(), zero.Variant())
	}
}
