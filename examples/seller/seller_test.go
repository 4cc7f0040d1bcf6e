package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"example.com/seller/adcp"

	"github.com/a2aproject/a2a-go/a2a"
	a2a_client "github.com/a2aproject/a2a-go/a2aclient"
	"github.com/a2aproject/a2a-go/a2aclient/agentcard"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/adcpgen/adcpgen/runtime/a2aclient"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/webhook"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// The example seller on loopback, driven by the official Go SDK's MCP
// client and a2a-go's A2A client, each answer read back through adcpgen's
// extraction and the generated 3.0.26 types.

const (
	testKey          = "example-test-key-0123456789"
	testClientID     = "buyer-client"
	testClientSecret = "example-client-secret-0123456789"
)

// startAgent serves newAgent on an httptest server.
func startAgent(t *testing.T) string {
	t.Helper()
	base, _ := startAgentOf(t)
	return base
}

// startAgentOf is startAgent returning the agent too; change adjusts the
// configuration.
func startAgentOf(t *testing.T, change ...func(*config)) (string, *agent) {
	t.Helper()
	var h http.Handler
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { h.ServeHTTP(w, r) }))
	t.Cleanup(ts.Close)
	cfg := config{BaseURL: ts.URL, APIKey: testKey, OAuthClientID: testClientID, OAuthClientSecret: testClientSecret,
		WebhookLoopback: true, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	for _, f := range change {
		f(&cfg)
	}
	a, err := newAgent(cfg)
	if err != nil {
		t.Fatal(err)
	}
	h = a.handler
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = a.tasks.Close(ctx)
	})
	return ts.URL, a
}

type bearer struct {
	key  string
	base http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return b.base.RoundTrip(r)
}

func client(key string) *http.Client {
	return &http.Client{Transport: bearer{key: key, base: http.DefaultTransport}, Timeout: 30 * time.Second}
}

// mcpSession connects adcpgen's MCP client to the seller's /mcp with the
// test key, closed when the test ends.
func mcpSession(t *testing.T, base string) *mcpclient.Session {
	t.Helper()
	m, err := mcpclient.ConnectHTTP(t.Context(), base+"/mcp", client(testKey), mcpclient.ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	return m
}

// mcpBuyer connects go-sdk's client to the seller's /mcp with key.
func mcpBuyer(t *testing.T, base, key string) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "example-buyer", Version: "1"}, nil).Connect(t.Context(),
		&mcp.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: client(key), DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// call calls a tool as a 3.0 buyer (pinned) and extracts the answer
// with the 3.0.26 spec.
func call(t *testing.T, cs *mcp.ClientSession, tool, args string) *extract.Result {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(pinned(args))})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	raw, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return extract.New(adcp.Spec()).MCP(raw)
}

func buyArgs(key, po, extra string) string {
	s := `{"idempotency_key":"` + key + `","account":{"brand":{"domain":"acmeoutdoor.example"},"operator":"pinnacle-agency.example"},` +
		`"brand":{"domain":"acmeoutdoor.example"},"start_time":"asap","end_time":"2099-07-31T23:59:59Z",` +
		`"packages":[{"product_id":"test-product","budget":5000,"pricing_option_id":"test-pricing"}],"context":{"trace":"t-1"}`
	if po != "" {
		s += `,"po_number":"` + po + `"`
	}
	if extra != "" {
		s += "," + extra
	}
	return s + "}"
}

func member(r *extract.Result, name string) string {
	s, _ := wire.Lenient(r.Data).Get(name).AsString()
	return s
}

