package validate

import (
	"encoding/json"
	"errors"
	"net/url"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// FuzzValidate feeds arbitrary bytes to the validate entry point. It must
// never panic; a payload error is fine; issues must be sorted, encodable,
// and point at values that exist in the payload.
func FuzzValidate(f *testing.F) {
	v := versionValidator(f, "3.0.26")
	s, err := v.Tool("get_products", Response)
	if err != nil {
		f.Fatal(err)
	}
	fixture := benchFixture(f)
	f.Add(fixture)
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"products":[{"product_id":5,"name":null}],"__proto__":{}}`))
	f.Add([]byte(`{"products":"x","products":[]}`))
	f.Add([]byte(`{"products":[],"x":1e999999}`))
	f.Add([]byte(`[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]`))
	f.Add([]byte("{\"products\":[],\"\xff\":1}"))
	f.Add([]byte(strings.Replace(string(fixture), `"cpm"`, `"cpx"`, 3)))
	f.Fuzz(func(t *testing.T, data []byte) {
		is, err := s.Validate(data)
		if err != nil {
			var pe *PayloadError
			if !errors.As(err, &pe) {
				t.Fatalf("error is not a PayloadError: %v", err)
			}
			return
		}
		if _, err := json.Marshal(is); err != nil {
			t.Fatalf("issues do not encode: %v", err)
		}
		doc, _ := decodePayload(data, DefaultLimits)
		for i, x := range is {
			if x.Keyword == "" || x.Message == "" {
				t.Fatalf("issue %+v lacks keyword or message", x)
			}
			if !resolves(doc, x.Pointer) {
				t.Fatalf("issue %+v: pointer does not resolve in the payload", x)
			}
			if i > 0 && comparePointers(is[i-1].Pointer, x.Pointer) > 0 {
				t.Fatalf("issues out of order: %q before %q", is[i-1].Pointer, x.Pointer)
			}
		}
	})
}

// resolves reports whether an RFC 6901 pointer names a value in doc.
func resolves(doc any, ptr string) bool {
	if ptr == "" {
		return true
	}
	if !strings.HasPrefix(ptr, "/") {
		return false
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		switch d := doc.(type) {
		case map[string]any:
			var ok bool
			if doc, ok = d[tok]; !ok {
				return false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(d) {
				return false
			}
			doc = d[i]
		default:
			return false
		}
	}
	return true
}

// FuzzECMAPattern compiles arbitrary patterns and, when RE2 can run them,
// checks the translation against the backtracking reference matcher.
func FuzzECMAPattern(f *testing.F) {
	for _, tc := range ecmaCases {
		for _, s := range append(tc.match, tc.noMatch...) {
			f.Add(tc.pattern, s)
		}
	}
	f.Add(`^[\s\S]{0,3}?\b(?:x|y)+$`, "ab x")
	f.Add(`[^\d\W]`, "_")
	f.Fuzz(func(t *testing.T, pattern, s string) {
		if len(pattern) > 200 || len(s) > 200 {
			return
		}
		re, err := compileECMA(pattern)
		if err != nil || re.usesBacktracking() {
			if err == nil {
				_, _ = re.MatchString(s) // must not panic
			}
			return
		}
		ast, err := parseECMA(pattern)
		if err != nil {
			t.Fatalf("compiled but does not parse: %v", err)
		}
		got, _ := re.MatchString(s)
		want, err := backtrackSearch(ast, s)
		if err != nil {
			return // the reference ran out of budget
		}
		if got != want {
			t.Fatalf("%q on %q: RE2 translation %v, reference %v", pattern, s, got, want)
		}
	})
}

// Pointers built by the fuzz helper agree with url-escaped library output.
func TestResolves(t *testing.T) {
	doc := map[string]any{"a/b": []any{map[string]any{"~": 1}}}
	if !resolves(doc, "/a~1b/0/~0") || resolves(doc, "/a~1b/1") || resolves(doc, "/"+url.PathEscape("a/b")) {
		t.Fatal("resolves is wrong")
	}
}

// FuzzFastAgrees feeds arbitrary bytes to the fast path and to the
// reference validator, against a few schemas: the fast path never panics,
// fails on the same payloads, and reports the same issues.
func FuzzFastAgrees(f *testing.F) {
	fast := versionValidator(f, "3.0.26")
	ref, err := New(fast.tree, Options{Reference: true})
	if err != nil {
		f.Fatal(err)
	}
	schemas := []string{"media-buy/get-products-response.json", "core/error.json", "core/pricing-option.json", "core/format-id.json"}
	fixture := benchFixture(f)
	f.Add(uint8(0), fixture)
	f.Add(uint8(0), []byte(strings.Replace(string(fixture), `"cpm"`, `"cpx"`, 3)))
	f.Add(uint8(1), []byte(`{"code":"X","message":"m","retry_after":1.5e1,"details":{"a":[1,1.0]}}`))
	f.Add(uint8(1), []byte(`{"code":"X","message":"m","code":7}`))
	f.Add(uint8(2), []byte(`{"pricing_option_id":"p","pricing_model":"cpm","currency":"USD","fixed_price":-0.0}`))
	f.Add(uint8(2), []byte(`{"pricing_option_id":"p","pricing_model":"cpm","currency":"usd","floor_price":1e400}`))
	f.Add(uint8(3), []byte(`{"agent_url":"https://a.example/\u00e9","id":"x_y","width":1}`))
	f.Add(uint8(3), []byte("{\"agent_url\":\"https://[::1]/\",\"id\":\"\\ud800\"}"))
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		name := schemas[int(which)%len(schemas)]
		fs, err := fast.Schema(name)
		if err != nil {
			t.Fatal(err)
		}
		rs, err := ref.Schema(name)
		if err != nil {
			t.Fatal(err)
		}
		got, gerr := fs.Validate(data)
		want, werr := rs.Validate(data)
		if (gerr == nil) != (werr == nil) {
			t.Fatalf("%s: fast error %v, reference error %v", name, gerr, werr)
		}
		if gerr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: %s\nfast      %v\nreference %v", name, data, got, want)
		}
	})
}
