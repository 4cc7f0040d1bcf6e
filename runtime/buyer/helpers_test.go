package buyer_test

import (
	"context"
	"encoding/json"
	"net/http"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/adcpgen/adcpgen/internal/buyertest/tinyadcp"
	"github.com/adcpgen/adcpgen/internal/testseller"
	"github.com/adcpgen/adcpgen/runtime/a2aclient"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The tests run real sellers on loopback: go-sdk's MCP server over
// streamable HTTP (server-sent events and plain JSON framing) and a2a-go's
// server over JSON-RPC, both from internal/testseller, answering each call
// with what the test's script says.

// answer is what a seller says to one call, in transport-neutral terms.
type answer struct {
	// payload is the AdCP payload, a JSON object: MCP structuredContent
	// (or the text fallback with asText), an A2A DataPart (in the
	// artifact for a final state, in the status message for an interim
	// one).
	payload string
	asText  bool
	// state is the A2A task state ("" means completed); MCP says its
	// status in the payload.
	state task.Status
	// adcpErr is an adcp_error object: an MCP tool error
	// (structuredContent.adcp_error with isError), a failed A2A task
	// with a DataPart {adcp_error}.
	adcpErr string
	// rpcErr is a whole JSON-RPC error object answered instead.
	rpcErr string
	// metadata is the A2A artifact's metadata.
	metadata map[string]any
	hang     bool
}

// call is one call a seller received.
type call struct {
	Tool      string
	Args      json.RawMessage
	ContextID string
	TaskID    string
	N         int
}

// framing is one way of talking to a seller.
type framing string

const (
	mcpSSE  framing = "mcp-sse"
	mcpJSON framing = "mcp-json"
	a2aRPC  framing = "a2a"
)

var framings = []framing{mcpSSE, mcpJSON, a2aRPC}

// rig is a seller on loopback and a client connected to it.
type rig struct {
	client  *buyer.Client
	calls   func() []call
	headers func() []http.Header
}

var tools = []string{"get_things", "create_thing", "delete_thing", "lock_thing", "get_task_status", "tasks/get"}

// newRig starts a seller answering with script and a client for the
// buyer test spec (or spec) talking to it through hc's transport (nil: a
// fresh one).
func newRig(t *testing.T, f framing, script func(call) answer, opts ...buyer.ClientOption) *rig {
	t.Helper()
	return newRigWith(t, f, script, nil, opts...)
}

func newRigWith(t *testing.T, f framing, script func(call) answer, hc *http.Client, opts ...buyer.ClientOption) *rig {
	t.Helper()
	return newRigConfig(t, f, script, rigConfig{hc: hc}, opts...)
}

// rigConfig says how the seller is reached and how it misbehaves.
type rigConfig struct {
	hc *http.Client
	// repeatResult: every JSON-RPC response has its result member twice.
	repeatResult bool
	// tools the seller lists (nil: tools).
	tools []string
}

func newRigConfig(t *testing.T, f framing, script func(call) answer, cfg rigConfig, opts ...buyer.ClientOption) *rig {
	t.Helper()
	hc := cfg.hc
	if hc == nil {
		tr := &http.Transport{}
		t.Cleanup(tr.CloseIdleConnections)
		hc = &http.Client{Transport: tr}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	var transport buyer.Transport
	r := &rig{}
	switch f {
	case mcpSSE, mcpJSON:
		listed := tools
		if cfg.tools != nil {
			listed = cfg.tools
		}
		canned := map[string]testseller.MCPReply{}
		for _, name := range listed {
			canned[name] = testseller.MCPReply{}
		}
		seller := testseller.NewMCPSeller(canned, testseller.MCPOptions{JSONResponse: f == mcpJSON, RepeatResult: cfg.repeatResult,
			Script: func(c testseller.MCPCall) testseller.MCPReply {
				return mcpReply(script(call{Tool: c.Tool, Args: c.Args, N: c.N}))
			}})
		t.Cleanup(seller.Close)
		session, err := mcpclient.ConnectHTTP(ctx, seller.URL, hc, mcpclient.ConnectOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { session.Close() })
		transport = session
		r.calls = func() []call {
			var out []call
			for _, c := range seller.Calls() {
				out = append(out, call{Tool: c.Tool, Args: c.Args, N: c.N})
			}
			return out
		}
		r.headers = seller.Headers
	case a2aRPC:
		listed := tools
		if cfg.tools != nil {
			listed = cfg.tools
		}
		canned := map[string]testseller.A2AReply{}
		for _, name := range listed {
			canned[name] = testseller.A2AReply{}
		}
		seller := testseller.NewA2ASeller(canned, testseller.A2AOptions{RepeatResult: cfg.repeatResult,
			Script: func(c testseller.A2ACall) testseller.A2AReply {
				return a2aReply(script(call{Tool: c.Skill, Args: c.Input, ContextID: c.ContextID, TaskID: c.TaskID, N: c.N}))
			}})
		t.Cleanup(seller.Close)
		client, err := a2aclient.Dial(ctx, seller.URL, hc)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { client.Close() })
		transport = client
		r.calls = func() []call {
			var out []call
			for _, c := range seller.Calls() {
				out = append(out, call{Tool: c.Skill, Args: c.Input, ContextID: c.ContextID, TaskID: c.TaskID, N: c.N})
			}
			return out
		}
		r.headers = seller.Headers
	}
	opts = append([]buyer.ClientOption{buyer.WithPolling(buyer.Polling{Interval: 5 * time.Millisecond, MaxInterval: 20 * time.Millisecond})}, opts...)
	c, err := buyer.New(tinyadcp.Spec(), transport, opts...)
	if err != nil {
		t.Fatal(err)
	}
	r.client = c
	return r
}

func mcpReply(a answer) testseller.MCPReply {
	switch {
	case a.hang:
		return testseller.MCPReply{Hang: true}
	case a.rpcErr != "":
		var e struct {
			Code    int64           `json:"code"`
			Message string          `json:"message"`
			Data    json.RawMessage `json:"data"`
		}
		if err := json.Unmarshal([]byte(a.rpcErr), &e); err != nil {
			panic(err)
		}
		return testseller.MCPReply{RPCError: rpcError(e.Code, e.Message, e.Data)}
	case a.adcpErr != "":
		body := `{"adcp_error":` + a.adcpErr + `}`
		if a.asText {
			return testseller.MCPReply{Text: body, IsError: true}
		}
		return testseller.MCPReply{StructuredContent: json.RawMessage(body), Text: "error", IsError: true}
	case a.asText:
		return testseller.MCPReply{Text: a.payload}
	}
	return testseller.MCPReply{StructuredContent: json.RawMessage(a.payload), Text: "done"}
}

func a2aReply(a answer) testseller.A2AReply {
	switch {
	case a.hang:
		return testseller.A2AReply{Hang: true}
	case a.rpcErr != "":
		return testseller.A2AReply{RPCError: json.RawMessage(a.rpcErr)}
	case a.adcpErr != "":
		return testseller.A2AReply{State: a2a.TaskStateFailed, Data: map[string]json.RawMessage{"adcp_error": json.RawMessage(a.adcpErr)}}
	}
	state := a2a.TaskState(a.state)
	if state == "" {
		state = a2a.TaskStateCompleted
	}
	var members map[string]json.RawMessage
	if a.payload != "" {
		if err := json.Unmarshal([]byte(a.payload), &members); err != nil {
			panic(err)
		}
	}
	r := testseller.A2AReply{State: state, ArtifactMetadata: a.metadata}
	if state.Terminal() {
		r.Data = members
	} else if a.payload != "" {
		r.StatusData = members
		r.StatusText = "in progress"
	}
	return r
}

// scripted answers each tool with a sequence of answers, the last one
// repeating.
func scripted(byTool map[string][]answer) func(call) answer {
	var mu sync.Mutex
	return func(c call) answer {
		mu.Lock()
		defer mu.Unlock()
		seq := byTool[c.Tool]
		if len(seq) == 0 {
			return answer{rpcErr: `{"code":-32601,"message":"no such tool"}`}
		}
		return seq[min(c.N, len(seq))-1]
	}
}

// settle waits for the goroutine count to fall to at most want and
// returns the last count.
func settle(want int) int {
	n := runtime.NumGoroutine()
	for deadline := time.Now().Add(5 * time.Second); n > want && time.Now().Before(deadline); n = runtime.NumGoroutine() {
		time.Sleep(20 * time.Millisecond)
	}
	return n
}

// argMember reads a top-level member of a request's arguments.
func argMember(t *testing.T, args json.RawMessage, name string) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(args, &m); err != nil {
		t.Fatalf("arguments %s: %v", args, err)
	}
	var s string
	if raw, ok := m[name]; ok {
		if err := json.Unmarshal(raw, &s); err != nil {
			t.Fatalf("%s: %s: %v", name, raw, err)
		}
	}
	return s
}

func rpcError(code int64, msg string, data json.RawMessage) *jsonrpc.Error {
	return &jsonrpc.Error{Code: code, Message: msg, Data: data}
}

type adcpError = adcperr.Error
