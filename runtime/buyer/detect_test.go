package buyer

import (
	"context"
	"errors"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/task"
)

// Status detection on envelopes the SDK servers of the tests do not
// produce: A2A 1.0 state names and parts, stream envelopes, Message
// answers, state spellings.
func TestDetectEnvelopes(t *testing.T) {
	for _, tc := range []struct {
		name        string
		p           Protocol
		env         string
		status      task.Status
		taskID      string
		contextID   string
		data        string
		remote      string
		wantErr     error
		wantErrCode string
	}{
		{name: "A2A 1.0 input required", p: A2A,
			env:    `{"jsonrpc":"2.0","id":1,"result":{"id":"a2a-1","contextId":"c-1","status":{"state":"TASK_STATE_INPUT_REQUIRED","message":{"role":"ROLE_AGENT","parts":[{"text":"which?"},{"data":{"reason":"which?","task_id":"adcp-1"}}]}}}}`,
			status: task.InputRequired, taskID: "adcp-1", contextID: "c-1", data: `{"reason":"which?","task_id":"adcp-1"}`, remote: "a2a-1"},
		{name: "A2A 1.0 completed, kindless parts", p: A2A,
			env:    `{"jsonrpc":"2.0","id":1,"result":{"id":"a2a-2","contextId":"c-2","status":{"state":"TASK_STATE_COMPLETED"},"artifacts":[{"parts":[{"data":{"progress":1}},{"data":{"things":[]}}]}]}}`,
			status: task.Completed, contextID: "c-2", data: `{"things":[]}`, remote: "a2a-2"},
		{name: "stream envelope", p: A2A,
			env:    `{"jsonrpc":"2.0","id":1,"result":{"task":{"id":"a2a-3","contextId":"c-3","status":{"state":"working","message":{"parts":[{"kind":"data","data":{"percentage":5}}]}}}}}`,
			status: task.Working, contextID: "c-3", data: `{"percentage":5}`, remote: "a2a-3"},
		{name: "status update event", p: A2A,
			env:    `{"jsonrpc":"2.0","id":1,"result":{"kind":"status-update","taskId":"a2a-4","contextId":"c-4","status":{"state":"submitted"},"final":true}}`,
			status: task.Submitted, contextID: "c-4", remote: "a2a-4"},
		{name: "message answer", p: A2A,
			env:    `{"jsonrpc":"2.0","id":1,"result":{"kind":"message","messageId":"m","role":"agent","contextId":"c-5","parts":[{"kind":"text","text":"hi"},{"kind":"data","data":{"things":[1]}}]}}`,
			status: task.Completed, contextID: "c-5", data: `{"things":[1]}`},
		{name: "metadata task id", p: A2A,
			env:    `{"jsonrpc":"2.0","id":1,"result":{"id":"a","status":{"state":"completed"},"artifacts":[{"metadata":{"adcp_task_id":"adcp-6"},"parts":[{"kind":"data","data":{"status":"submitted"}}]}]}}`,
			status: task.Submitted, taskID: "adcp-6", data: `{"status":"submitted"}`, remote: "a"},
		{name: "cancelled spelling", p: A2A,
			env:     `{"jsonrpc":"2.0","id":1,"result":{"id":"a","status":{"state":"cancelled"}}}`,
			wantErr: ErrNoResult},
		{name: "unknown state", p: A2A,
			env:     `{"jsonrpc":"2.0","id":1,"result":{"id":"a","status":{"state":"paused"}}}`,
			wantErr: errors.New("")},
		{name: "no state", p: A2A,
			env:     `{"jsonrpc":"2.0","id":1,"result":{"id":"a"}}`,
			wantErr: extract.ErrNoData},
		{name: "failed with adcp_error in the status message", p: A2A,
			env:         `{"jsonrpc":"2.0","id":1,"result":{"id":"a","status":{"state":"failed","message":{"parts":[{"data":{"adcp_error":{"code":"ACCOUNT_SUSPENDED","message":"x"}}}]}}}}`,
			wantErrCode: "ACCOUNT_SUSPENDED"},
		{name: "MCP status absent", p: MCP,
			env:    `{"jsonrpc":"2.0","id":1,"result":{"content":[],"structuredContent":{"things":[],"context_id":"c-7","message":"ok"}}}`,
			status: task.Completed, contextID: "c-7", data: `{"things":[],"context_id":"c-7","message":"ok"}`},
		{name: "MCP domain status", p: MCP,
			env:    `{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"status":"active"}}}`,
			status: task.Completed, data: `{"status":"active"}`},
		{name: "MCP auth-required", p: MCP,
			env:    `{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"status":"auth-required","task_id":"t"}}}`,
			status: task.AuthRequired, taskID: "t", data: `{"status":"auth-required","task_id":"t"}`},
		{name: "MCP isError without adcp_error", p: MCP,
			env:     `{"jsonrpc":"2.0","id":1,"result":{"isError":true,"content":[{"type":"text","text":"boom"}]}}`,
			wantErr: extract.ErrUnstructuredFailure},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := New(registry.NewSpec(registry.SpecConfig{Version: "t"}), staticTransport{p: tc.p, env: []byte(tc.env)}, WithoutRetries())
			if err != nil {
				t.Fatal(err)
			}
			out, err := c.Invoke(context.Background(), "tool", nil)
			if tc.wantErrCode != "" {
				var ae *adcperr.Error
				if !errors.As(err, &ae) || ae.Code != tc.wantErrCode {
					t.Fatalf("got %v", err)
				}
				return
			}
			if tc.wantErr != nil {
				if err == nil || (tc.wantErr.Error() != "" && !errors.Is(err, tc.wantErr)) {
					t.Fatalf("got %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if out.Status != tc.status || out.TaskID != tc.taskID || out.ContextID != tc.contextID || string(out.Data) != tc.data || out.remoteTaskID != tc.remote {
				t.Errorf("status %q task %q context %q data %s remote %q", out.Status, out.TaskID, out.ContextID, out.Data, out.remoteTaskID)
			}
		})
	}
}
