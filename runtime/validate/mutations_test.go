package validate

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// The benchmark fixture is valid against 3.0.26 get_products' response.
func TestBenchFixtureValid(t *testing.T) {
	v := versionValidator(t, "3.0.26")
	data := benchFixture(t)
	for _, ref := range []string{"media-buy/get-products-response.json", "/schemas/3.0.26/media-buy/get-products-response.json"} {
		is, err := v.Validate(ref, data)
		if err != nil || len(is) != 0 {
			t.Fatalf("%s: issues %v, err %v; want valid", ref, is, err)
		}
	}
	if is, err := v.ValidateTool("get_products", Response, data); err != nil || len(is) != 0 {
		t.Fatalf("get_products response: issues %v, err %v", is, err)
	}
	// It is not a valid request, and says why.
	if is, err := v.ValidateTool("get_products", Request, data); err != nil || len(is) == 0 {
		t.Fatalf("as a request: issues %v, err %v; want issues", is, err)
	}
}

// edit applies a change to a decoded copy of the payload.
type edit func(doc map[string]any)

func product0(doc map[string]any) map[string]any {
	return doc["products"].([]any)[0].(map[string]any)
}

// Mutations of valid payloads are rejected with the expected keyword and
// pointer.
func TestMutationsRejected(t *testing.T) {
	request := `{"buying_mode":"brief","brief":"Premium video","brand":{"domain":"example.com"},"account":{"account_id":"acct_1"}}`
	cases := []struct {
		name, version, tool string
		dir                 Direction
		base                string // "" for the bench fixture
		edit                edit
		pointer, keyword    string
		schemaID            string // prefix
	}{
		{"drop required", "3.0.26", "get_products", Response, "", func(d map[string]any) { delete(product0(d), "name") },
			"/products/0", "required", "/schemas/3.0.26/core/product.json"},
		{"drop required at root", "3.0.26", "get_products", Response, "", func(d map[string]any) { delete(d, "products") },
			"", "required", "/schemas/3.0.26/media-buy/get-products-response.json"},
		{"wrong type", "3.0.26", "get_products", Response, "", func(d map[string]any) { product0(d)["name"] = 5 },
			"/products/0/name", "type", "/schemas/3.0.26/core/product.json#/properties/name"},
		{"wrong type deep", "3.0.26", "get_products", Response, "", func(d map[string]any) {
			product0(d)["pricing_options"].([]any)[0].(map[string]any)["currency"] = true
		}, "/products/0/pricing_options/0/currency", "type", "/schemas/3.0.26/"},
		{"bad enum", "3.0.26", "get_products", Response, "", func(d map[string]any) { product0(d)["delivery_type"] = "sometimes" },
			"/products/0/delivery_type", "enum", "/schemas/3.0.26/enums/delivery-type.json"},
		{"bad format", "3.0.26", "get_products", Response, "", func(d map[string]any) { product0(d)["expires_at"] = "tomorrow" },
			"/products/0/expires_at", "format", "/schemas/3.0.26/core/product.json#/properties/expires_at"},
		{"unknown key, additionalProperties false", "3.0.26", "get_products", Request, request, func(d map[string]any) {
			d["brand"].(map[string]any)["colour"] = "red"
		}, "/brand", "additionalProperties", "/schemas/3.0.26/core/brand-ref.json"},
		{"unknown key inside a oneOf alternative", "3.0.26", "get_products", Request, request, func(d map[string]any) {
			d["account"].(map[string]any)["colour"] = "red"
		}, "/account", "additionalProperties", "/schemas/3.0.26/core/account-ref.json#/oneOf/0"},
		{"absolute $id style", "3.2.0-beta.3", "get_products", Request, request, func(d map[string]any) {
			d["brand"].(map[string]any)["colour"] = "red"
		}, "/brand", "additionalProperties", "https://adcontextprotocol.org/schemas/3.2.0-beta.3/core/brand-ref.json"},
		{"drop required, 3.2", "3.2.0-beta.3", "get_products", Request, request, func(d map[string]any) { delete(d, "buying_mode") },
			"", "required", "https://adcontextprotocol.org/schemas/3.2.0-beta.3/media-buy/get-products-request.json"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := versionValidator(t, tc.version)
			base := []byte(tc.base)
			if tc.base == "" {
				base = benchFixture(t)
			}
			if is, err := v.ValidateTool(tc.tool, tc.dir, base); err != nil || len(is) != 0 {
				t.Fatalf("base payload: issues %v, err %v; want valid", is, err)
			}
			var doc map[string]any
			if err := json.Unmarshal(base, &doc); err != nil {
				t.Fatal(err)
			}
			tc.edit(doc)
			is, err := v.ValidateTool(tc.tool, tc.dir, mustJSON(t, doc))
			if err != nil {
				t.Fatal(err)
			}
			for _, i := range is {
				if i.Pointer == tc.pointer && i.Keyword == tc.keyword && strings.HasPrefix(i.SchemaID, tc.schemaID) {
					if i.Message == "" {
						t.Errorf("issue %+v has no message", i)
					}
					return
				}
			}
			t.Errorf("issues %+v; want one at %q with keyword %q and schema_id %s...", is, tc.pointer, tc.keyword, tc.schemaID)
		})
	}
}

