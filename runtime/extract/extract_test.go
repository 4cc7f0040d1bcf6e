package extract_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// extractCase is one envelope and what extraction must make of it.
type extractCase struct {
	name      string
	transport string
	env       string
	data      string // expected Data as JSON ("" for none)
	code      string // expected Error.Code ("" for none)
	action    adcperr.Action
	problem   extract.Problem
	retry     time.Duration
	recovery  registry.Recovery // checked when not ""
}

func runCases(t *testing.T, x *extract.Extractor, cases []extractCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var r *extract.Result
			switch c.transport {
			case mcp:
				r = x.MCP([]byte(c.env))
			case a2a:
				r = x.A2A([]byte(c.env))
			case webhook:
				r = x.Webhook([]byte(c.env))
			default:
				t.Fatalf("transport %q", c.transport)
			}
			if c.data == "" {
				if r.Data != nil {
					t.Errorf("data = %s, want none", r.Data)
				}
			} else if !sameJSON(t, r.Data, json.RawMessage(c.data)) {
				t.Errorf("data = %s, want %s", r.Data, c.data)
			}
			gotCode := ""
			if r.Error != nil {
				gotCode = r.Error.Code
			}
			if gotCode != c.code {
				t.Errorf("error code = %q, want %q", gotCode, c.code)
			}
			if r.Action != c.action {
				t.Errorf("action = %q, want %q", r.Action, c.action)
			}
			if (c.problem == "") != (r.Problem == nil) || (c.problem != "" && !errors.Is(r.Problem, c.problem)) {
				t.Errorf("problem = %v, want %q", r.Problem, c.problem)
			}
			if got := retryAfter(r); got != c.retry {
				t.Errorf("retry after = %s, want %s", got, c.retry)
			}
			if c.recovery != "" && (r.Error == nil || r.Error.Recovery != c.recovery) {
				t.Errorf("recovery = %v, want %q", r.Error, c.recovery)
			}
		})
	}
}

const (
	mcp     = "mcp"
	jsonrpc = "mcp" // MCP reads a JSON-RPC response too
	a2a     = "a2a"
	webhook = "webhook"
)

