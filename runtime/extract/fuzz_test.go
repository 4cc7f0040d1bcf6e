package extract

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Fuzz targets for every extractor. Run one with
//
//	go test -run='^$' -fuzz=FuzzMCP -fuzztime=20s ./runtime/extract/
//
// They check for panics and invariants: extracted bytes are valid JSON no
// larger than the input (memory stays bounded by the input), errors pass
// the buyer's checks, and only invalid JSON is reported as such.

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
		`{"jsonrpc":"2.0","id":1,"result":{"task":{"status":{"state":"failed"}}}}`,
	} {
		f.Add([]byte(s))
	}
	dir := os.Getenv("ADCP_SPEC_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "adcp")
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
		if !json.Valid(e.Raw) || adcperr.Check(wire.Lenient(e.Raw)) != nil {
			t.Fatalf("invalid error extracted: %q", e.Raw)
		}
		if !e.Recovery.Valid() || r.Action != adcperr.ActionFor(e.Recovery) {
			t.Fatalf("recovery %q, action %q", e.Recovery, r.Action)
		}
		if e.RetryAfter != 0 && (e.RetryAfter < adcperr.MinRetryAfter || e.RetryAfter > adcperr.MaxRetryAfter) {
			t.Fatalf("retry after %s", e.RetryAfter)
		}
		_ = e.Error()
		_ = e.LLMContext()
	}
	var p Problem
	if r.Problem != nil && !errors.As(r.Problem, &p) {
		t.Fatalf("problem %v is not a Problem", r.Problem)
	}
	// Under 513 bytes nothing can nest past the depth limit.
	if errors.Is(r.Problem, ErrInvalidJSON) && json.Valid(in) && len(in) <= 512 {
		t.Fatalf("valid JSON reported invalid: %v", r.Problem)
	}
	_ = r.Failure()
}

var fuzzX = New(registry.NewSpec(registry.SpecConfig{Codes: registry.ErrorCodes{{Code: "RATE_LIMITED", Recovery: registry.Transient}}}))

func FuzzMCP(f *testing.F) {
	seedEnvelopes(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		r := fuzzX.MCP(in)
		checkResult(t, in, r)
		if r.Error != nil && r.Data != nil {
			t.Fatal("MCP gave both data and error")
		}
	})
}

func FuzzA2A(f *testing.F) {
	seedEnvelopes(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		r := fuzzX.A2A(in)
		checkResult(t, in, r)
		if errors.Is(r.Problem, ErrWrapperDetected) && r.Data != nil {
			t.Fatal("wrapper returned as data")
		}
		_, _ = A2AFileURIs(in)
	})
}

func FuzzWebhook(f *testing.F) {
	seedEnvelopes(f)
	f.Fuzz(func(t *testing.T, in []byte) { checkResult(t, in, fuzzX.Webhook(in)) })
}

func FuzzDetectError(f *testing.F) {
	seedEnvelopes(f)
	f.Fuzz(func(t *testing.T, in []byte) {
		r := fuzzX.DetectError(in)
		checkResult(t, in, r)
		if r.Data != nil {
			t.Fatal("DetectError returned data")
		}
	})
}
