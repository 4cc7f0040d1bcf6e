package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"github.com/santhosh-tekuri/jsonschema/v5"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/internal/sellertest"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

var keys = map[string]string{"key-alice": "alice", "key-bob": "bob"}

// start serves s at /mcp on loopback.
func start(t *testing.T, s *sellertest.Seller, opts mcpserver.Options) string {
	t.Helper()
	h, err := mcpserver.NewStreamableHandler(s.Server, opts)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts.URL + "/mcp"
}

// bearer is an http.Client sending key.
func bearer(key string) *http.Client {
	return &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
		r = r.Clone(r.Context())
		if key != "" {
			r.Header.Set("Authorization", "Bearer "+key)
		}
		return http.DefaultTransport.RoundTrip(r)
	})}
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func rawSession(t *testing.T, url, key string) *mcpclient.Session {
	t.Helper()
	c, err := mcpclient.ConnectHTTP(t.Context(), url, bearer(key), mcpclient.ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

var x = extract.New(adcpt.Spec())

// call calls tool and extracts the result as a buyer does.
func call(t *testing.T, c *mcpclient.Session, tool, args string) (*extract.Result, json.RawMessage) {
	t.Helper()
	resp, err := c.CallToolRaw(t.Context(), tool, json.RawMessage(args))
	if err != nil {
		t.Fatal(err)
	}
	if !resp.Exact {
		t.Fatal("response not recorded byte for byte")
	}
	return x.MCP(resp.Result), resp.Result
}

func TestSuccess(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{})
	c := rawSession(t, start(t, s, mcpserver.Options{}), "")
	r, result := call(t, c, "get_products", `{"buying_mode":"brief","context":{"trace":"t-1"}}`)
	if r.Error != nil || r.Problem != nil || r.DataPath != "structuredContent" {
		t.Fatalf("extraction: %+v", r)
	}
	var resp adcpt.GetProductsResponse
	if err := adcpt.Decode(r.Data, &resp); err != nil || len(resp.Products) != 2 {
		t.Fatalf("decode %s: %v", r.Data, err)
	}
	d := wire.Lenient(r.Data)
	if !d.Get("status").StringIs("completed") || !d.Get("message").StringIs("Found 2 products.") || string(d.Get("context")) != `{"trace":"t-1"}` {
		t.Errorf("envelope fields: %s", r.Data)
	}
	// The text content mirrors structuredContent.
	var res struct {
		Content []struct{ Type, Text string }
	}
	if err := json.Unmarshal(result, &res); err != nil || len(res.Content) != 1 || res.Content[0].Text != string(r.Data) {
		t.Errorf("text mirror %+v", res)
	}
	// TerseText sends the message instead.
	c = rawSession(t, start(t, s, mcpserver.Options{TerseText: true}), "")
	_, result = call(t, c, "get_products", `{"buying_mode":"brief"}`)
	if !bytes.Contains(result, []byte(`"content":[{"type":"text","text":"Found 2 products."}]`)) {
		t.Errorf("terse: %s", result)
	}
}

// TestEveryErrorCode: each code of the version's table, and the ones the
// server makes itself, extracted by the runtime's own buyer side, gives the
// same code, recovery and retry_after as the server sent.
func TestEveryErrorCode(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{})
	c := rawSession(t, start(t, s, mcpserver.Options{}), "")
	for _, code := range append(sellertest.Codes(), "X_VENDOR_CODE") {
		for _, retry := range []string{"", ":30"} {
			brief := "code:" + code + retry
			want := s.Serve(t.Context(), "get_products", &seller.Call{Arguments: json.RawMessage(`{"buying_mode":"brief","brief":"` + brief + `"}`)}).Error
			r, _ := call(t, c, "get_products", `{"buying_mode":"brief","brief":"`+brief+`","context":{"n":1}}`)
			checkSame(t, brief, r, want)
			if r.Error != nil && r.Error.Path != "structuredContent.adcp_error" {
				t.Errorf("%s: found at %s", brief, r.Error.Path)
			}
		}
	}
	for name, args := range map[string]string{
		"panic":     `{"buying_mode":"brief","brief":"panic"}`,
		"invalid":   `{"buying_mode":7}`,
		"duplicate": `{"buying_mode":"brief","buying_mode":"refine"}`,
		"version":   `{"buying_mode":"brief","adcp_major_version":4}`,
	} {
		want := s.Serve(t.Context(), "get_products", &seller.Call{Arguments: json.RawMessage(args)}).Error
		r, _ := call(t, c, "get_products", args)
		checkSame(t, name, r, want)
	}
}