// The validator cannot see "__proto__"-style keys or duplicate keys: the
// payload is decoded into maps first. The strict generated decoders reject
// both; this test pins down that the validator alone does not.
func TestWhatValidationCannotSee(t *testing.T) {
	v := versionValidator(t, "3.0.26")
	fixture := benchFixture(t)
	var doc map[string]any
	if err := json.Unmarshal(fixture, &doc); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"__proto__", "constructor", "prototype"} {
		doc[key] = map[string]any{"polluted": true}
		product0(doc)[key] = map[string]any{"polluted": true}
	}
	if is, err := v.ValidateTool("get_products", Response, mustJSON(t, doc)); err != nil || len(is) != 0 {
		t.Errorf("__proto__ keys: issues %v, err %v; the validator is not expected to see them", is, err)
	}
	// Escaped spelling, straight in the bytes.
	escaped := bytes.Replace(fixture, []byte(`{`), []byte(`{"\u005f_proto__":{"a":1},`), 1)
	if is, err := v.ValidateTool("get_products", Response, escaped); err != nil || len(is) != 0 {
		t.Errorf("escaped __proto__: issues %v, err %v", is, err)
	}

	// A duplicate key: the last one wins, so an invalid first copy passes...
	dupBadFirst := bytes.Replace(fixture, []byte(`{`), []byte(`{"products":"not an array",`), 1)
	if is, err := v.ValidateTool("get_products", Response, dupBadFirst); err != nil || len(is) != 0 {
		t.Errorf("duplicate key, bad copy first: issues %v, err %v; the validator is not expected to see it", is, err)
	}
	// ...and an invalid last copy is what gets validated.
	dupBadLast := append(bytes.TrimRight(fixture, " \n\r\t}"), []byte(`,"products":"not an array"}`)...)
	is, err := v.ValidateTool("get_products", Response, dupBadLast)
	if err != nil || !hasKeyword(is, "type") {
		t.Errorf("duplicate key, bad copy last: issues %v, err %v; want a type issue", is, err)
	}
}

// Issues are JSON-encodable with AdCP's names, and in the same order on
// every run.
func TestIssuesShapeAndOrder(t *testing.T) {
	v := versionValidator(t, "3.0.26")
	var doc map[string]any
	if err := json.Unmarshal(benchFixture(t), &doc); err != nil {
		t.Fatal(err)
	}
	for i, p := range doc["products"].([]any) {
		p.(map[string]any)["name"] = i
		delete(p.(map[string]any), "description")
	}
	payload := mustJSON(t, doc)
	first, err := v.ValidateTool("get_products", Response, payload)
	if err != nil || len(first) < 24 {
		t.Fatalf("issues %d, err %v; want two per product", len(first), err)
	}
	for n := 0; n < 5; n++ {
		again, _ := v.ValidateTool("get_products", Response, payload)
		if !reflect.DeepEqual(first, again) {
			t.Fatalf("issue order differs between runs")
		}
	}
	// Array indexes sort numerically: /products/2 before /products/10.
	if first[4].Pointer != "/products/2" && first[4].Pointer != "/products/2/name" {
		t.Errorf("issue 4 is at %q; want numeric order", first[4].Pointer)
	}
	raw, err := json.Marshal(first[0])
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(raw, &back); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"pointer", "message", "keyword", "schema_id"} {
		if _, ok := back[k]; !ok {
			t.Errorf("issue JSON %s lacks %q", raw, k)
		}
	}
	// The error schema of a later version accepts these issues as issues[].
	v32 := versionValidator(t, "3.2.0-beta.3")
	errPayload := mustJSON(t, map[string]any{"code": "VALIDATION_ERROR", "message": "invalid response", "issues": first})
	if is, err := v32.Validate("core/error.json", errPayload); err != nil || len(is) != 0 {
		t.Errorf("issues in a 3.2 error: %v, %v", is, err)
	}
}

