package buyer

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// Fuzz targets for what reads a seller's bytes: status detection over MCP
// and A2A envelopes, the status tool's answers, and the member surgery on
// request bytes. Run one with
//
//	go test -run='^$' -fuzz=FuzzDetect -fuzztime=30s ./runtime/buyer/

// staticTransport answers every call with the same envelope.
type staticTransport struct {
	p   Protocol
	env []byte
}

func (s staticTransport) Protocol() Protocol { return s.p }
func (s staticTransport) CallTool(context.Context, ToolCall) (*Exchange, error) {
	return &Exchange{Protocol: s.p, Envelope: s.env, Exact: true}, nil
}

var fuzzSeeds = []string{
	`{"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":{"status":"submitted","task_id":"t"}}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"isError":true,"structuredContent":{"adcp_error":{"code":"RATE_LIMITED","retry_after":1e400}}}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"a\":1,\"a\":2}"}]}}`,
	`{"jsonrpc":"2.0","id":1,"error":{"code":-32029,"message":"x","data":{"adcp_error":{"code":"RATE_LIMITED"}}}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"id":"a","contextId":"c","status":{"state":"TASK_STATE_INPUT_REQUIRED","message":{"parts":[{"kind":"data","data":{"reason":"x"}}]}}}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"kind":"task","id":"a","status":{"state":"completed"},"artifacts":[{"metadata":{"adcp_task_id":"z"},"parts":[{"kind":"data","data":{"status":"working"}}]}]}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"kind":"message","role":"agent","parts":[{"kind":"data","data":{"things":[]}}]}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"status":{"state":"failed"},"artifacts":[{"parts":[{"data":{"adcp_error":{"code":"X"}}}]}]}}`,
	`{"jsonrpc":"2.0","id":1,"result":{"task":{"status":{"state":"cancelled"}}}}`,
	`{"\u005f_proto__":1}`, `[`, `null`, `{"result":{"structuredContent":{"status":7}}}`,
}

func FuzzDetect(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	spec := registry.NewSpec(registry.SpecConfig{Version: "fuzz"})
	f.Fuzz(func(t *testing.T, env []byte, a2a bool) {
		p := MCP
		if a2a {
			p = A2A
		}
		c, err := New(spec, staticTransport{p: p, env: env}, WithoutRetries())
		if err != nil {
			t.Fatal(err)
		}
		out, err := c.Invoke(context.Background(), "tool", nil)
		if err != nil {
			if out != nil {
				t.Fatal("a reply with an error")
			}
			return
		}
		if !out.Status.Known() || out.Status == task.Unknown {
			t.Fatalf("status %q", out.Status)
		}
		if out.Data != nil {
			if err := wire.Valid(out.Data); err != nil {
				t.Fatalf("data that fails the strict check: %v", err)
			}
			if len(out.Data) > len(env) {
				t.Fatalf("%d bytes of data out of a %d-byte envelope", len(out.Data), len(env))
			}
		} else if out.Status.Final() {
			t.Fatalf("a final %s status without data", out.Status)
		}
		// The status tool's reading never panics either.
		_, _ = c.readStatus(TaskRef{Tool: "tool", TaskID: "t"}, "get_task_status", &Exchange{Protocol: p, Envelope: env})
	})
}

func FuzzMember(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1}`, `{"idempotency_key":""}`, ` { "x" : [1,{"idempotency_key":2}] , "idempotency\u005fkey" : null } `, `{"a":"\"}"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, obj []byte) {
		if wire.Valid(obj) != nil {
			return
		}
		req, err := requestObject(obj)
		if err != nil {
			return
		}
		out, key, err := withIdempotencyKey(req, "")
		if err != nil {
			return
		}
		if err := wire.Valid(out); err != nil {
			t.Fatalf("%s became invalid: %s: %v", obj, out, err)
		}
		var m map[string]json.RawMessage
		if err := json.Unmarshal(out, &m); err != nil {
			t.Fatal(err)
		}
		var got string
		if json.Unmarshal(m[idempotencyMember], &got) != nil || got != key || CheckIdempotencyKey(key) != nil {
			t.Fatalf("%s: key %q, member %s", out, key, m[idempotencyMember])
		}
		again, key2, err := withIdempotencyKey(out, "")
		if err != nil || key2 != key || string(again) != string(out) {
			t.Fatalf("not stable: %s %v", again, err)
		}
	})
}