func TestMCPJavaScriptSemantics(t *testing.T) {
	rl := `{"code":"RATE_LIMITED","message":"slow down","retry_after":5}`
	runCases(t, testExtractor(), []extractCase{
		{name: "isError string false is truthy", transport: mcp,
			env:  `{"isError":"false","structuredContent":{"adcp_error":` + rl + `}}`,
			code: "RATE_LIMITED", action: adcperr.ActionRetry, retry: 5 * time.Second},
		{name: "isError 0 is falsy", transport: mcp,
			env: `{"isError":0,"structuredContent":{"a":1}}`, data: `{"a":1}`},
		{name: "isError empty string is falsy", transport: mcp,
			env: `{"isError":"","structuredContent":{"a":1}}`, data: `{"a":1}`},
		{name: "isError empty array is truthy", transport: mcp,
			env: `{"isError":[],"structuredContent":{"a":1}}`, action: adcperr.ActionGeneric},
		{name: "isError -0.0e5 is falsy", transport: mcp,
			env: `{"isError":-0.0e5,"structuredContent":{"a":1}}`, data: `{"a":1}`},
		{name: "isError 1e-400 underflows to 0", transport: mcp,
			env: `{"isError":1e-400,"structuredContent":{"a":1}}`, data: `{"a":1}`},
		{name: "duplicate isError: last wins", transport: mcp,
			env: `{"isError":true,"isError":false,"structuredContent":{"a":1}}`, data: `{"a":1}`},
		{name: "escaped key names isError", transport: mcp,
			env:  `{"\u0069sError":true,"structuredContent":{"adcp_error":` + rl + `}}`,
			code: "RATE_LIMITED", action: adcperr.ActionRetry, retry: 5 * time.Second},
		{name: "adcp_error 0 is absent: text fallback", transport: mcp,
			env:  `{"isError":true,"structuredContent":{"adcp_error":0},"content":[{"type":"text","text":"{\"adcp_error\":{\"code\":\"CONFLICT\"}}"}]}`,
			code: "CONFLICT", action: adcperr.ActionRetry},
		{name: "truthy non-object adcp_error decides: no fallback", transport: mcp,
			env:    `{"isError":true,"structuredContent":{"adcp_error":"x"},"content":[{"type":"text","text":"{\"adcp_error\":{\"code\":\"CONFLICT\"}}"}]}`,
			action: adcperr.ActionGeneric},
		{name: "duplicate adcp_error keys count once", transport: mcp,
			env:    `{"structuredContent":{"adcp_error":1,"adcp_error":{"code":"X"}}}`,
			action: adcperr.ActionGeneric},
		{name: "adcp_error plus data is data", transport: mcp,
			env: `{"structuredContent":{"adcp_error":{"code":"X"},"products":[]}}`, data: `{"adcp_error":{"code":"X"},"products":[]}`},
		{name: "empty structuredContent is data", transport: mcp,
			env: `{"structuredContent":{},"content":[{"type":"text","text":"{\"b\":2}"}]}`, data: `{}`},
		{name: "array structuredContent falls back to text", transport: mcp,
			env: `{"structuredContent":[1],"content":[{"type":"text","text":" {\"b\":2}\n"}]}`, data: `{"b":2}`},
		{name: "null and odd content items are skipped", transport: mcp,
			env: `{"content":[null,1,{"type":"text","text":5},{"type":"image"},{"type":"text","text":""},{"type":"text","text":"{\"b\":2}"}]}`, data: `{"b":2}`},
		{name: "text parsing to a string is skipped", transport: mcp,
			env: `{"content":[{"type":"text","text":"\"{}\""}]}`},
		{name: "adcp_error-only text is skipped, next item wins", transport: mcp,
			env: `{"content":[{"type":"text","text":"{\"adcp_error\":{}}"},{"type":"text","text":"{\"b\":2}"}]}`, data: `{"b":2}`},
		{name: "adcp_error-only text without data is an unflagged error", transport: mcp,
			env: `{"content":[{"type":"text","text":"{\"adcp_error\":{\"code\":\"X\"}}"}]}`, action: adcperr.ActionGeneric},
		{name: "envelope that is not an object", transport: mcp, env: `[{"structuredContent":{}}]`},
		{name: "null envelope", transport: mcp, env: `null`},
		{name: "invalid JSON", transport: mcp, env: `{"isError":true,}`, problem: extract.ErrInvalidJSON},
		{name: "trailing garbage", transport: mcp, env: `{} {}`, problem: extract.ErrInvalidJSON},
		{name: "BOM is not JSON whitespace", transport: mcp, env: "\ufeff{}", problem: extract.ErrInvalidJSON},
		{name: "isError without any error", transport: mcp, env: `{"isError":true,"content":[{"type":"text","text":"boom"}]}`,
			action: adcperr.ActionGeneric},
		{name: "__proto__ is data", transport: mcp,
			env: `{"structuredContent":{"__proto__":{"isAdmin":true}}}`, data: `{"__proto__":{"isAdmin":true}}`},
	})
}

