package extract_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/registry"
)

// The published conformance vectors, replayed in full by id with their own
// expected values. Counts are pinned so a vector can never be skipped
// silently.

// loadVectors reads test-vectors/name and checks the vector count.
func loadVectors[V any](t *testing.T, name string, want int) []V {
	t.Helper()
	data, err := os.ReadFile(testspec.Path(t, "test-vectors", name))
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Vectors []V `json:"vectors"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(file.Vectors) != want {
		t.Fatalf("%s: %d vectors, want %d", name, len(file.Vectors), want)
	}
	return file.Vectors
}

// sameJSON compares two JSON texts as values; "null" and nil are the same.
func sameJSON(t *testing.T, got, want json.RawMessage) bool {
	t.Helper()
	if isNull(want) || isNull(got) {
		return isNull(want) == isNull(got)
	}
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Errorf("extracted bytes are not JSON: %v: %s", err, got)
		return false
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatalf("expected value is not JSON: %v", err)
	}
	return reflect.DeepEqual(g, w)
}

func isNull(b json.RawMessage) bool {
	return len(bytes.TrimSpace(b)) == 0 || string(bytes.TrimSpace(b)) == "null"
}

type mcpVector struct {
	ID           string          `json:"id"`
	Path         string          `json:"path"`
	Response     json.RawMessage `json:"response"`
	ExpectedData json.RawMessage `json:"expected_data"`
}

func TestVectorsMCPResponseExtraction(t *testing.T) {
	vectors := loadVectors[mcpVector](t, "mcp-response-extraction.json", 16)
	x := vectorExtractor(t)
	for _, v := range vectors {
		t.Run(v.ID, func(t *testing.T) {
			r := x.MCP(v.Response)
			if !sameJSON(t, r.Data, v.ExpectedData) {
				t.Fatalf("data = %s, want %s", r.Data, v.ExpectedData)
			}
			if r.Problem != nil || r.Form != extract.FormToolResult {
				t.Errorf("problem %v, form %q; want none, a tool result", r.Problem, r.Form)
			}
			if r.Data != nil {
				checkMCPPath(t, v.Path, r.DataPath)
			}
			// The same envelope as a JSON-RPC result gives the same data.
			rr := x.MCP(jsonrpcResult(v.Response))
			if !sameJSON(t, rr.Data, v.ExpectedData) || rr.Form != extract.FormJSONRPC {
				t.Errorf("as JSON-RPC result: data = %s (form %q), want %s", rr.Data, rr.Form, v.ExpectedData)
			}
		})
	}
}

func checkMCPPath(t *testing.T, want, got string) {
	t.Helper()
	switch want {
	case "structuredContent":
		if !strings.HasSuffix(got, "structuredContent") && !strings.Contains(got, "structuredContent.") {
			t.Errorf("path = %q, want structuredContent", got)
		}
	case "text_fallback":
		if !strings.Contains(got, "content[") {
			t.Errorf("path = %q, want a content[] text item", got)
		}
	case "jsonrpc_error":
		if !strings.HasPrefix(got, "error.data") {
			t.Errorf("path = %q, want error.data", got)
		}
	case "artifact":
		if !strings.Contains(got, "artifacts[") {
			t.Errorf("path = %q, want artifacts", got)
		}
	case "status_message":
		if !strings.Contains(got, "status.message") {
			t.Errorf("path = %q, want status.message", got)
		}
	default:
		t.Fatalf("vector path %q unknown to this test", want)
	}
}

func jsonrpcResult(result json.RawMessage) []byte {
	return []byte(`{"jsonrpc":"2.0","id":7,"result":` + string(result) + `}`)
}

type a2aVector struct {
	ID                string          `json:"id"`
	Status            string          `json:"status"`
	Path              string          `json:"path"`
	Response          json.RawMessage `json:"response"`
	ExpectedData      json.RawMessage `json:"expected_data"`
	ExpectedErrorType string          `json:"expected_error_type"`
}

func TestVectorsA2AResponseExtraction(t *testing.T) {
	vectors := loadVectors[a2aVector](t, "a2a-response-extraction.json", 31)
	x := vectorExtractor(t)
	for _, v := range vectors {
		t.Run(v.ID, func(t *testing.T) {
			r := x.A2A(v.Response)
			// What an HTTP client holds: the JSON-RPC response around it.
			rr := x.A2A(jsonrpcResult(v.Response))
			for _, r := range []*extract.Result{r, rr} {
				switch v.ExpectedErrorType {
				case "wrapper_detected":
					if !errors.Is(r.Problem, extract.ErrWrapperDetected) {
						t.Fatalf("problem = %v, want wrapper_detected", r.Problem)
					}
					if r.Data != nil {
						t.Errorf("data = %s, want none: wrappers are never unwrapped", r.Data)
					}
				case "":
					if !sameJSON(t, r.Data, v.ExpectedData) {
						t.Fatalf("data = %s, want %s", r.Data, v.ExpectedData)
					}
					if r.Problem != nil {
						t.Errorf("problem = %v, want none", r.Problem)
					}
					if r.Data != nil {
						checkMCPPath(t, v.Path, r.DataPath)
					}
				default:
					t.Fatalf("expected_error_type %q unknown to this test", v.ExpectedErrorType)
				}
			}
			if rr.Form != extract.FormJSONRPC || (rr.Data != nil && !strings.HasPrefix(rr.DataPath, "result.")) {
				t.Errorf("JSON-RPC response read as %q, data at %q", rr.Form, rr.DataPath)
			}
			// The state is normalised to the vector's spelling; only an event
			// without a status (path "none") may have none.
			if r.State != v.Status && !(r.State == "" && v.Path == "none") {
				t.Errorf("state = %q, want %q", r.State, v.Status)
			}
		})
	}
}

type transportVector struct {
	ID             string          `json:"id"`
	Transport      string          `json:"transport"`
	Path           string          `json:"path"`
	Response       json.RawMessage `json:"response"`
	ExpectedError  json.RawMessage `json:"expected_error"`
	ExpectedAction string          `json:"expected_action"`
}

func TestVectorsTransportErrorMapping(t *testing.T) {
	vectors := loadVectors[transportVector](t, "transport-error-mapping.json", 32)
	x := vectorExtractor(t)
	for _, v := range vectors {
		t.Run(v.ID, func(t *testing.T) {
			// The full detection order, whatever the transport.
			checkErrorResult(t, "DetectError", x.DetectError(v.Response), v)

			// The transport's own extractor.
			switch {
			case v.Transport == "mcp":
				checkErrorResult(t, "MCP", x.MCP(v.Response), v)
				if v.Path != "jsonrpc_error" {
					checkErrorResult(t, "MCP(JSON-RPC result)", x.MCP(jsonrpcResult(v.Response)), v)
					checkErrorResult(t, "DetectError(JSON-RPC result)", x.DetectError(jsonrpcResult(v.Response)), v)
				}
			case v.Transport == "a2a":
				checkErrorResult(t, "A2A", x.A2A(v.Response), v)
				checkErrorResult(t, "A2A(task envelope)", x.A2A([]byte(`{"task":`+string(v.Response)+`}`)), v)
				checkErrorResult(t, "A2A(JSON-RPC result)", x.A2A(jsonrpcResult(v.Response)), v)
				checkErrorResult(t, "A2A(JSON-RPC result, task envelope)", x.A2A(jsonrpcResult([]byte(`{"task":`+string(v.Response)+`}`))), v)
			default:
				t.Fatalf("transport %q unknown to this test", v.Transport)
			}
		})
	}
}

func checkErrorResult(t *testing.T, how string, r *extract.Result, v transportVector) {
	t.Helper()
	if isNull(v.ExpectedError) {
		if r.Error != nil {
			t.Errorf("%s: error = %s, want none", how, r.Error.Raw)
		}
	} else {
		if r.Error == nil {
			t.Fatalf("%s: no error, want %s", how, v.ExpectedError)
		}
		if !sameJSON(t, r.Error.Raw, v.ExpectedError) {
			t.Errorf("%s: error = %s, want %s", how, r.Error.Raw, v.ExpectedError)
		}
		checkMCPPath(t, v.Path, strings.TrimPrefix(strings.TrimPrefix(r.Error.Path, "result."), "task."))
		checkTypedFields(t, how, r.Error, v.ExpectedError)
	}
	if string(r.Action) != v.ExpectedAction {
		t.Errorf("%s: action = %q, want %q", how, r.Action, v.ExpectedAction)
	}
	wantRetry := time.Duration(0)
	if r.Action == adcperr.ActionRetry {
		var e struct {
			RetryAfter *float64 `json:"retry_after"`
		}
		_ = json.Unmarshal(v.ExpectedError, &e)
		if e.RetryAfter != nil {
			wantRetry = time.Duration(math.Min(3600, math.Max(1, math.Ceil(*e.RetryAfter)))) * time.Second
		}
	}
	if got := retryAfter(r); got != wantRetry {
		t.Errorf("%s: retry after %s, want %s", how, got, wantRetry)
	}
}

// checkTypedFields compares the typed fields with the expected object.
func checkTypedFields(t *testing.T, how string, e *adcperr.Error, want json.RawMessage) {
	t.Helper()
	var w struct {
		Code, Message, Field, Suggestion, Recovery string
		Details                                    json.RawMessage
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if e.Code != w.Code || e.Message != w.Message || e.Field != w.Field || e.Suggestion != w.Suggestion {
		t.Errorf("%s: typed fields %q %q %q %q, want %q %q %q %q", how,
			e.Code, e.Message, e.Field, e.Suggestion, w.Code, w.Message, w.Field, w.Suggestion)
	}
	if w.Recovery != "" {
		want := registry.Recovery(w.Recovery)
		if !want.Valid() {
			want = registry.Terminal
		}
		if e.Recovery != want {
			t.Errorf("%s: recovery %q, want %q", how, e.Recovery, want)
		}
	}
	if (w.Details == nil) != (e.Details == nil) || (w.Details != nil && !sameJSON(t, e.RawDetails(), w.Details)) {
		t.Errorf("%s: details %v (raw %s), want %s", how, e.Details, e.RawDetails(), w.Details)
	}
}

type webhookVector struct {
	ID             string          `json:"id"`
	Format         string          `json:"format"`
	Payload        json.RawMessage `json:"payload"`
	ExpectedFormat string          `json:"expected_format"`
	ExpectedData   json.RawMessage `json:"expected_data"`
}

func TestVectorsWebhookPayloadExtraction(t *testing.T) {
	vectors := loadVectors[webhookVector](t, "webhook-payload-extraction.json", 12)
	x := vectorExtractor(t)
	for _, v := range vectors {
		t.Run(v.ID, func(t *testing.T) {
			r := x.Webhook(v.Payload)
			format := "a2a"
			if r.Form == extract.FormMCPWebhook {
				format = "mcp"
			}
			if format != v.ExpectedFormat || r.Form == extract.FormUnknown {
				t.Errorf("form = %q, want the %s format", r.Form, v.ExpectedFormat)
			}
			if !sameJSON(t, r.Data, v.ExpectedData) {
				t.Errorf("data = %s, want %s", r.Data, v.ExpectedData)
			}
			if r.Problem != nil {
				t.Errorf("problem = %v", r.Problem)
			}
			// A payload whose data holds an adcp_error yields it, with its
			// action; a failed payload without one is a generic error.
			var holder struct {
				AdcpError json.RawMessage `json:"adcp_error"`
			}
			_ = json.Unmarshal(v.ExpectedData, &holder)
			switch {
			case holder.AdcpError != nil:
				if r.Error == nil || !sameJSON(t, r.Error.Raw, holder.AdcpError) || r.Action != adcperr.ActionRetry {
					t.Errorf("error = %v, action %q; want the adcp_error and retry", r.Error, r.Action)
				}
			case r.State == "failed":
				if r.Action != adcperr.ActionGeneric {
					t.Errorf("action = %q, want generic_error", r.Action)
				}
			default:
				if r.Action != "" || r.Error != nil {
					t.Errorf("action = %q, error %v; want none", r.Action, r.Error)
				}
			}
		})
	}
}

// retryAfter is the delay a retry waits: the error's, when the action is
// retry.
func retryAfter(r *extract.Result) time.Duration {
	if r.Action != adcperr.ActionRetry || r.Error == nil {
		return 0
	}
	return r.Error.RetryAfter
}