func checkSame(t *testing.T, name string, r *extract.Result, want *adcperr.Error) {
	t.Helper()
	if r.Error == nil || want == nil {
		t.Fatalf("%s: no error extracted (%+v) or sent (%v)", name, r, want)
	}
	wantRetry, _ := adcperr.NormalizeRetryAfter(want.RetryAfter.Seconds())
	if want.RetryAfter == 0 {
		wantRetry = 0
	}
	if r.Error.Code != want.Code || r.Error.Recovery != want.Recovery || r.Error.RetryAfter != wantRetry {
		t.Errorf("%s: extracted %s/%s/%v, sent %s/%s/%v", name, r.Error.Code, r.Error.Recovery, r.Error.RetryAfter, want.Code, want.Recovery, want.RetryAfter)
	}
}

// TestHostileArguments: bytes the SDK's maps would hide reach the strict
// reader and are refused; the handler never runs.
func TestHostileArguments(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{})
	c := rawSession(t, start(t, s, mcpserver.Options{}), "")
	for name, args := range map[string]string{
		"duplicate":       `{"buying_mode":"brief","brief":"a","brief":"b"}`,
		"escaped proto":   `{"buying_mode":"brief","context":{"\u005f_proto__":{"x":1}}}`,
		"nested dup":      `{"buying_mode":"brief","context":{"a":1,"\u0061":2}}`,
		"constructor key": `{"buying_mode":"brief","filters":{"constructor":{}}}`,
	} {
		r, _ := call(t, c, "get_products", args)
		if r.Error == nil || r.Error.Code != "INVALID_REQUEST" || r.Error.Recovery != "correctable" {
			t.Errorf("%s: %+v", name, r)
		}
	}
	if n := s.Calls("get_products"); n != 0 {
		t.Errorf("handler ran %d times", n)
	}
}