func TestErrorValidationAndRecovery(t *testing.T) {
	sc := func(ae string) string { return `{"isError":true,"structuredContent":{"adcp_error":` + ae + `}}` }
	code64 := strings.Repeat("A", 64)
	emoji32 := strings.Repeat("😀", 32) // 64 UTF-16 units
	emoji33 := strings.Repeat("😀", 33)
	runCases(t, testExtractor(), []extractCase{
		{name: "code of 64 characters", transport: mcp, env: sc(`{"code":"` + code64 + `"}`),
			code: code64, action: adcperr.ActionEscalate, recovery: registry.Terminal},
		{name: "code of 65 characters", transport: mcp, env: sc(`{"code":"` + code64 + `A"}`), action: adcperr.ActionGeneric},
		{name: "code of 64 UTF-16 units", transport: mcp, env: sc(`{"code":"` + emoji32 + `"}`), code: emoji32, action: adcperr.ActionEscalate},
		{name: "code of 66 UTF-16 units", transport: mcp, env: sc(`{"code":"` + emoji33 + `"}`), action: adcperr.ActionGeneric},
		{name: "code not a string", transport: mcp, env: sc(`{"code":429}`), action: adcperr.ActionGeneric},
		{name: "duplicate code: last wins", transport: mcp, env: sc(`{"code":5,"code":"CONFLICT"}`), code: "CONFLICT", action: adcperr.ActionRetry},
		{name: "array adcp_error", transport: mcp, env: sc(`[{"code":"X"}]`), action: adcperr.ActionGeneric},
		{name: "recovery wins over table", transport: mcp, env: sc(`{"code":"RATE_LIMITED","recovery":"terminal"}`),
			code: "RATE_LIMITED", action: adcperr.ActionEscalate},
		{name: "unknown recovery is terminal", transport: mcp, env: sc(`{"code":"RATE_LIMITED","recovery":"Transient"}`),
			code: "RATE_LIMITED", action: adcperr.ActionEscalate, recovery: registry.Terminal},
		{name: "truthy non-string recovery is terminal", transport: mcp, env: sc(`{"code":"RATE_LIMITED","recovery":1}`),
			code: "RATE_LIMITED", action: adcperr.ActionEscalate},
		{name: "empty recovery defers to the table", transport: mcp, env: sc(`{"code":"RATE_LIMITED","recovery":""}`),
			code: "RATE_LIMITED", action: adcperr.ActionRetry},
		{name: "null recovery defers to the table", transport: mcp, env: sc(`{"code":"BUDGET_TOO_LOW","recovery":null}`),
			code: "BUDGET_TOO_LOW", action: adcperr.ActionSurface},
		{name: "AUTH_MISSING is built in", transport: mcp, env: sc(`{"code":"AUTH_MISSING"}`),
			code: "AUTH_MISSING", action: adcperr.ActionSurface},
		{name: "unknown code is terminal", transport: mcp, env: sc(`{"code":"NEW_CODE"}`), code: "NEW_CODE", action: adcperr.ActionEscalate},
		{name: "retry_after 1e400 is absent, not a failure", transport: mcp, env: sc(`{"code":"RATE_LIMITED","retry_after":1e400}`),
			code: "RATE_LIMITED", action: adcperr.ActionRetry},
		{name: "retry_after string is absent", transport: mcp, env: sc(`{"code":"RATE_LIMITED","retry_after":"5"}`),
			code: "RATE_LIMITED", action: adcperr.ActionRetry},
		{name: "retry_after rounds up", transport: mcp, env: sc(`{"code":"RATE_LIMITED","retry_after":4.01}`),
			code: "RATE_LIMITED", action: adcperr.ActionRetry, retry: 5 * time.Second},
		{name: "retry_after below 1", transport: mcp, env: sc(`{"code":"RATE_LIMITED","retry_after":0.2}`),
			code: "RATE_LIMITED", action: adcperr.ActionRetry, retry: time.Second},
		{name: "negative retry_after", transport: mcp, env: sc(`{"code":"RATE_LIMITED","retry_after":-30}`),
			code: "RATE_LIMITED", action: adcperr.ActionRetry, retry: time.Second},
		{name: "retry_after above an hour", transport: mcp, env: sc(`{"code":"RATE_LIMITED","retry_after":3600.5}`),
			code: "RATE_LIMITED", action: adcperr.ActionRetry, retry: time.Hour},
		{name: "retry_after on a correctable error is not a retry", transport: mcp, env: sc(`{"code":"BUDGET_TOO_LOW","retry_after":9}`),
			code: "BUDGET_TOO_LOW", action: adcperr.ActionSurface},
	})
}

