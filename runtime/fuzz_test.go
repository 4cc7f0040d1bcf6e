package runtime

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// Fuzz targets for every extractor, the JSON reader, the sanitiser, the URL
// check and the webhook verifier. Run one with
//
//	go test -run='^$' -fuzz=FuzzExtractMCP -fuzztime=20s ./runtime/
//
// They check for panics and invariants: extracted bytes are valid JSON no
// larger than the input (memory stays bounded by the input), errors are
// valid, and the reader agrees with encoding/json on what is JSON.

// seedEnvelopes adds hand-written envelopes and, when the published
// vectors are present, every envelope in them.
func seedEnvelopes(f *testing.F) {
	for _, s := range []string{
		`{"structuredContent":{"a":1}}`,
		`{"isError":true,"structuredContent":{"adcp_error":{"code":"RATE_LIMITED","retry_after":1e400}}}`,
		`{"isError":"false","content":[{"type":"text","text":"{\"adcp_error\":{\"code\":\"X\"}}"}]}`,
		`{"content":[{"type":"text","text":"{\"a\":\"\\ud800\"}"}]}`,
		`{"error":{"code":-32029,"data":{"adcp_error":{"code":"RATE_LIMITED"}}},"result":{}}`,
		`{"task":{"status":{"state":"TASK_STATE_COMPLETED"},"artifacts":[{"parts":[{"data":{"response":{}}}]}]}}`,
		`{"statusUpdate":{"status":{"state":"working","message":{"parts":[{"data":{"p":1}}]}}}}`,
		`{"task_id":"t","status":"failed","result":{"adcp_error":{"code":""}}}`,
		`{"a":1,"a":{"__proto__":[]}}`,
		`[`, `"\u0000"`, `-0.0e-0`, `{"\u0061dcp_error":0}`,
	} {
		f.Add([]byte(s))
	}
	dir := os.Getenv("ADCP_SPEC_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "adcp")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "test-vectors", "*.json"))
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			continue
		}
		var doc struct {
			Vectors []map[string]json.RawMessage `json:"vectors"`
		}
		if json.Unmarshal(data, &doc) != nil {
			continue
		}
		for _, v := range doc.Vectors {
			for _, k := range []string{"response", "payload"} {
				if env, ok := v[k]; ok {
					f.Add([]byte(env))
				}
			}
		}
	}
}

// checkResult holds the invariants of any extraction result.
func checkResult(t *testing.T, in []byte, r *Result) {
	t.Helper()
	if r.Data != nil {
		if !json.Valid(r.Data) {
			t.Fatalf("data is not JSON: %q", r.Data)
		}
		if len(r.Data) > len(in) {
			t.Fatalf("data (%d bytes) larger than the input (%d)", len(r.Data), len(in))
		}
	}
	if e := r.Error; e != nil {
		if !json.Valid(e.Raw) || compactLen(e.Raw) > MaxErrorBytes || e.Code == "" || utf16Len(e.Code) > MaxCodeLength {
			t.Fatalf("invalid error extracted: %q", e.Raw)
		}
		if !e.Recovery.Valid() || r.Action != ActionFor(e.Recovery) {
			t.Fatalf("recovery %q, action %q", e.Recovery, r.Action)
		}
		if e.RetryAfter != 0 && (e.RetryAfter < MinRetryAfter || e.RetryAfter > MaxRetryAfter) {
			t.Fatalf("retry after %s", e.RetryAfter)
		}
		_ = e.Error()
		_ = e.LLMContext()
	}
	if r.RetryAfter != 0 && r.Action != ActionRetry {
		t.Fatalf("retry after %s with action %q", r.RetryAfter, r.Action)
	}
	if (r.Problem == ProblemNone) != (r.Err == nil) {
		t.Fatalf("problem %q with err %v", r.Problem, r.Err)
	}
	if r.Problem == ProblemInvalidJSON && json.Valid(in) {
		t.Fatalf("valid JSON reported invalid: %v", r.Err)
	}
}

func FuzzExtractMCP(f *testing.F) {
	seedEnvelopes(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		r := ExtractMCP(in)
		checkResult(t, in, r)
		if r.Error != nil && r.Data != nil {
			t.Fatal("MCP gave both data and error")
		}
	})
}

func FuzzExtractJSONRPC(f *testing.F) {
	seedEnvelopes(f)
	f.Fuzz(func(t *testing.T, in []byte) { checkResult(t, in, ExtractJSONRPC(in)) })
}

func FuzzExtractA2A(f *testing.F) {
	seedEnvelopes(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		r := ExtractA2A(in)
		checkResult(t, in, r)
		if r.Problem == ProblemWrapperDetected && r.Data != nil {
			t.Fatal("wrapper returned as data")
		}
		_, _ = A2AFileURIs(in)
	})
}

