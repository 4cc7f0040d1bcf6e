package runtime_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// The published conformance vectors, replayed in full by id with their own
// expected values. Counts are pinned so a vector can never be skipped
// silently.

// manifestSources are the spec trees whose manifests the vectors' code
// table is built from: every published version that has a manifest.
var manifestSources = []string{"protocol/3.0.26.tgz", "schemas/3.1.19", "schemas/3.2.0-beta.3"}

var vectorTable struct {
	once  sync.Once
	table *runtime.CodeTable
	err   error
}

// vectorCodes is the union of the published manifests' code tables over the
// built-in table.
func vectorCodes(t *testing.T) *runtime.CodeTable {
	t.Helper()
	dir := testspec.Dir(t)
	vectorTable.once.Do(func() {
		var tables []*runtime.CodeTable
		for _, src := range manifestSources {
			tree, err := spec.Open(filepath.Join(dir, src))
			if err != nil {
				vectorTable.err = err
				return
			}
			tbl, err := runtime.LoadManifestCodes(tree.FS, src)
			if err != nil {
				vectorTable.err = err
				return
			}
			tables = append(tables, tbl)
		}
		u, err := runtime.UnionCodes(tables...)
		if err != nil {
			vectorTable.err = err
			return
		}
		vectorTable.table = u.WithFallback(runtime.BuiltinCodes())
	})
	if vectorTable.err != nil {
		t.Fatal(vectorTable.err)
	}
	return vectorTable.table
}

func vectorExtractor(t *testing.T) runtime.Extractor {
	return runtime.Extractor{Codes: vectorCodes(t)}
}

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
			if r.Problem != "" {
				t.Errorf("problem = %q (%v), want none", r.Problem, r.Err)
			}
			if r.Data != nil {
				checkMCPPath(t, v.Path, r.DataPath)
			}
			data, err := runtime.MCPData(v.Response)
			if err != nil || !sameJSON(t, data, v.ExpectedData) {
				t.Errorf("MCPData = %s, %v; want %s", data, err, v.ExpectedData)
			}
			// The same envelope as a JSON-RPC result gives the same data.
			rr := x.JSONRPC(jsonrpcResult(v.Response))
			if !sameJSON(t, rr.Data, v.ExpectedData) {
				t.Errorf("as JSON-RPC result: data = %s, want %s", rr.Data, v.ExpectedData)
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
			data, err := runtime.A2AData(v.Response)
			switch v.ExpectedErrorType {
			case "wrapper_detected":
				if r.Problem != runtime.ProblemWrapperDetected || !errors.Is(r.Err, runtime.ErrWrapperDetected) {
					t.Fatalf("problem = %q (%v), want wrapper_detected", r.Problem, r.Err)
				}
				if r.Data != nil {
					t.Errorf("data = %s, want none: wrappers are never unwrapped", r.Data)
				}
				if !errors.Is(err, runtime.ErrWrapperDetected) || data != nil {
					t.Errorf("A2AData = %s, %v; want ErrWrapperDetected", data, err)
				}
			case "":
				if !sameJSON(t, r.Data, v.ExpectedData) {
					t.Fatalf("data = %s, want %s", r.Data, v.ExpectedData)
				}
				if r.Problem != "" {
					t.Errorf("problem = %q (%v), want none", r.Problem, r.Err)
				}
				if err != nil || !sameJSON(t, data, v.ExpectedData) {
					t.Errorf("A2AData = %s, %v; want %s", data, err, v.ExpectedData)
				}
				if r.Data != nil {
					checkMCPPath(t, v.Path, r.DataPath)
				}
			default:
				t.Fatalf("expected_error_type %q unknown to this test", v.ExpectedErrorType)
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
			case v.Transport == "mcp" && v.Path == "jsonrpc_error":
				checkErrorResult(t, "JSONRPC", x.JSONRPC(v.Response), v)
			case v.Transport == "mcp":
				checkErrorResult(t, "MCP", x.MCP(v.Response), v)
				checkErrorResult(t, "JSONRPC(result)", x.JSONRPC(jsonrpcResult(v.Response)), v)
			case v.Transport == "a2a":
				checkErrorResult(t, "A2A", x.A2A(v.Response), v)
				checkErrorResult(t, "A2A(task envelope)", x.A2A([]byte(`{"task":`+string(v.Response)+`}`)), v)
			default:
				t.Fatalf("transport %q unknown to this test", v.Transport)
			}
		})
	}
}

func checkErrorResult(t *testing.T, how string, r *runtime.Result, v transportVector) {
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
		checkMCPPath(t, v.Path, strings.TrimPrefix(r.Error.Path, "task."))
		checkTypedFields(t, how, r.Error, v.ExpectedError)
	}
	if string(r.Action) != v.ExpectedAction {
		t.Errorf("%s: action = %q, want %q", how, r.Action, v.ExpectedAction)
	}
	wantRetry := time.Duration(0)
	if r.Action == runtime.ActionRetry {
		var e struct {
			RetryAfter *float64 `json:"retry_after"`
		}
		_ = json.Unmarshal(v.ExpectedError, &e)
		if e.RetryAfter != nil {
			wantRetry = time.Duration(math.Min(3600, math.Max(1, math.Ceil(*e.RetryAfter)))) * time.Second
		}
	}
	if r.RetryAfter != wantRetry {
		t.Errorf("%s: retry after %s, want %s", how, r.RetryAfter, wantRetry)
	}
}

// checkTypedFields compares the typed fields with the expected object.
func checkTypedFields(t *testing.T, how string, e *runtime.Error, want json.RawMessage) {
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
		want := runtime.Recovery(w.Recovery)
		if !want.Valid() {
			want = runtime.RecoveryTerminal
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
			if string(r.Format) != v.ExpectedFormat {
				t.Errorf("format = %q, want %q", r.Format, v.ExpectedFormat)
			}
			if !sameJSON(t, r.Data, v.ExpectedData) {
				t.Errorf("data = %s, want %s", r.Data, v.ExpectedData)
			}
			if r.Problem != "" {
				t.Errorf("problem = %q (%v)", r.Problem, r.Err)
			}
			data, format, err := runtime.WebhookData(v.Payload)
			if err != nil || string(format) != v.ExpectedFormat || !sameJSON(t, data, v.ExpectedData) {
				t.Errorf("WebhookData = %s, %q, %v", data, format, err)
			}
			// A payload whose data holds an adcp_error yields it, with its
			// action; a failed payload without one is a generic error.
			var holder struct {
				AdcpError json.RawMessage `json:"adcp_error"`
			}
			_ = json.Unmarshal(v.ExpectedData, &holder)
			switch {
			case holder.AdcpError != nil:
				if r.Error == nil || !sameJSON(t, r.Error.Raw, holder.AdcpError) || r.Action != runtime.ActionRetry {
					t.Errorf("error = %v, action %q; want the adcp_error and retry", r.Error, r.Action)
				}
			case r.State == "failed":
				if r.Action != runtime.ActionGeneric {
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