func TestSizeCaps(t *testing.T) {
	pad := func(n int) string { return strings.Repeat("x", n) }
	// An error object whose compact text is exactly n bytes.
	errOf := func(n int) string {
		base := `{"code":"RATE_LIMITED","message":""}`
		return `{"code":"RATE_LIMITED","message":"` + pad(n-len(base)) + `"}`
	}
	pretty := strings.Replace(errOf(4096), `","`, "\",\n    \"", 1)
	bigText := `{"a":"` + pad(extract.DefaultPayloadCap-8) + `"}` // 1 MiB exactly
	tooBig := `{"a":"` + pad(extract.DefaultPayloadCap-7) + `"}`
	quote := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	runCases(t, testExtractor(), []extractCase{
		{name: "error of 4096 bytes", transport: mcp, env: `{"isError":true,"structuredContent":{"adcp_error":` + errOf(4096) + `}}`,
			code: "RATE_LIMITED", action: adcperr.ActionRetry},
		{name: "pretty-printed error of 4096 compact bytes", transport: mcp, env: `{"isError":true,"structuredContent":{"adcp_error":` + pretty + `}}`,
			code: "RATE_LIMITED", action: adcperr.ActionRetry},
		{name: "error of 4097 bytes", transport: mcp, env: `{"isError":true,"structuredContent":{"adcp_error":` + errOf(4097) + `}}`,
			action: adcperr.ActionGeneric, problem: extract.ErrTooLarge},
		{name: "text of 1 MiB is parsed", transport: mcp, env: `{"content":[{"type":"text","text":` + quote(bigText) + `}]}`,
			data: bigText},
		{name: "text over 1 MiB is skipped", transport: mcp, env: `{"content":[{"type":"text","text":` + quote(tooBig) + `}]}`,
			problem: extract.ErrTooLarge},
		{name: "skipped text, later item extracted", transport: mcp,
			env: `{"content":[{"type":"text","text":` + quote(tooBig) + `},{"type":"text","text":"{\"b\":1}"}]}`, data: `{"b":1}`},
		{name: "structuredContent over 1 MiB falls back to text", transport: mcp,
			env: `{"structuredContent":` + tooBig + `,"content":[{"type":"text","text":"{\"b\":1}"}]}`, data: `{"b":1}`},
		{name: "structuredContent over 1 MiB alone", transport: mcp, env: `{"structuredContent":` + tooBig + `}`,
			problem: extract.ErrTooLarge},
		{name: "structuredContent of 1 MiB", transport: mcp, env: `{"structuredContent":` + bigText + `}`, data: bigText},
		{name: "oversized A2A error with its DataPart as data", transport: a2a,
			env:    `{"status":{"state":"failed"},"artifacts":[{"parts":[{"data":{"adcp_error":` + errOf(5000) + `}}]}]}`,
			data:   `{"adcp_error":` + errOf(5000) + `}`,
			action: adcperr.ActionGeneric},
		{name: "oversized JSON-RPC error", transport: jsonrpc, env: `{"error":{"data":{"adcp_error":` + errOf(5000) + `}}}`,
			action: adcperr.ActionGeneric, problem: extract.ErrTooLarge},
	})
	// A smaller cap applies everywhere it is configured.
	runCases(t, testExtractor(extract.WithPayloadCap(10)), []extractCase{
		{name: "custom cap", transport: mcp, env: `{"structuredContent":{"a":"0123456789"}}`, problem: extract.ErrTooLarge},
	})
	// The problem names what was skipped, its size and the cap.
	for _, tc := range []struct {
		x    *extract.Extractor
		env  string
		want string
	}{
		{testExtractor(), `{"structuredContent":` + tooBig + `}`, "structuredContent is 1048577 bytes, over the cap of 1048576"},
		{testExtractor(extract.WithPayloadCap(10)), `{"content":[{"type":"text","text":"{\"a\":\"0123456789\"}"}]}`, "content[0].text is 18 bytes, over the cap of 10"},
		{testExtractor(), `{"error":{"data":{"adcp_error":` + errOf(5000) + `}}}`, "error.data.adcp_error is 5000 bytes, over the cap of 4096"},
	} {
		r := tc.x.DetectError([]byte(tc.env))
		if tc.env[2] == 's' || tc.env[2] == 'c' {
			r = tc.x.MCP([]byte(tc.env))
		}
		if r.Problem == nil || !strings.Contains(r.Problem.Error(), tc.want) {
			t.Errorf("%.40s: problem %v, want %q", tc.env, r.Problem, tc.want)
		}
	}
}

func TestJSONRPC(t *testing.T) {
	runCases(t, testExtractor(), []extractCase{
		{name: "null error handles result", transport: jsonrpc, env: `{"error":null,"result":{"structuredContent":{"a":1}}}`, data: `{"a":1}`},
		{name: "empty error object is a generic error", transport: jsonrpc, env: `{"error":{},"result":{"structuredContent":{"a":1}}}`,
			action: adcperr.ActionGeneric},
		{name: "error wins over result", transport: jsonrpc,
			env:  `{"error":{"code":-32029,"data":{"adcp_error":{"code":"RATE_LIMITED","retry_after":2}}},"result":{"structuredContent":{"a":1}}}`,
			code: "RATE_LIMITED", action: adcperr.ActionRetry, retry: 2 * time.Second},
		{name: "the JSON-RPC code never classifies", transport: jsonrpc,
			env:  `{"error":{"code":-32029,"data":{"adcp_error":{"code":"ACCOUNT_SUSPENDED"}}}}`,
			code: "ACCOUNT_SUSPENDED", action: adcperr.ActionEscalate},
		{name: "string data", transport: jsonrpc, env: `{"error":{"code":-32029,"data":"adcp_error"}}`, action: adcperr.ActionGeneric},
		{name: "isError result", transport: jsonrpc,
			env:  `{"result":{"isError":true,"content":[{"type":"text","text":"{\"adcp_error\":{\"code\":\"INVALID_REQUEST\",\"field\":\"x\"}}"}]}}`,
			code: "INVALID_REQUEST", action: adcperr.ActionSurface},
		{name: "no result", transport: jsonrpc, env: `{"jsonrpc":"2.0","id":1}`},
	})
}

