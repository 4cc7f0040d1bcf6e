package mcpclient_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/internal/testseller"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/rawrpc"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// member returns the raw bytes of a top-level member of obj.
func member(t *testing.T, obj []byte, name string) json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(obj, &m); err != nil {
		t.Fatalf("%s: %v", obj, err)
	}
	return m[name]
}

func TestCallToolRawKeepsSellerBytes(t *testing.T) {
	tools := map[string]testseller.MCPReply{
		"structured": {StructuredContent: json.RawMessage(hostile), Text: "Found 1 product"},
		"text":       {Text: hostile},
	}
	for _, framing := range []struct {
		name string
		opts testseller.MCPOptions
	}{
		{"event-stream", testseller.MCPOptions{}},
		{"json", testseller.MCPOptions{JSONResponse: true}},
	} {
		t.Run(framing.name, func(t *testing.T) {
			c, _, _ := connect(t, tools, framing.opts)
			resp, err := c.CallToolRaw(t.Context(), "structured", json.RawMessage(`{"brief":"x"}`))
			if err != nil {
				t.Fatal(err)
			}
			if !resp.Exact || resp.Error != nil {
				t.Fatalf("Exact=%v Error=%s", resp.Exact, resp.Error)
			}
			if got := member(t, resp.Result, "structuredContent"); !bytes.Equal(got, []byte(hostile)) {
				t.Errorf("structuredContent\n got %s\nwant %s", got, hostile)
			}
			if !bytes.Contains(resp.Message, resp.Result) || !bytes.HasPrefix(resp.Message, []byte("{")) {
				t.Errorf("Result is not part of Message: %s", resp.Message)
			}

			resp, err = c.CallToolRaw(t.Context(), "text", nil)
			if err != nil {
				t.Fatal(err)
			}
			var res struct{ Content []struct{ Text string } }
			if err := json.Unmarshal(resp.Result, &res); err != nil || len(res.Content) != 1 {
				t.Fatalf("%s: %v", resp.Result, err)
			}
			if res.Content[0].Text != hostile {
				t.Errorf("content[0].text\n got %s\nwant %s", res.Content[0].Text, hostile)
			}
		})
	}
}