func TestMCP(t *testing.T) {
	base := startAgent(t)
	cs := mcpBuyer(t, base, testKey)
	tools, err := cs.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	if got := strings.Join(names, ","); !strings.Contains(got, "get_adcp_capabilities") || !strings.Contains(got, "tasks/get") ||
		!strings.Contains(got, "create_media_buy") || !strings.Contains(got, "get_products") {
		t.Fatalf("tools: %s", got)
	}

	caps := call(t, cs, "get_adcp_capabilities", `{}`)
	var capsResp adcp.GetAdCPCapabilitiesResponse
	if err := wire.Unmarshal(caps.Data, &capsResp); err != nil || !strings.Contains(string(caps.Data), `"replay_ttl_seconds":86400`) {
		t.Fatalf("capabilities %s: %v", caps.Data, err)
	}

	var products adcp.GetProductsResponse
	if err := extract.New(adcp.Spec()).DecodeMCP(mustJSON(t, cs, "get_products", `{"buying_mode":"brief","brief":"display"}`), &products); err != nil || len(products.Products) != 2 {
		t.Fatalf("products: %v %d", err, len(products.Products))
	}

	first := call(t, cs, "create_media_buy", buyArgs("0f3e7c2a-9d41-4b8e-a6f5-1c2d3e4f5a60", "", ""))
	var resp adcp.CreateMediaBuyResponse
	if err := wire.Unmarshal(first.Data, &resp); err != nil || resp.Success == nil {
		t.Fatalf("create_media_buy %s: %v", first.Data, err)
	}
	again := call(t, cs, "create_media_buy", buyArgs("0f3e7c2a-9d41-4b8e-a6f5-1c2d3e4f5a60", "", ""))
	if member(again, "media_buy_id") != resp.Success.MediaBuyID || string(wire.Lenient(again.Data).Get("replayed")) != "true" {
		t.Fatalf("replay: %s", again.Data)
	}
	conflict := call(t, cs, "create_media_buy", buyArgs("0f3e7c2a-9d41-4b8e-a6f5-1c2d3e4f5a60", "po-2", ""))
	if conflict.Error == nil || conflict.Error.Code != "IDEMPOTENCY_CONFLICT" {
		t.Fatalf("conflict: %s", conflict.Data)
	}
	unknownArgs := strings.Replace(buyArgs("5b6c7d8e-9f00-4112-8233-445566778899", "", ""), "test-product", "no-such-product", 1)
	unknown := call(t, cs, "create_media_buy", unknownArgs)
	if unknown.Error == nil || unknown.Error.Code != "PRODUCT_NOT_FOUND" || unknown.Error.Field != "packages[0].product_id" {
		t.Fatalf("unknown product: %+v", unknown.Error)
	}
	if raw := mustJSON(t, cs, "create_media_buy", unknownArgs); string(wire.Lenient(raw).Get("structuredContent").Get("context")) != `{"trace":"t-1"}` {
		t.Fatalf("the error does not echo the context: %s", raw)
	}

	// Async: submitted, then completed on the first poll.
	sub := call(t, cs, "create_media_buy", buyArgs("a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d", "async-7", ""))
	taskID := member(sub, "task_id")
	if member(sub, "status") != "submitted" || taskID == "" {
		t.Fatalf("async: %s", sub.Data)
	}
	poll := call(t, cs, "tasks/get", `{"task_id":"`+taskID+`","include_result":true}`)
	var done adcp.CreateMediaBuyResponse
	if member(poll, "status") != "completed" || wire.Unmarshal(wire.Lenient(poll.Data).Get("result"), &done) != nil || done.Success == nil {
		t.Fatalf("first poll: %s", poll.Data)
	}
}