func TestA2AEdgeCases(t *testing.T) {
	task := func(state, artifacts, message string) string {
		s := `{"status":{"state":` + state
		if message != "" {
			s += `,"message":{"parts":` + message + `}`
		}
		s += `}`
		if artifacts != "" {
			s += `,"artifacts":` + artifacts
		}
		return s + `}`
	}
	wrapper := `{"data":{"response":{"products":[]}}}`
	runCases(t, testExtractor(), []extractCase{
		{name: "nested stream envelope yields nothing", transport: a2a,
			env: `{"task":{"task":` + task(`"completed"`, `[{"parts":[{"data":{"a":1}}]}]`, "") + `}}`},
		{name: "statusUpdate envelope", transport: a2a,
			env: `{"statusUpdate":` + task(`"TASK_STATE_WORKING"`, "", `[{"data":{"p":1}}]`) + `}`, data: `{"p":1}`},
		{name: "message envelope has no state", transport: a2a, env: `{"message":{"parts":[{"data":{"a":1}}]}}`},
		{name: "envelope member that is not an object is not an envelope", transport: a2a,
			env: `{"message":"hello","status":{"state":"working","message":{"parts":[{"data":{"p":1}}]}}}`, data: `{"p":1}`},
		{name: "wrapper in the final-state status message fallback", transport: a2a,
			env: task(`"completed"`, "", `[`+wrapper+`]`), problem: extract.ErrWrapperDetected},
		{name: "interim states are not wrapper-checked", transport: a2a,
			env: task(`"working"`, "", `[`+wrapper+`]`), data: `{"response":{"products":[]}}`},
		{name: "response holding null is not a wrapper", transport: a2a,
			env: task(`"completed"`, `[{"parts":[{"data":{"response":null}}]}]`, ""), data: `{"response":null}`},
		{name: "response holding an array is not a wrapper", transport: a2a,
			env: task(`"completed"`, `[{"parts":[{"data":{"response":[1]}}]}]`, ""), data: `{"response":[1]}`},
		{name: "duplicate response keys are one key", transport: a2a,
			env: task(`"completed"`, `[{"parts":[{"data":{"response":1,"response":{}}}]}]`, ""), problem: extract.ErrWrapperDetected},
		{name: "wrapper in a failed task: data withheld, no error", transport: a2a,
			env: task(`"failed"`, `[{"parts":[`+wrapper+`]}]`, ""), action: adcperr.ActionGeneric, problem: extract.ErrWrapperDetected},
		{name: "British cancelled is not a state", transport: a2a, env: task(`"cancelled"`, `[{"parts":[{"data":{"a":1}}]}]`, "")},
		{name: "state that is not a string", transport: a2a, env: task(`1`, `[{"parts":[{"data":{"a":1}}]}]`, "")},
		{name: "lower-case A2A 1.0 style state", transport: a2a, env: task(`"input_required"`, "", `[{"data":{"a":1}}]`), data: `{"a":1}`},
		{name: "unspecified state", transport: a2a, env: task(`"TASK_STATE_UNSPECIFIED"`, "", `[{"data":{"a":1}}]`)},
		{name: "kind is ignored: a text part with object data is a DataPart", transport: a2a,
			env: task(`"completed"`, `[{"parts":[{"kind":"text","text":"x","data":{"a":1}}]}]`, ""), data: `{"a":1}`},
		{name: "artifacts that is not an array falls back", transport: a2a,
			env: task(`"completed"`, `{"0":{"parts":[{"data":{"a":1}}]}}`, `[{"data":{"b":2}}]`), data: `{"b":2}`},
		{name: "error in a later artifact is found", transport: a2a,
			env:  task(`"failed"`, `[{"parts":[{"data":{"x":1}}]},{"parts":[{"data":{"adcp_error":{"code":"CONFLICT"}}}]}]`, ""),
			data: `{"x":1}`, code: "CONFLICT", action: adcperr.ActionRetry},
		{name: "first adcp_error found decides even when invalid", transport: a2a,
			env:  task(`"failed"`, `[{"parts":[{"data":{"adcp_error":{"code":5}}}]}]`, `[{"data":{"adcp_error":{"code":"CONFLICT"}}}]`),
			data: `{"adcp_error":{"code":5}}`, action: adcperr.ActionGeneric},
		{name: "status message error when artifacts have none", transport: a2a,
			env:  task(`"TASK_STATE_REJECTED"`, `[{"parts":[{"text":"no"}]}]`, `[{"data":{"adcp_error":{"code":"POLICY_VIOLATION"}}}]`),
			data: `{"adcp_error":{"code":"POLICY_VIOLATION"}}`, code: "POLICY_VIOLATION", action: adcperr.ActionSurface},
		{name: "rejected without error is generic", transport: a2a, env: task(`"rejected"`, "", ""), action: adcperr.ActionGeneric},
		{name: "error in a completed task is still an error", transport: a2a,
			env:  task(`"completed"`, `[{"parts":[{"data":{"adcp_error":{"code":"ACCOUNT_SUSPENDED"}}}]}]`, ""),
			data: `{"adcp_error":{"code":"ACCOUNT_SUSPENDED"}}`, code: "ACCOUNT_SUSPENDED", action: adcperr.ActionEscalate},
	})
}