// Pointers are RFC 6901: '/' and '~' escaped, nothing %-encoded.
func TestPointerEscaping(t *testing.T) {
	v := versionValidator(t, "3.0.26")
	payload := `{"plans":[{"budget":{"allocations":{"a/b~c d%":{}}}}]}`
	is, err := v.ValidateTool("sync_plans", Request, []byte(payload))
	if err != nil {
		t.Fatal(err)
	}
	want := "/plans/0/budget/allocations/a~1b~0c d%"
	for _, i := range is {
		if i.Pointer == want {
			return
		}
	}
	t.Errorf("issues %+v; want one at %q", is, want)
}

func TestPayloadLimits(t *testing.T) {
	v := versionValidator(t, "3.0.26")
	s, err := v.Tool("get_products", Response)
	if err != nil {
		t.Fatal(err)
	}
	small, err := New(v.tree, Options{Limits: Limits{MaxBytes: 100, MaxDepth: 8, MaxNumberLen: 20}})
	if err != nil {
		t.Fatal(err)
	}
	ss, err := small.Tool("get_products", Response)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name    string
		s       *Schema
		payload string
		reason  string
	}{
		{"empty", s, "", "unexpected end"},
		{"not JSON", s, "{products:[]}", "invalid JSON"},
		{"truncated", s, `{"products":[`, "unexpected end"},
		{"trailing data", s, `{"products":[]} {}`, "after the JSON value"},
		{"invalid UTF-8", s, "{\"products\":[], \"x\":\"\xff\"}", "UTF-8"},
		{"too deep (default 512)", s, strings.Repeat("[", 513) + strings.Repeat("]", 513), "deeper than 512"},
		{"huge exponent", s, `{"products":[],"x":1e999999999}`, "exponent"},
		{"too large", ss, `{"products":[],"x":"` + strings.Repeat("a", 100) + `"}`, "byte limit"},
		{"too deep (8)", ss, strings.Repeat("[", 9) + strings.Repeat("]", 9), "deeper than 8"},
		{"long number", ss, `[123456789012345678901]`, "number longer"},
	}
	for _, tc := range cases {
		_, err := tc.s.Validate([]byte(tc.payload))
		var pe *PayloadError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.reason) {
			t.Errorf("%s: err = %v; want a PayloadError mentioning %q", tc.name, err, tc.reason)
		}
	}
	// Deep but within limits, and brackets inside strings do not count.
	ok := `{"products":[],"x":"` + strings.Repeat("[", 600) + `"}`
	if is, err := s.Validate([]byte(ok)); err != nil || len(is) != 0 {
		t.Errorf("brackets in a string: %v, %v", is, err)
	}
}

func TestParseQuotedList(t *testing.T) {
	cases := map[string][]string{
		`'a'`:                    {"a"},
		`'a', 'b'`:               {"a", "b"},
		`'it\'s', 'say "hi"'`:    {"it's", `say "hi"`},
		`'back\\slash', 'tab\t'`: {`back\slash`, "tab\t"},
	}
	for in, want := range cases {
		got, ok := parseQuotedList(in)
		if !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("parseQuotedList(%s) = %q, %v; want %q", in, got, ok, want)
		}
	}
	for _, bad := range []string{"", "a", "'unterminated", `'a' 'b'`} {
		if _, ok := parseQuotedList(bad); ok {
			t.Errorf("parseQuotedList(%s): want failure", bad)
		}
	}
}

// Names with quotes survive the library's message format.
func TestOddPropertyNames(t *testing.T) {
	v := versionValidator(t, "3.0.26")
	name := `it's "odd"/~`
	payload := mustJSON(t, map[string]any{"buying_mode": "brief", "brief": "x", "brand": map[string]any{"domain": "example.com", name: 1}})
	is, err := v.ValidateTool("get_products", Request, payload)
	if err != nil || len(is) != 1 || is[0].Message != "property "+`"it's \"odd\"/~"`+" is not allowed" {
		t.Errorf("issues %+v, err %v", is, err)
	}
}