// The SDK's own decoding loses what the raw call keeps: this is why the
// package exists.
func TestSDKDecodingLosesDuplicates(t *testing.T) {
	c, _, _ := connect(t, map[string]testseller.MCPReply{"structured": {StructuredContent: json.RawMessage(hostile)}}, testseller.MCPOptions{})
	res, err := c.SDK().CallTool(t.Context(), &mcp.CallToolParams{Name: "structured", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	again, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(again, []byte(`"product_id":"a"`)) || bytes.Contains(again, []byte(`\u005f`)) {
		t.Errorf("the SDK kept the hostile bytes (%s); the raw transport may no longer be needed", again)
	}
}

func TestCallToolRawKeepsErrorData(t *testing.T) {
	data := `{"adcp_error":{"code":"RATE_LIMITED","message":"slow down","recovery":"transient","retry_after":30,"retry_after":5}}`
	tools := map[string]testseller.MCPReply{
		"limited": {RPCError: &jsonrpc.Error{Code: -32029, Message: "Rate limited", Data: json.RawMessage(data)}},
		"tool_error": {IsError: true, Text: `{"adcp_error":{"code":"INVALID_REQUEST","message":"bad"}}`,
			StructuredContent: json.RawMessage(`{"adcp_error":{"code":"INVALID_REQUEST","message":"bad"}}`)},
	}
	for _, framing := range []testseller.MCPOptions{{}, {JSONResponse: true}} {
		c, _, _ := connect(t, tools, framing)
		resp, err := c.CallToolRaw(t.Context(), "limited", nil)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Result != nil {
			t.Fatalf("want an error response, got result %s", resp.Result)
		}
		if got := member(t, resp.Error, "data"); !bytes.Equal(got, []byte(data)) {
			t.Errorf("error.data\n got %s\nwant %s", got, data)
		}
		if got := string(member(t, resp.Error, "code")); got != "-32029" {
			t.Errorf("code %s", got)
		}
		resp, err = c.CallToolRaw(t.Context(), "tool_error", nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := string(member(t, resp.Result, "isError")); got != "true" {
			t.Errorf("isError = %s in %s", got, resp.Result)
		}
	}
}

func TestCallToolRawLargePayload(t *testing.T) {
	big := `{"status":"completed","blob":"` + strings.Repeat("x", 2<<20) + `"}`
	for _, framing := range []testseller.MCPOptions{{}, {JSONResponse: true}} {
		c, _, _ := connect(t, map[string]testseller.MCPReply{"big": {StructuredContent: json.RawMessage(big)}}, framing)
		resp, err := c.CallToolRaw(t.Context(), "big", nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := member(t, resp.Result, "structuredContent"); !bytes.Equal(got, []byte(big)) {
			t.Errorf("JSONResponse=%v: structuredContent of %d bytes, want %d", framing.JSONResponse, len(got), len(big))
		}
	}
}

func TestCallerHeadersReachSeller(t *testing.T) {
	seller := testseller.NewMCPSeller(map[string]testseller.MCPReply{"ok": {StructuredContent: json.RawMessage(`{}`)}}, testseller.MCPOptions{})
	defer seller.Close()
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: headerTransport{base: tr, headers: http.Header{
		"Authorization": {"Bearer s3cret"},
		"X-Adcp-Buyer":  {"buyer-1"},
	}}}
	c, err := mcpclient.ConnectHTTP(t.Context(), seller.URL, hc, mcpclient.ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CallToolRaw(t.Context(), "ok", nil); err != nil {
		t.Fatal(err)
	}
	c.Close()
	seen := seller.Headers()
	if len(seen) < 2 {
		t.Fatalf("seller saw %d requests", len(seen))
	}
	for i, h := range seen {
		if h.Get("Authorization") != "Bearer s3cret" || h.Get("X-Adcp-Buyer") != "buyer-1" {
			t.Errorf("request %d lacks the caller's headers: %v", i, h)
		}
	}
	if _, ok := hc.Transport.(headerTransport); !ok {
		t.Error("the caller's http.Client was modified")
	}
}

func TestNeverAnsweringSeller(t *testing.T) {
	seller := testseller.NewMCPSeller(map[string]testseller.MCPReply{"hang": {Hang: true}}, testseller.MCPOptions{})
	defer seller.Close()
	baseline := goruntime.NumGoroutine()

	tr := &http.Transport{}
	c, err := mcpclient.ConnectHTTP(t.Context(), seller.URL, &http.Client{Transport: tr}, mcpclient.ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = c.CallToolRaw(ctx, "hang", nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want the deadline, got %v", err)
	}
	if waited := time.Since(start); waited > 10*time.Second {
		t.Errorf("the call outlived its deadline by %v", waited)
	}
	// go-sdk sends notifications/cancelled from a goroutine after the call
	// returns; closing before it is sent would leave the seller working.
	select {
	case <-seller.GaveUp():
	case <-time.After(10 * time.Second):
		t.Fatal("the seller never learned that the buyer gave up")
	}
	if err := c.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	tr.CloseIdleConnections()
	if n := settle(baseline); n > baseline {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines after Close, %d before connecting:\n%s", n, baseline, buf[:goruntime.Stack(buf, true)])
	}
}

// A transport without an HTTP body to tap (here in-memory) is recorded at
// the connection: the envelope is rebuilt, its result is the seller's.
func TestConnectAnyTransport(t *testing.T) {
	server := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "0"}, nil)
	server.AddTool(&mcp.Tool{Name: "structured", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{}, StructuredContent: json.RawMessage(hostile)}, nil
		})
	server.AddTool(&mcp.Tool{Name: "limited", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, &jsonrpc.Error{Code: -32029, Message: "Rate limited", Data: json.RawMessage(`{"adcp_error":{"code":"RATE_LIMITED","code":"X"}}`)}
		})
	ct, st := mcp.NewInMemoryTransports()
	ss, err := server.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	c, err := mcpclient.Connect(t.Context(), ct, mcpclient.ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()

	resp, err := c.CallToolRaw(t.Context(), "structured", nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Exact {
		t.Error("a rebuilt envelope claims to be exact")
	}
	if got := member(t, resp.Result, "structuredContent"); !bytes.Equal(got, []byte(hostile)) {
		t.Errorf("structuredContent\n got %s\nwant %s", got, hostile)
	}
	resp, err = c.CallToolRaw(t.Context(), "limited", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(member(t, resp.Error, "data")); got != `{"adcp_error":{"code":"RATE_LIMITED","code":"X"}}` {
		t.Errorf("error.data %s", got)
	}
	tools, err := c.ListTools(t.Context())
	if err != nil || len(tools) != 2 {
		t.Errorf("ListTools: %d tools, %v", len(tools), err)
	}
}

func TestConcurrentCallsDoNotMix(t *testing.T) {
	tools := map[string]testseller.MCPReply{}
	for _, n := range []string{"a", "b", "c", "d"} {
		tools[n] = testseller.MCPReply{StructuredContent: json.RawMessage(`{"tool":"` + n + `"}`)}
	}
	c, _, _ := connect(t, tools, testseller.MCPOptions{})
	errs := make(chan error, 40)
	for i := range 40 {
		name := []string{"a", "b", "c", "d"}[i%4]
		go func() {
			resp, err := c.CallToolRaw(t.Context(), name, nil)
			if err == nil && !bytes.Contains(resp.Result, []byte(`"structuredContent":{"tool":"`+name+`"}`)) {
				err = errors.New(name + " got " + string(resp.Result))
			}
			errs <- err
		}()
	}
	for range 40 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// A duplicate member in the JSON-RPC envelope (here added by a hostile
// intermediary) is what go-sdk resolves silently; the raw call rejects it.
func TestEnvelopeDuplicateRejected(t *testing.T) {
	tools := map[string]testseller.MCPReply{"ok": {StructuredContent: json.RawMessage(`{"status":"completed"}`)}}
	for _, opts := range []testseller.MCPOptions{{RepeatResult: true}, {RepeatResult: true, JSONResponse: true}} {
		seller := testseller.NewMCPSeller(tools, opts)
		defer seller.Close()
		// go-sdk itself takes the last "result" (initialize succeeds).
		c, err := mcpclient.ConnectHTTP(t.Context(), seller.URL, seller.Client(), mcpclient.ConnectOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_, err = c.CallToolRaw(t.Context(), "ok", nil)
		if !errors.Is(err, rawrpc.ErrMalformed) || !strings.Contains(err.Error(), `at /result: duplicate member "result"`) {
			t.Errorf("JSONResponse=%v: %v, want a duplicate /result", opts.JSONResponse, err)
		}
	}
}

// A closed session fails its calls at once with a TransportError that says
// retrying cannot help.
func TestTransportOnClosedSession(t *testing.T) {
	c, _, _ := connect(t, map[string]testseller.MCPReply{"x": {StructuredContent: json.RawMessage(`{}`)}}, testseller.MCPOptions{})
	c.Close()
	_, err := c.CallTool(t.Context(), buyer.ToolCall{Tool: "x", Args: json.RawMessage(`{}`)})
	var te *buyer.TransportError
	if !errors.As(err, &te) || !te.Closed || te.Transient() || te.Sent {
		t.Fatalf("got %#v", err)
	}
}