func TestWebhookEdgeCases(t *testing.T) {
	runCases(t, testExtractor(), []extractCase{
		{name: "falsy task_id means A2A", transport: webhook, env: `{"task_id":"","status":"completed","result":{"a":1}}`},
		{name: "non-string status means A2A", transport: webhook,
			env: `{"task_id":"t","status":{"state":"completed"},"artifacts":[{"parts":[{"data":{"a":1}}]}]}`, data: `{"a":1}`},
		{name: "MCP result that is not an object", transport: webhook, env: `{"task_id":"t","status":"completed","result":"done"}`, data: `"done"`},
		{name: "MCP failed without result", transport: webhook, env: `{"task_id":"t","status":"failed"}`, action: adcperr.ActionGeneric},
		{name: "MCP rejected with an invalid error", transport: webhook,
			env:  `{"task_id":"t","status":"rejected","result":{"adcp_error":{"code":""}}}`,
			data: `{"adcp_error":{"code":""}}`, action: adcperr.ActionGeneric},
		{name: "MCP completed holding an error", transport: webhook,
			env:  `{"task_id":"t","status":"completed","result":{"adcp_error":{"code":"BUDGET_TOO_LOW"}}}`,
			data: `{"adcp_error":{"code":"BUDGET_TOO_LOW"}}`, code: "BUDGET_TOO_LOW", action: adcperr.ActionSurface},
		{name: "A2A 1.0 push payload", transport: webhook,
			env: `{"task":{"id":"t","status":{"state":"TASK_STATE_COMPLETED"},"artifacts":[{"parts":[{"data":{"a":1}}]}]}}`, data: `{"a":1}`},
		{name: "A2A wrapper", transport: webhook,
			env: `{"id":"t","status":{"state":"completed"},"artifacts":[{"parts":[{"data":{"response":{}}}]}]}`, problem: extract.ErrWrapperDetected},
		{name: "invalid JSON", transport: webhook, env: `{`, problem: extract.ErrInvalidJSON},
	})
}

func TestDetectErrorOrder(t *testing.T) {
	x := testExtractor()
	for _, c := range []struct{ name, env, code, path string }{
		{"structuredContent first", `{"isError":true,"structuredContent":{"adcp_error":{"code":"A"}},"error":{"data":{"adcp_error":{"code":"B"}}}}`, "A", "structuredContent.adcp_error"},
		{"structuredContent needs isError", `{"structuredContent":{"adcp_error":{"code":"A"}},"error":{"data":{"adcp_error":{"code":"B"}}}}`, "B", "error.data.adcp_error"},
		{"artifacts before JSON-RPC", `{"artifacts":[{"parts":[{"data":{"adcp_error":{"code":"A"}}}]}],"error":{"data":{"adcp_error":{"code":"B"}}}}`, "A", "artifacts[0].parts[0].data.adcp_error"},
		{"artifacts before status message", `{"status":{"message":{"parts":[{"data":{"adcp_error":{"code":"B"}}}]}},"artifacts":[{"parts":[{"data":{"adcp_error":{"code":"A"}}}]}]}`, "A", "artifacts[0].parts[0].data.adcp_error"},
		{"status message inside an envelope", `{"statusUpdate":{"status":{"message":{"parts":[{"data":{"adcp_error":{"code":"B"}}}]}}}}`, "B", "statusUpdate.status.message.parts[0].data.adcp_error"},
		{"JSON-RPC before text", `{"isError":true,"content":[{"type":"text","text":"{\"adcp_error\":{\"code\":\"C\"}}"}],"error":{"data":{"adcp_error":{"code":"B"}}}}`, "B", "error.data.adcp_error"},
		{"text last", `{"isError":true,"content":[{"type":"text","text":"{\"adcp_error\":{\"code\":\"C\"}}"}]}`, "C", "content[0].text.adcp_error"},
		{"text needs isError", `{"content":[{"type":"text","text":"{\"adcp_error\":{\"code\":\"C\"}}"}]}`, "", ""},
		{"invalid first candidate decides", `{"isError":true,"structuredContent":{"adcp_error":{"code":""}},"error":{"data":{"adcp_error":{"code":"B"}}}}`, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := x.DetectError([]byte(c.env))
			code, path := "", ""
			if r.Error != nil {
				code, path = r.Error.Code, r.Error.Path
			}
			if code != c.code || path != c.path {
				t.Errorf("got %q at %q, want %q at %q", code, path, c.code, c.path)
			}
			if c.code == "" && r.Action != adcperr.ActionGeneric {
				t.Errorf("action %q, want generic_error", r.Action)
			}
		})
	}
}