// rawPOST posts one JSON-RPC message to the MCP endpoint.
func rawPOST(t *testing.T, url, key, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func TestAuthentication(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{Authenticator: seller.APIKeys("https://seller.example/mcp", keys)})
	url := start(t, s, mcpserver.Options{})
	callList := `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"list_creatives","arguments":{}}}`
	for _, c := range []struct{ name, key, challenge, code string }{
		{"no key", "", `Bearer realm="https://seller.example/mcp"`, "AUTH_REQUIRED"},
		{"wrong key", "key-mallory", `Bearer realm="https://seller.example/mcp", error="invalid_token"`, "AUTH_REQUIRED"},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp := rawPOST(t, url, c.key, callList)
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != c.challenge {
				t.Fatalf("status %d, challenge %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
			}
			r := x.MCP(body)
			if r.Error == nil || r.Error.Code != c.code || r.Error.Path != "error.data.adcp_error" || !bytes.Contains(body, []byte(`"id":7`)) || !bytes.Contains(body, []byte(`"code":-32028`)) {
				t.Errorf("body %s: %+v", body, r.Error)
			}
		})
	}
	// A wrong key is refused even for initialize and public tools.
	if resp := rawPOST(t, url, "key-mallory", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`); resp.StatusCode != 401 {
		t.Errorf("initialize with a wrong key: %d", resp.StatusCode)
	}
	// Discovery is public: initialize, tools/list and get_products.
	anon := rawSession(t, url, "")
	if tools, err := anon.ListTools(t.Context()); err != nil || len(tools) != 4 {
		t.Fatalf("tools/list: %d %v", len(tools), err)
	}
	if r, _ := call(t, anon, "get_products", `{"buying_mode":"brief"}`); r.Error != nil {
		t.Errorf("public get_products: %+v", r.Error)
	}
	if p := <-s.Principals; !p.Anonymous() {
		t.Errorf("anonymous call ran as %+v", p)
	}
	// With the key, the protected tool answers and its handler sees the principal.
	alice := rawSession(t, url, "key-alice")
	if r, _ := call(t, alice, "list_creatives", `{}`); r.Error != nil || !bytes.Contains(r.Data, []byte("cr_1")) {
		t.Errorf("list_creatives as alice: %+v", r)
	}
	if p := <-s.Principals; p.ID != "alice" {
		t.Errorf("principal %+v", p)
	}
	// go-sdk's own client, with a key, through the same gate.
	client := mcp.NewClient(&mcp.Implementation{Name: "buyer", Version: "1"}, nil)
	sess, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: bearer("key-bob")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	res, err := sess.CallTool(t.Context(), &mcp.CallToolParams{Name: "list_creatives", Arguments: map[string]any{"context": map[string]any{"k": "v"}}})
	if err != nil || res.IsError {
		t.Fatalf("go-sdk client: %v %+v", err, res)
	}
	if p := <-s.Principals; p.ID != "bob" {
		t.Errorf("principal %+v", p)
	}
	// Without a key, go-sdk's client cannot call the protected tool.
	anonSDK, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer anonSDK.Close()
	if _, err := anonSDK.CallTool(t.Context(), &mcp.CallToolParams{Name: "list_creatives", Arguments: map[string]any{}}); err == nil {
		t.Error("protected tool answered without a key")
	}
	if n := s.Calls("list_creatives"); n != 2 {
		t.Errorf("list_creatives ran %d times, want 2", n)
	}
}

func TestOAuth(t *testing.T) {
	verifier := func(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
		if token != "good-token" {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: "buyer-7", Scopes: []string{"adcp"}, Expiration: time.Now().Add(time.Hour)}, nil
	}
	s := sellertest.NewSeller(t, seller.Options{Authenticator: mcpserver.OAuth(mcpserver.OAuthOptions{
		Verifier: verifier, Scopes: []string{"adcp"}, ResourceMetadataURL: "https://seller.example/.well-known/oauth-protected-resource",
	})})
	h, err := mcpserver.NewStreamableHandler(s.Server, mcpserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	mux.Handle("/.well-known/oauth-protected-resource", auth.ProtectedResourceMetadataHandler(&oauthex.ProtectedResourceMetadata{
		Resource: "https://seller.example/mcp", AuthorizationServers: []string{"https://issuer.example"}, ScopesSupported: []string{"adcp"},
	}))
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	resp := rawPOST(t, ts.URL+"/mcp", "bad-token", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_creatives"}}`)
	if want := `Bearer resource_metadata="https://seller.example/.well-known/oauth-protected-resource", scope="adcp", error="invalid_token"`; resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != want {
		t.Errorf("bad token: %d %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	c := rawSession(t, ts.URL+"/mcp", "good-token")
	if r, _ := call(t, c, "list_creatives", `{}`); r.Error != nil {
		t.Fatalf("good token: %+v", r.Error)
	}
	if p := <-s.Principals; p.ID != "buyer-7" {
		t.Errorf("principal %+v", p)
	}
	meta, err := http.Get(ts.URL + "/.well-known/oauth-protected-resource")
	if err != nil || meta.StatusCode != 200 {
		t.Fatalf("metadata: %v", err)
	}
	meta.Body.Close()
}

// TestOAuthPerResource: OAuth beside API keys (seller.FirstOf), with a
// protected resource per endpoint: each refusal names the metadata of the
// resource it was for, and either credential gets in.
func TestOAuthPerResource(t *testing.T) {
	verifier := func(_ context.Context, token string, r *http.Request) (*auth.TokenInfo, error) {
		if token != "token-for-"+r.URL.Path { // the audience is the endpoint
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: "buyer-7", Expiration: time.Now().Add(time.Hour)}, nil
	}
	var base string
	metadataFor := func(r *http.Request) string {
		u, err := mcpserver.ProtectedResourceMetadataURL(base + r.URL.Path)
		if err != nil {
			t.Error(err)
		}
		return u
	}
	s := sellertest.NewSeller(t, seller.Options{Authenticator: seller.FirstOf(
		mcpserver.OAuth(mcpserver.OAuthOptions{Verifier: verifier, ResourceMetadataURLFor: metadataFor}),
		seller.APIKeys("", keys),
	)})
	h, err := mcpserver.NewStreamableHandler(s.Server, mcpserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	mux.Handle("/other/mcp", h)
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	base = ts.URL
	probe := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_creatives","arguments":{}}}`
	for _, c := range []struct{ name, path, token, challenge string }{
		{"no credentials", "/mcp", "", `Bearer resource_metadata="` + ts.URL + `/.well-known/oauth-protected-resource/mcp"`},
		{"a bogus JWT", "/mcp", "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln", `Bearer resource_metadata="` + ts.URL + `/.well-known/oauth-protected-resource/mcp", error="invalid_token"`},
		{"another endpoint's token", "/other/mcp", "token-for-/mcp", `Bearer resource_metadata="` + ts.URL + `/.well-known/oauth-protected-resource/other/mcp", error="invalid_token"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp := rawPOST(t, ts.URL+c.path, c.token, probe)
			if resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != c.challenge {
				t.Errorf("%d %q, want 401 %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"), c.challenge)
			}
		})
	}
	for _, cred := range []struct{ token, principal string }{{"token-for-/mcp", "buyer-7"}, {"key-alice", "alice"}} {
		c := rawSession(t, ts.URL+"/mcp", cred.token)
		if r, _ := call(t, c, "list_creatives", `{}`); r.Error != nil {
			t.Fatalf("%s: %+v", cred.token, r.Error)
		}
		if p := <-s.Principals; p.ID != cred.principal {
			t.Errorf("%s: principal %+v", cred.token, p)
		}
	}
}

func TestProtectedResourceMetadataURL(t *testing.T) {
	for _, c := range []struct{ resource, want string }{
		{"https://seller.example/mcp", "https://seller.example/.well-known/oauth-protected-resource/mcp"},
		{"http://127.0.0.1:8080/a2a/", "http://127.0.0.1:8080/.well-known/oauth-protected-resource/a2a"},
		{"https://seller.example", "https://seller.example/.well-known/oauth-protected-resource"},
		{"https://seller.example/tenant%2Fa/mcp?x=1", "https://seller.example/.well-known/oauth-protected-resource/tenant%2Fa/mcp"},
		{"/mcp", ""},
	} {
		got, err := mcpserver.ProtectedResourceMetadataURL(c.resource)
		if got != c.want || (err != nil) != (c.want == "") {
			t.Errorf("%q: %q %v, want %q", c.resource, got, err, c.want)
		}
	}
}

// TestInputSchemas: tools/list publishes each request schema bundled into
// one document that a validator compiles without any other file, and that
// accepts and refuses what the tree's schema does.
func TestInputSchemas(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{})
	c := rawSession(t, start(t, s, mcpserver.Options{}), "")
	tools, err := c.ListTools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*mcp.Tool{}
	for _, tool := range tools {
		byName[tool.Name] = tool
	}
	raw, _ := json.Marshal(byName["create_media_buy"].InputSchema)
	if bytes.Contains(raw, []byte(`"$ref":"/`)) || bytes.Contains(raw, []byte(`"$id"`)) {
		t.Fatalf("schema refers outside itself: %s", raw)
	}
	compiler := jsonschema.NewCompiler()
	compiler.LoadURL = func(u string) (io.ReadCloser, error) { return nil, errors.New("fetch attempted: " + u) }
	if err := compiler.AddResource("mem:create.json", bytes.NewReader(raw)); err != nil {
		t.Fatal(err)
	}
	schema, err := compiler.Compile("mem:create.json")
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	for args, ok := range map[string]bool{
		`{"idempotency_key":"0123456789abcdef","packages":[{"product_id":"p","budget":5,"pricing_option":{"model":"cpm","rate":1,"currency":"USD"}}],"context":{"a":1}}`: true,
		`{"idempotency_key":"0123456789abcdef","packages":[{"product_id":"p","budget":5,"pricing_option":{"model":"cpm","rate":1,"currency":"usd"}}]}`:                   false,
		`{"idempotency_key":"short","packages":[{"product_id":"p","budget":5}]}`:                                                                                         false,
	} {
		var v any
		_ = json.Unmarshal([]byte(args), &v)
		if err := schema.Validate(v); (err == nil) != ok {
			t.Errorf("%s: valid=%v, want %v (%v)", args, err == nil, ok, err)
		}
	}
	if d := byName["get_products"].Description; d != "Discover products." {
		t.Errorf("description %q", d)
	}
	// The minimal option.
	c = rawSession(t, start(t, s, mcpserver.Options{MinimalInputSchemas: true}), "")
	tools, _ = c.ListTools(t.Context())
	for _, tool := range tools {
		if raw, _ := json.Marshal(tool.InputSchema); string(raw) != `{"type":"object"}` {
			t.Errorf("%s: %s", tool.Name, raw)
		}
	}
}

// TestDisconnect: a buyer that gives up mid-call cancels the handler's
// context, and nothing is left running: go-sdk's client cancelling its
// call (it sends notifications/cancelled), and, in stateless mode, a
// buyer whose HTTP connection drops.
func TestDisconnect(t *testing.T) {
	waitCalled := func(s *sellertest.Seller) {
		for s.Calls("get_products") == 0 {
			time.Sleep(5 * time.Millisecond)
		}
	}
	gaveUp := func(t *testing.T, s *sellertest.Seller) {
		t.Helper()
		select {
		case <-s.GaveUp:
		case <-time.After(5 * time.Second):
			t.Fatal("the handler's context was not cancelled")
		}
	}
	noLeak := func(t *testing.T, before int) {
		t.Helper()
		http.DefaultClient.CloseIdleConnections() // keep-alive connections are not leaks
		deadline := time.Now().Add(5 * time.Second)
		for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if n := runtime.NumGoroutine(); n > before {
			buf := make([]byte, 1<<16)
			t.Errorf("%d goroutines left (%d before)\n%s", n, before, buf[:runtime.Stack(buf, true)])
		}
	}
	t.Run("sdk cancels", func(t *testing.T) {
		s := sellertest.NewSeller(t, seller.Options{})
		url := start(t, s, mcpserver.Options{})
		before := runtime.NumGoroutine()
		sess, err := mcp.NewClient(&mcp.Implementation{Name: "b", Version: "1"}, nil).Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(t.Context())
		go func() { waitCalled(s); cancel() }()
		if _, err := sess.CallTool(ctx, &mcp.CallToolParams{Name: "get_products", Arguments: map[string]any{"buying_mode": "brief", "brief": "hang"}}); !errors.Is(err, context.Canceled) {
			t.Errorf("call: %v", err)
		}
		gaveUp(t, s)
		sess.Close()
		noLeak(t, before)
	})
	t.Run("connection drops", func(t *testing.T) {
		s := sellertest.NewSeller(t, seller.Options{})
		url := start(t, s, mcpserver.Options{Stateless: true, JSONResponse: true})
		before := runtime.NumGoroutine()
		ctx, cancel := context.WithCancel(t.Context())
		go func() { waitCalled(s); cancel() }()
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(
			`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_products","arguments":{"buying_mode":"brief","brief":"hang"}}}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
		if resp, err := http.DefaultClient.Do(req); err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			t.Fatalf("answered %d %s", resp.StatusCode, body)
		}
		gaveUp(t, s)
		noLeak(t, before)
	})
}

func TestPanicKeepsServing(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{})
	c := rawSession(t, start(t, s, mcpserver.Options{}), "")
	r, _ := call(t, c, "get_products", `{"buying_mode":"brief","brief":"panic"}`)
	if r.Error == nil || r.Error.Code != "SERVICE_UNAVAILABLE" || bytes.Contains(r.Error.Raw, []byte("hunter2")) {
		t.Fatalf("panic answer: %+v", r.Error)
	}
	if r, _ = call(t, c, "get_products", `{"buying_mode":"brief"}`); r.Error != nil {
		t.Errorf("after a panic: %+v", r.Error)
	}
}

// TestAsync: a submitted answer carries status and task_id beside the
// payload.
func TestAsync(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{})
	c := rawSession(t, start(t, s, mcpserver.Options{}), "")
	r, _ := call(t, c, "create_media_buy", `{"idempotency_key":"0123456789abcdef","po_number":"async-1","packages":[{"product_id":"p","budget":5}],"context":{"c":2}}`)
	d := wire.Lenient(r.Data)
	id, _ := d.Get("task_id").AsString()
	if r.Error != nil || !d.Get("status").StringIs("submitted") || id == "" || string(d.Get("context")) != `{"c":2}` {
		t.Fatalf("submitted: %s %+v", r.Data, r.Error)
	}
	if s.BuyTask(id) == nil {
		t.Errorf("no task %s", id)
	}
}

// TestAcceptJSONOnly: a bare tools/call, without a session, accepting only
// JSON (a raw probe), is answered with JSON when the option is on, and
// refused by go-sdk when it is off.
func TestAcceptJSONOnly(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{})
	probe := `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"get_products","arguments":{"buying_mode":"brief","context":{"p":1}}}}`
	for _, on := range []bool{true, false} {
		url := start(t, s, mcpserver.Options{Stateless: true, JSONResponse: true, AcceptJSONOnly: on})
		req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(probe))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		r := x.MCP(body)
		if on && (resp.StatusCode != 200 || r.Error != nil || !bytes.Contains(r.Data, []byte(`"context":{"p":1}`))) {
			t.Errorf("on: %d %s", resp.StatusCode, body)
		}
		if !on && resp.StatusCode != http.StatusBadRequest {
			t.Errorf("off: %d %s", resp.StatusCode, body)
		}
	}
}

// TestLocalPrincipal: calls without HTTP (stdio, in memory) run as the
// configured local principal.
func TestLocalPrincipal(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{Authenticator: seller.APIKeys("x", keys)})
	for _, c := range []struct {
		local   seller.Principal
		wantErr bool
	}{{seller.Principal{}, true}, {seller.Principal{ID: "operator"}, false}} {
		server, err := mcpserver.NewServer(s.Server, mcpserver.Options{LocalPrincipal: c.local})
		if err != nil {
			t.Fatal(err)
		}
		st, ct := mcp.NewInMemoryTransports()
		ss, err := server.Connect(t.Context(), st, nil)
		if err != nil {
			t.Fatal(err)
		}
		sess, err := mcp.NewClient(&mcp.Implementation{Name: "b", Version: "1"}, nil).Connect(t.Context(), ct, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := sess.CallTool(t.Context(), &mcp.CallToolParams{Name: "list_creatives", Arguments: map[string]any{}})
		if err != nil || res.IsError != c.wantErr {
			t.Errorf("local %+v: %v %+v", c.local, err, res)
		}
		sess.Close()
		ss.Close()
	}
}