func FuzzExtractWebhook(f *testing.F) {
	seedEnvelopes(f)
	f.Fuzz(func(t *testing.T, in []byte) { checkResult(t, in, ExtractWebhook(in)) })
}

func FuzzDetectError(f *testing.F) {
	seedEnvelopes(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		r := Extractor{}.DetectError(in)
		checkResult(t, in, r)
		if r.Data != nil {
			t.Fatal("DetectError returned data")
		}
	})
}

// FuzzParseDocument checks the reader against encoding/json: the same
// inputs are JSON, strings decode alike, and lengths are computed right.
func FuzzParseDocument(f *testing.F) {
	seedEnvelopes(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		v, err := parseDocument(in)
		if (err == nil) != json.Valid(in) {
			t.Fatalf("parseDocument err=%v but json.Valid=%v", err, json.Valid(in))
		}
		if err != nil {
			return
		}
		if got, want := compactLen(v), len(appendCompact(nil, v)); got != want {
			t.Fatalf("compactLen %d, compact text %d bytes", got, want)
		}
		var buf bytes.Buffer
		if json.Compact(&buf, v) == nil && buf.Len() != compactLen(v) {
			t.Fatalf("compactLen %d, json.Compact %d", compactLen(v), buf.Len())
		}
		if v.isString() {
			got := decodeString(nil, v)
			if decodedLen(v) != len(got) {
				t.Fatalf("decodedLen %d, decoded %d bytes", decodedLen(v), len(got))
			}
			var want string
			if utf8.Valid(v) && json.Unmarshal(v, &want) == nil && string(got) != want {
				t.Fatalf("decodeString %q, encoding/json %q", got, want)
			}
		}
		walk(t, v, 0)
	})
}

// walk visits every value through the navigation methods and checks that
// the fast skip agrees with the checking scanner on where each value ends.
func walk(t *testing.T, v jval, depth int) {
	if depth > 64 {
		return
	}
	if end := skipValue(v, 0); end != len(v) {
		t.Fatalf("skipValue ends %q at %d, want %d", v, end, len(v))
	}
	_ = v.truthy()
	_, _ = v.str()
	_, _ = v.number()
	v.members(func(k, val jval) bool {
		_, _ = k.str()
		_ = v.get("a")
		walk(t, val, depth+1)
		return true
	})
	v.elems(func(e jval) bool { walk(t, e, depth+1); return true })
}

func FuzzSanitize(f *testing.F) {
	for _, s := range []string{"plain", "a\u202eb\u200bc\x00d", "\xff\xfe", "é😀", strings.Repeat("é", 300)} {
		f.Add(s, 256)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		out := Sanitize(s)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 out: %q", out)
		}
		for _, r := range out {
			if stripped(r) {
				t.Fatalf("%U survived in %q", r, out)
			}
		}
		if Sanitize(out) != out {
			t.Fatal("not idempotent")
		}
		n %= 1024
		tr := SanitizeTruncate(s, n)
		if len(tr) > max(n, 0) || !utf8.ValidString(tr) || !strings.HasPrefix(out, tr) {
			t.Fatalf("SanitizeTruncate(%q, %d) = %q", s, n, tr)
		}
		if js, err := SanitizeJSON([]byte(s)); err == nil && !json.Valid(js) {
			t.Fatalf("SanitizeJSON produced invalid JSON %q", js)
		}
	})
}

func FuzzCheckSellerURL(f *testing.F) {
	for _, s := range []string{"https://seller.example.com/x", "https://u@seller.example.com", "javascript:x", "https:x", "https://SELLER.example.com:443/"} {
		f.Add(s, "seller.example.com")
	}
	f.Fuzz(func(t *testing.T, raw, domain string) {
		u, err := CheckSellerURL(raw, domain)
		if err != nil {
			return
		}
		host, _, _ := splitDomain(domain)
		if u.Scheme != "https" || u.User != nil || u.Opaque != "" || !strings.EqualFold(u.Hostname(), host) {
			t.Fatalf("accepted %q for %q: %#v", raw, domain, u)
		}
	})
}

func FuzzWebhookHMAC(f *testing.F) {
	f.Add("1700000000", []byte(`{"a":1}`), "sha256=00")
	f.Add("1", []byte(`{"a":1,"a":2}`), "")
	h, _ := NewWebhookHMAC([]byte("0123456789abcdef0123456789abcdef"))
	f.Fuzz(func(t *testing.T, ts string, body []byte, sig string) {
		_ = h.Verify(ts, body, sig)
		if s, err := h.Sign(1, body); err == nil {
			h2 := *h
			h2.Now = nil
			h2.Window = 1 << 62
			if err := h2.Verify("1", body, s); err != nil {
				t.Fatalf("own signature rejected: %v", err)
			}
		}
	})
}