func TestResultFailure(t *testing.T) {
	x := testExtractor()
	for _, c := range []struct {
		name string
		r    *extract.Result
		want error
	}{
		{"data", x.MCP([]byte(`{"structuredContent":{"a":1}}`)), nil},
		{"error", x.MCP([]byte(`{"isError":true,"structuredContent":{"adcp_error":{"code":"CONFLICT"}}}`)), &adcperr.Error{Code: "CONFLICT"}},
		{"invalid JSON", x.MCP([]byte(`{`)), extract.ErrInvalidJSON},
		{"wrapper", x.A2A([]byte(`{"status":{"state":"completed"},"artifacts":[{"parts":[{"data":{"response":{}}}]}]}`)), extract.ErrWrapperDetected},
		{"generic", x.A2A([]byte(`{"status":{"state":"failed"}}`)), extract.ErrUnstructuredFailure},
		{"failed task data is returned", x.A2A([]byte(`{"status":{"state":"failed"},"artifacts":[{"parts":[{"data":{"errors":[]}}]}]}`)), nil},
		{"nothing", x.MCP([]byte(`{"content":[]}`)), extract.ErrNoData},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := c.r.Failure()
			if (got == nil) != (c.want == nil) || (c.want != nil && !errors.Is(got, c.want)) {
				t.Errorf("Failure() = %v, want %v", got, c.want)
			}
		})
	}
	var se *wire.DecodeError
	if r := x.MCP([]byte(`{"a":tru}`)); !errors.As(r.Problem, &se) || se.Offset != 5 || se.Pointer != "/a" {
		t.Errorf("invalid JSON error = %v, want a syntax error at byte 5, /a", r.Problem)
	}
}

func TestUnknownRecoveryOption(t *testing.T) {
	unknown := []byte(`{"isError":true,"structuredContent":{"adcp_error":{"code":"X_ACME_FLOOR_NOT_MET"}}}`)
	// Terminal by default, even when the spec's policy says otherwise.
	if r := testExtractor().MCP(unknown); r.Action != adcperr.ActionEscalate {
		t.Fatalf("default: action %q, want escalate_to_human", r.Action)
	}
	// The spec's policy, when asked for.
	if r := testExtractor(extract.WithSpecUnknownRecovery()).MCP(unknown); r.Action != adcperr.ActionRetry {
		t.Fatalf("spec policy: action %q, want retry", r.Action)
	}
	if r := extract.New(nil, extract.WithSpecUnknownRecovery()).MCP(unknown); r.Action != adcperr.ActionEscalate {
		t.Fatalf("no spec policy: action %q, want escalate_to_human", r.Action)
	}
	x := testExtractor(extract.WithUnknownRecovery(registry.Transient))
	if x.Recovery("X_ACME_FLOOR_NOT_MET") != registry.Transient || x.Recovery("BUDGET_TOO_LOW") != registry.Correctable {
		t.Error("Recovery")
	}
	r := x.MCP([]byte(`{"isError":true,"structuredContent":{"adcp_error":{"code":"X_ACME_FLOOR_NOT_MET"}}}`))
	if r.Error == nil || r.Error.Recovery != registry.Transient || r.Action != adcperr.ActionRetry {
		t.Fatalf("got %v / %q, want transient retry", r.Error, r.Action)
	}
	// An explicit recovery still wins.
	r = x.MCP([]byte(`{"isError":true,"structuredContent":{"adcp_error":{"code":"X_ACME_FLOOR_NOT_MET","recovery":"correctable"}}}`))
	if r.Action != adcperr.ActionSurface {
		t.Fatalf("action %q, want surface_to_caller", r.Action)
	}
}

// extractAs runs the extraction of one transport (mcp, a2a, webhook).
func extractAs(x *extract.Extractor, transport, env string) *extract.Result {
	switch transport {
	case mcp:
		return x.MCP([]byte(env))
	case a2a:
		return x.A2A([]byte(env))
	}
	return x.Webhook([]byte(env))
}