func mustJSON(t *testing.T, cs *mcp.ClientSession, tool, args string) []byte {
	t.Helper()
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(pinned(args))})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// Protected tools need the key: without it, or with a wrong one, HTTP 401
// with a WWW-Authenticate challenge on both transports; the capabilities
// and the agent card stay public.
func TestAuthentication(t *testing.T) {
	base := startAgent(t)
	post := func(path, key, body string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, base+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json")
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	mcpCall := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_media_buy","arguments":{}}}`
	a2aCall := `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m1","role":"user","parts":[{"kind":"data","data":{"skill":"create_media_buy","input":{}}}]}}}`
	for _, c := range []struct{ path, key, body string }{
		{"/mcp", "", mcpCall}, {"/mcp", "wrong-key", mcpCall}, {"/a2a", "", a2aCall}, {"/a2a", "wrong-key", a2aCall},
	} {
		if resp := post(c.path, c.key, c.body); resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("WWW-Authenticate") == "" {
			t.Errorf("%s with key %q: %d %q", c.path, c.key, resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
		}
	}
	if resp := post("/mcp", "", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_adcp_capabilities","arguments":{}}}`); resp.StatusCode != http.StatusOK {
		t.Errorf("public capabilities: %d", resp.StatusCode)
	}
	for _, p := range []string{"/.well-known/agent-card.json", "/a2a/.well-known/agent-card.json"} {
		resp, err := http.Get(base + p)
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s: %v %v", p, err, resp)
		}
		if resp != nil {
			resp.Body.Close()
		}
	}
}

// a2aBuyer is a2a-go's client, from the agent card, with the key.
func a2aBuyer(t *testing.T, base string) *a2a_client.Client {
	t.Helper()
	card, err := agentcard.NewResolver(http.DefaultClient).Resolve(t.Context(), base)
	if err != nil {
		t.Fatal(err)
	}
	c, err := a2a_client.NewFromCard(t.Context(), card, a2a_client.WithJSONRPCTransport(client(testKey)))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func send(t *testing.T, c *a2a_client.Client, skill, input string) (*a2a.Task, *extract.Result) {
	t.Helper()
	var in map[string]any
	if err := json.Unmarshal([]byte(pinned(input)), &in); err != nil {
		t.Fatal(err)
	}
	msg := a2a.NewMessage(a2a.MessageRoleUser, a2a.DataPart{Data: map[string]any{"skill": skill, "input": in}})
	res, err := c.SendMessage(t.Context(), &a2a.MessageSendParams{Message: msg})
	if err != nil {
		t.Fatalf("%s: %v", skill, err)
	}
	tk, ok := res.(*a2a.Task)
	if !ok {
		t.Fatalf("%s: answered %T", skill, res)
	}
	raw, err := json.Marshal(tk)
	if err != nil {
		t.Fatal(err)
	}
	return tk, extract.New(adcp.Spec()).A2A(raw)
}

func TestA2A(t *testing.T) {
	base := startAgent(t)
	c := a2aBuyer(t, base)
	_, r := send(t, c, "get_products", `{"buying_mode":"wholesale"}`)
	var products adcp.GetProductsResponse
	if err := wire.Unmarshal(r.Data, &products); err != nil || len(products.Products) != 2 {
		t.Fatalf("products %s: %v", r.Data, err)
	}
	tk, r := send(t, c, "create_media_buy", buyArgs("c0ffee00-1111-4222-8333-444455556666", "async-a2a", ""))
	if tk.Status.State != a2a.TaskStateSubmitted || tk.Artifacts[0].Metadata["adcp_task_id"] == nil {
		t.Fatalf("async create over A2A: %+v %s", tk.Status, r.Data)
	}
	id, _ := tk.Artifacts[0].Metadata["adcp_task_id"].(string)
	got, err := c.GetTask(t.Context(), &a2a.TaskQueryParams{ID: a2a.TaskID(id)})
	if err != nil || got.Status.State != a2a.TaskStateCompleted {
		t.Fatalf("tasks/get over A2A: %v %+v", err, got)
	}
	raw, _ := json.Marshal(got)
	var done adcp.CreateMediaBuyResponse
	if err := extract.New(adcp.Spec()).DecodeA2A(raw, &done); err != nil || done.Success == nil {
		t.Fatalf("completed task: %v %s", err, raw)
	}
}

// A task whose request carried a push_notification_config is delivered to
// the buyer's webhook, signed; the buyer's receiver verifies the signature
// and gets the typed response.
func TestWebhook(t *testing.T) {
	const secret = "buyer-webhook-secret-9f8e7d6c5b4a39281706"
	h, err := webhook.NewHMAC([]byte(secret))
	if err != nil {
		t.Fatal(err)
	}
	rc := webhook.NewReceiver(adcp.Spec(), webhook.ReceiverOptions{HMAC: h})
	got := make(chan *webhook.Event[adcp.CreateMediaBuyResponse, adcp.CreateMediaBuySubmitted, adcp.CreateMediaBuyWorking, adcp.CreateMediaBuyInputRequired], 1)
	var once sync.Once
	if err := webhook.On(rc, adcp.Tools.CreateMediaBuy, func(_ context.Context, ev *webhook.Event[adcp.CreateMediaBuyResponse, adcp.CreateMediaBuySubmitted, adcp.CreateMediaBuyWorking, adcp.CreateMediaBuyInputRequired]) error {
		once.Do(func() { got <- ev })
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("POST /hooks/{task_type}/{operation_id}", rc)
	hooks := httptest.NewServer(mux)
	defer hooks.Close()

	base := startAgent(t)
	cs := mcpBuyer(t, base, testKey)
	push := `"push_notification_config":{"url":"` + hooks.URL + `/hooks/create_media_buy/op_1","operation_id":"op_1","authentication":{"schemes":["HMAC-SHA256"],"credentials":"` + secret + `"}}`
	sub := call(t, cs, "create_media_buy", buyArgs("d00dfeed-2222-4333-8444-555566667777", "async-hook", push))
	if member(sub, "status") != "submitted" {
		t.Fatalf("submitted: %s", sub.Data)
	}
	call(t, cs, "tasks/get", `{"task_id":"`+member(sub, "task_id")+`"}`) // completes the task
	select {
	case ev := <-got:
		if ev.Status != task.Completed || ev.Response == nil || ev.Response.Success == nil || ev.Notification.OperationID != "op_1" {
			t.Fatalf("webhook: %+v", ev.Result)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no webhook")
	}
}

// adcpgen's typed client over both transports: strict on the seller's
// bytes, an automatic idempotency key, and an async create_media_buy
// followed to completion through the status tool.
func TestTypedClient(t *testing.T) {
	base := startAgent(t)
	ctx := t.Context()
	mcpSession, err := mcpclient.ConnectHTTP(ctx, base+"/mcp", client(testKey), mcpclient.ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer mcpSession.Close()
	a2aSession, err := a2aclient.Dial(ctx, base, client(testKey))
	if err != nil {
		t.Fatal(err)
	}
	for name, tr := range map[string]buyer.Transport{"mcp": mcpSession, "a2a": a2aSession} {
		t.Run(name, func(t *testing.T) {
			c, err := buyer.New(adcp.Spec(), tr)
			if err != nil {
				t.Fatal(err)
			}
			products, err := buyer.Call(ctx, c, adcp.Tools.GetProducts, &adcp.GetProductsRequest{BuyingMode: adcp.GetProductsRequestBuyingModeWholesale})
			if err != nil || products.Response == nil || len(products.Response.Products) != 2 {
				t.Fatalf("get_products: %v %+v", err, products)
			}
			var req adcp.CreateMediaBuyRequest
			if err := adcp.Decode([]byte(buyArgs("unused-key-replaced-by-the-client", "async-typed", "")), &req); err != nil {
				t.Fatal(err)
			}
			// 3.0.26's manifest does not mark create_media_buy as requiring
			// a key (its request schema does), so the call names one.
			req.IdempotencyKey = ""
			res, err := buyer.Call(ctx, c, adcp.Tools.CreateMediaBuy, &req, buyer.WithIdempotencyKey(buyer.NewIdempotencyKey()), buyer.WaitForCompletion())
			if err != nil || res.Status != task.Completed || res.Response == nil || res.Response.Success == nil {
				t.Fatalf("create_media_buy: %v %+v", err, res)
			}
		})
	}
}

// Two replicas sharing one store, as two processes on one PostgreSQL
// database: a buy submitted to the first is polled on the second, which
// finishes it from the request its task kept (the first's memory holds
// nothing of it), and a retry with the same key on the second replays the
// first answer, task id and message included.
func TestTwoReplicas(t *testing.T) {
	store := sellerstore.NewMemory(nil)
	shared := func(c *config) { c.Store = store }
	baseA, _ := startAgentOf(t, shared)
	baseB, _ := startAgentOf(t, shared)
	ctx := t.Context()
	typed := func(base string) *buyer.Client {
		s, err := mcpclient.ConnectHTTP(ctx, base+"/mcp", client(testKey), mcpclient.ConnectOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		c, err := buyer.New(adcp.Spec(), s, buyer.WithPolling(buyer.Polling{Interval: 10 * time.Millisecond, MaxInterval: 50 * time.Millisecond}))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	a, b := typed(baseA), typed(baseB)
	args := json.RawMessage(buyArgs(buyer.NewIdempotencyKey(), "async-replicas", ""))
	sub, err := a.Invoke(ctx, "create_media_buy", args)
	if err != nil || sub.Status != task.Submitted || sub.TaskID == "" {
		t.Fatalf("submitted on a: %v %+v", err, sub)
	}
	replay, err := b.Invoke(ctx, "create_media_buy", args)
	if err != nil || replay.TaskID != sub.TaskID || replay.Message != "Media buy queued for approval." || !wire.Lenient(replay.Data).Get("replayed").Truthy() {
		t.Fatalf("replayed on b: %v %+v", err, replay)
	}
	done, err := buyer.Wait(ctx, b, adcp.Tools.CreateMediaBuy, sub.TaskID)
	if err != nil || done.Status != task.Completed || done.Response == nil || done.Response.Success == nil || done.Message != "Media buy approved." {
		t.Fatalf("waited on b: %v %+v", err, done)
	}
}

// A synchronous answer is the buyer's result: no task is recorded for it
// and nothing is posted to the request's webhook (webhooks.mdx, When
// webhooks fire), while a task of the same buyer is posted as usual.
func TestSyncAnswerPostsNoWebhook(t *testing.T) {
	ops := make(chan string, 16)
	hooks := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		op, _ := wire.Lenient(body).Get("operation_id").AsString()
		ops <- op
	}))
	defer hooks.Close()

	base := startAgent(t)
	cs := mcpBuyer(t, base, testKey)
	push := func(op string) string {
		return `"push_notification_config":{"url":"` + hooks.URL + `/hooks/create_media_buy/` + op + `","operation_id":"` + op + `"}`
	}
	done := call(t, cs, "create_media_buy", buyArgs("d00dfeed-4444-4333-8444-555566667777", "", push("op_sync")))
	if member(done, "media_buy_id") == "" {
		t.Fatalf("synchronous buy: %s", done.Data)
	}
	list := call(t, cs, "tasks/list", `{}`)
	if tasks := wire.Lenient(list.Data).Get("tasks"); !tasks.IsArray() || tasks.Index(0).Present() {
		t.Fatalf("tasks after a synchronous answer: %s", list.Data)
	}
	sub := call(t, cs, "create_media_buy", buyArgs("d00dfeed-5555-4333-8444-555566667777", "async-hook", push("op_async")))
	if member(sub, "status") != "submitted" {
		t.Fatalf("submitted: %s", sub.Data)
	}
	call(t, cs, "tasks/get", `{"task_id":"`+member(sub, "task_id")+`"}`) // completes the task
	for {
		select {
		case op := <-ops:
			switch op {
			case "op_sync":
				t.Fatal("the synchronous answer was posted")
			case "op_async":
				return
			}
		case <-time.After(20 * time.Second):
			t.Fatal("no webhook for the task")
		}
	}
}

// pinned is a tool call's arguments as a 3.0 buyer sends them: with
// adcp_major_version 3 when they declare no release (adcpgen's buyer
// declares it on every call); a call that declares none at all is
// answered in the seller's latest release (agent.go).
func pinned(args string) string {
	v := wire.Lenient(args)
	if !v.IsObject() || v.Get("adcp_version").Present() || v.Get("adcp_major_version").Present() {
		return args
	}
	out, ok := v.WithMember("adcp_major_version", []byte("3"))
	if !ok {
		return args
	}
	return string(out)
}