// Result.Task is the A2A task, event or message under the JSON-RPC result
// and one stream envelope, where its ids are read.
func TestA2ATask(t *testing.T) {
	x := testExtractor()
	task := `{"id":"t","contextId":"c","status":{"state":"working"}}`
	for _, c := range []struct{ name, transport, env, want string }{
		{"task", a2a, task, task},
		{"stream response", a2a, `{"task":` + task + `}`, task},
		{"JSON-RPC response", a2a, `{"jsonrpc":"2.0","id":1,"result":` + task + `}`, task},
		{"JSON-RPC stream event", a2a, `{"jsonrpc":"2.0","id":1,"result":{"statusUpdate":` + task + `}}`, task},
		{"artifact event", a2a, `{"artifactUpdate":{"taskId":"t","artifact":{}}}`, `{"taskId":"t","artifact":{}}`},
		{"message", a2a, `{"message":{"role":"agent","parts":[]}}`, `{"role":"agent","parts":[]}`},
		{"nested envelopes", a2a, `{"task":{"task":` + task + `}}`, ""},
		{"JSON-RPC result not an object", a2a, `{"jsonrpc":"2.0","id":1,"result":[1]}`, ""},
		{"JSON-RPC error", a2a, `{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"m"}}`, ""},
		{"MCP", mcp, `{"structuredContent":{"id":"t"}}`, ""},
		{"A2A push", webhook, `{"statusUpdate":` + task + `}`, task},
		{"MCP webhook", webhook, `{"task_id":"t","status":"working"}`, ""},
	} {
		if r := extractAs(x, c.transport, c.env); string(r.Task) != c.want {
			t.Errorf("%s: Task %s, want %s", c.name, r.Task, c.want)
		}
	}
}

// Every form a client holds is recognised, and anything else is named.
func TestForms(t *testing.T) {
	x := testExtractor()
	task := `{"id":"t","status":{"state":"completed"},"artifacts":[{"parts":[{"data":{"a":1}}]}]}`
	for _, c := range []struct {
		name, transport, env string
		form                 extract.Form
		data, failure        string
	}{
		{"tool result", mcp, `{"content":[],"structuredContent":{"a":1}}`, extract.FormToolResult, `{"a":1}`, ""},
		{"JSON-RPC response", mcp, `{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"a":1}}}`, extract.FormJSONRPC, `{"a":1}`, ""},
		{"JSON-RPC without jsonrpc", mcp, `{"id":1,"result":{"structuredContent":{"a":1}}}`, extract.FormJSONRPC, `{"a":1}`, ""},
		{"JSON-RPC result not an object", mcp, `{"jsonrpc":"2.0","id":1,"result":[1]}`, extract.FormJSONRPC, "", "JSON-RPC result: got a JSON array"},
		{"array for MCP", mcp, `[{"structuredContent":{}}]`, extract.FormUnknown, "", "got a JSON array, want an MCP CallToolResult"},
		{"task", a2a, task, extract.FormTask, `{"a":1}`, ""},
		{"stream response", a2a, `{"task":` + task + `}`, extract.FormStream, `{"a":1}`, ""},
		{"A2A JSON-RPC response", a2a, `{"jsonrpc":"2.0","id":"r","result":` + task + `}`, extract.FormJSONRPC, `{"a":1}`, ""},
		{"A2A JSON-RPC stream event", a2a, `{"jsonrpc":"2.0","id":"r","result":{"statusUpdate":{"status":{"state":"working","message":{"parts":[{"data":{"p":1}}]}}}}}`, extract.FormJSONRPC, `{"p":1}`, ""},
		{"A2A JSON-RPC without result", a2a, `{"jsonrpc":"2.0","id":"r"}`, extract.FormJSONRPC, "", "JSON-RPC result: got nothing"},
		{"A2A JSON-RPC error", a2a, `{"jsonrpc":"2.0","id":"r","error":{"code":-32603,"message":"internal"}}`, extract.FormJSONRPC, "", "failure without a structured AdCP error"},
		{"tool result for A2A", a2a, `{"content":[],"structuredContent":{"a":1}}`, extract.FormUnknown, "", "got an object with keys [content structuredContent], want an A2A task"},
		{"number for A2A", a2a, `7`, extract.FormUnknown, "", "got a JSON number"},
		{"MCP webhook", webhook, `{"task_id":"t","status":"completed","result":{"a":1}}`, extract.FormMCPWebhook, `{"a":1}`, ""},
		{"A2A webhook", webhook, task, extract.FormTask, `{"a":1}`, ""},
		{"empty webhook", webhook, `{}`, extract.FormUnknown, "", "got an empty object"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := extractAs(x, c.transport, c.env)
			if r.Form != c.form || string(r.Data) != c.data {
				t.Errorf("form %q data %s, want %q %s", r.Form, r.Data, c.form, c.data)
			}
			err := r.Failure()
			if (c.failure == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.failure)) {
				t.Errorf("Failure() = %v, want %q", err, c.failure)
			}
		})
	}
}
