package a2aserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/internal/sellertest"
	"github.com/adcpgen/adcpgen/runtime/a2aclient"
	"github.com/adcpgen/adcpgen/runtime/a2aserver"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

var keys = map[string]string{"key-alice": "alice", "key-bob": "bob"}

var x = extract.New(adcpt.Spec())

// start serves s at /a2a with its card, on loopback; it returns the base URL.
func start(t *testing.T, s *sellertest.Seller) string {
	t.Helper()
	mux := http.NewServeMux()
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	opts := a2aserver.Options{URL: ts.URL + "/a2a", Name: "test seller"}
	mux.Handle("/a2a", a2aserver.NewHandler(s.Server, opts))
	mux.Handle(a2aserver.CardPath, a2aserver.NewCardHandler(s.Server, opts))
	return ts.URL
}

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

func dial(t *testing.T, base, key string) *a2aclient.Conn {
	t.Helper()
	c, err := a2aclient.Dial(t.Context(), base, bearer(key))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// send calls skill and extracts the task as a buyer does.
func send(t *testing.T, c *a2aclient.Conn, skill, input string) (*extract.Result, json.RawMessage) {
	t.Helper()
	resp, err := c.SendMessageRaw(t.Context(), skill, json.RawMessage(input))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Error != nil {
		t.Fatalf("JSON-RPC error %s", resp.Error)
	}
	return x.A2A(resp.Result), resp.Result
}

func TestCard(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{Authenticator: seller.APIKeys("x", keys)})
	base := start(t, s)
	c := dial(t, base, "")
	card := c.Card()
	var skills []string
	for _, sk := range card.Skills {
		skills = append(skills, sk.ID)
	}
	if !slices.Equal(skills, []string{"create_media_buy", "get_adcp_capabilities", "get_products", "list_creatives"}) {
		t.Errorf("skills %v", skills)
	}
	if card.URL != base+"/a2a" || card.PreferredTransport != a2a.TransportProtocolJSONRPC || card.Version != adcpt.SpecVersion {
		t.Errorf("card %+v", card)
	}
	if _, ok := card.SecuritySchemes["bearer"]; !ok || len(card.Security) != 1 {
		t.Errorf("security %+v %+v", card.SecuritySchemes, card.Security)
	}
}

func TestSuccess(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{})
	c := dial(t, start(t, s), "")
	r, result := send(t, c, "get_products", `{"buying_mode":"brief","context":{"trace":"t-1"}}`)
	if r.Error != nil || r.Problem != nil || r.State != "completed" || r.DataPath != "artifacts[0].parts[0].data" {
		t.Fatalf("extraction %+v", r)
	}
	var resp adcpt.GetProductsResponse
	if err := adcpt.Decode(r.Data, &resp); err != nil || len(resp.Products) != 2 || string(resp.Context["trace"]) != `"t-1"` {
		t.Fatalf("decode %s: %v", r.Data, err)
	}
	task := wire.Lenient(result)
	if !task.Get("artifacts").Index(0).Get("parts").Index(0).Get("data").Get("status").StringIs("completed") {
		t.Errorf("no status beside the payload: %s", result)
	}
	if task.Get("artifacts").Index(0).Get("metadata").Present() {
		t.Errorf("a synchronous answer has an adcp_task_id: %s", result)
	}
	// The legacy key "parameters" and a text part before the DataPart.
	params := &a2a.MessageSendParams{Message: a2a.NewMessage(a2a.MessageRoleUser,
		a2a.TextPart{Text: "find products"},
		a2a.DataPart{Data: map[string]any{"skill": "get_products", "parameters": json.RawMessage(`{"buying_mode":"wholesale","context":{"k":2}}`)}})}
	raw, err := c.SendRaw(t.Context(), params)
	if err != nil {
		t.Fatal(err)
	}
	if r := x.A2A(raw.Result); r.Error != nil || !bytes.Contains(r.Data, []byte(`"context":{"k":2}`)) {
		t.Errorf("parameters: %+v %s", r.Error, r.Data)
	}
	// message/stream answers the same task as one event.
	events, err := c.StreamMessageRaw(t.Context(), "get_products", json.RawMessage(`{"buying_mode":"brief"}`))
	if err != nil || len(events) != 1 {
		t.Fatalf("stream: %d events, %v", len(events), err)
	}
	if r := x.A2A(events[0].Result); r.Error != nil || !bytes.Contains(r.Data, []byte("ctv_premium")) {
		t.Errorf("stream: %+v", r)
	}
}

// TestEveryErrorCode: each code, extracted by the runtime's own buyer side
// from the failed task, gives the same code, recovery and retry_after as
// the server sent.
func TestEveryErrorCode(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{})
	c := dial(t, start(t, s), "")
	check := func(name string, r *extract.Result, want *adcperr.Error) {
		t.Helper()
		if r.Error == nil || want == nil {
			t.Fatalf("%s: nothing extracted (%+v) or sent (%v)", name, r, want)
		}
		wantRetry, _ := adcperr.NormalizeRetryAfter(want.RetryAfter.Seconds())
		if want.RetryAfter == 0 {
			wantRetry = 0
		}
		if r.Error.Code != want.Code || r.Error.Recovery != want.Recovery || r.Error.RetryAfter != wantRetry || r.State != "failed" {
			t.Errorf("%s: extracted %s/%s/%v (%s), sent %s/%s/%v", name, r.Error.Code, r.Error.Recovery, r.Error.RetryAfter, r.State, want.Code, want.Recovery, want.RetryAfter)
		}
	}
	for _, code := range append(sellertest.Codes(), "X_VENDOR_CODE") {
		for _, retry := range []string{"", ":30"} {
			brief := "code:" + code + retry
			want := s.Serve(t.Context(), "get_products", &seller.Call{Arguments: json.RawMessage(`{"buying_mode":"brief","brief":"` + brief + `"}`)}).Error
			r, result := send(t, c, "get_products", `{"buying_mode":"brief","brief":"`+brief+`","context":{"n":1}}`)
			check(brief, r, want)
			if data := wire.Lenient(result).Get("artifacts").Index(0).Get("parts").Index(1).Get("data"); string(data.Get("context")) != `{"n":1}` {
				t.Errorf("%s: context not echoed: %s", brief, data)
			}
		}
	}
	for name, input := range map[string]string{
		"panic":     `{"buying_mode":"brief","brief":"panic"}`,
		"invalid":   `{"buying_mode":7}`,
		"duplicate": `{"buying_mode":"brief","buying_mode":"refine"}`,
		"version":   `{"buying_mode":"brief","adcp_major_version":4}`,
	} {
		want := s.Serve(t.Context(), "get_products", &seller.Call{Arguments: json.RawMessage(input)}).Error
		r, _ := send(t, c, "get_products", input)
		check(name, r, want)
	}
	// A skill the agent does not serve, and a message without a skill.
	r, _ := send(t, c, "delete_everything", `{}`)
	if r.Error == nil || r.Error.Code != "UNSUPPORTED_FEATURE" {
		t.Errorf("unknown skill: %+v", r.Error)
	}
	raw, err := c.SendRaw(t.Context(), &a2a.MessageSendParams{Message: a2a.NewMessage(a2a.MessageRoleUser, a2a.TextPart{Text: "hello"})})
	if err != nil {
		t.Fatal(err)
	}
	if r := x.A2A(raw.Result); r.Error == nil || r.Error.Code != "INVALID_REQUEST" {
		t.Errorf("no skill: %+v", r.Error)
	}
}

func TestHostileInput(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{})
	c := dial(t, start(t, s), "")
	for name, input := range map[string]string{
		"duplicate":     `{"buying_mode":"brief","brief":"a","brief":"b"}`,
		"escaped proto": `{"buying_mode":"brief","context":{"\u005f_proto__":{"x":1}}}`,
		"nested dup":    `{"buying_mode":"brief","context":{"a":1,"\u0061":2}}`,
	} {
		r, _ := send(t, c, "get_products", input)
		if r.Error == nil || r.Error.Code != "INVALID_REQUEST" {
			t.Errorf("%s: %+v", name, r)
		}
	}
	if n := s.Calls("get_products"); n != 0 {
		t.Errorf("handler ran %d times", n)
	}
}

func rawPOST(t *testing.T, url, key, body string) *http.Response {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
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
	s := sellertest.NewSeller(t, seller.Options{Authenticator: seller.APIKeys("https://seller.example/a2a", keys)})
	base := start(t, s)
	msg := func(skill string) string {
		return `{"jsonrpc":"2.0","id":"r1","method":"message/send","params":{"message":{"kind":"message","messageId":"m1","role":"user","parts":[{"kind":"data","data":{"skill":"` + skill + `","input":{}}}]}}}`
	}
	for _, c := range []struct{ name, key, challenge string }{
		{"no key", "", `Bearer realm="https://seller.example/a2a"`},
		{"wrong key", "key-mallory", `Bearer realm="https://seller.example/a2a", error="invalid_token"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp := rawPOST(t, base+"/a2a", c.key, msg("list_creatives"))
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != c.challenge {
				t.Fatalf("status %d, challenge %q", resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
			}
			if r := x.DetectError(body); r.Error == nil || r.Error.Code != "AUTH_REQUIRED" || !bytes.Contains(body, []byte(`"id":"r1"`)) {
				t.Errorf("body %s", body)
			}
		})
	}
	// An MCP probe posted to the A2A endpoint, and a message naming no
	// skill, are refused too.
	for name, body := range map[string]string{
		"mcp probe": `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_creatives","arguments":{}}}`,
		"no skill":  `{"jsonrpc":"2.0","id":4,"method":"message/send","params":{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"text","text":"hi"}]}}}`,
		"not JSON":  `{"jsonrpc":`,
	} {
		if resp := rawPOST(t, base+"/a2a", "", body); resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") == "" {
			t.Errorf("%s without a key: %d", name, resp.StatusCode)
		}
	}
	// tasks/get needs credentials too.
	if resp := rawPOST(t, base+"/a2a", "", `{"jsonrpc":"2.0","id":2,"method":"tasks/get","params":{"id":"task_x"}}`); resp.StatusCode != 401 {
		t.Errorf("tasks/get without a key: %d", resp.StatusCode)
	}
	// The card and public skills need none.
	anon := dial(t, base, "")
	if r, _ := send(t, anon, "get_products", `{"buying_mode":"brief"}`); r.Error != nil {
		t.Errorf("public skill: %+v", r.Error)
	}
	if p := <-s.Principals; !p.Anonymous() {
		t.Errorf("principal %+v", p)
	}
	alice := dial(t, base, "key-alice")
	if r, _ := send(t, alice, "list_creatives", `{}`); r.Error != nil {
		t.Errorf("list_creatives as alice: %+v", r.Error)
	}
	if p := <-s.Principals; p.ID != "alice" {
		t.Errorf("principal %+v", p)
	}
	// a2a-go's own client, through the same gate.
	res, err := alice.SDK().SendMessage(t.Context(), a2aclient.AdCPMessage("list_creatives", json.RawMessage(`{}`)))
	if err != nil {
		t.Fatal(err)
	}
	if task, ok := res.(*a2a.Task); !ok || task.Status.State != a2a.TaskStateCompleted {
		t.Errorf("a2a-go client: %#v", res)
	}
}

// TestOAuthChallenge: an OAuth seller's refusals over A2A, an MCP probe
// posted to the A2A endpoint included, are 401s naming the metadata of the
// A2A endpoint's own protected resource.
func TestOAuthChallenge(t *testing.T) {
	verifier := func(context.Context, string, *http.Request) (*auth.TokenInfo, error) {
		return nil, auth.ErrInvalidToken
	}
	var base string
	s := sellertest.NewSeller(t, seller.Options{Authenticator: seller.FirstOf(
		mcpserver.OAuth(mcpserver.OAuthOptions{Verifier: verifier, ResourceMetadataURLFor: func(r *http.Request) string {
			u, _ := mcpserver.ProtectedResourceMetadataURL(base + r.URL.Path)
			return u
		}}),
		seller.APIKeys("", keys),
	)})
	base = start(t, s)
	want := `Bearer resource_metadata="` + base + `/.well-known/oauth-protected-resource/a2a", error="invalid_token"`
	for name, body := range map[string]string{
		"message/send": `{"jsonrpc":"2.0","id":"r1","method":"message/send","params":{"message":{"kind":"message","messageId":"m1","role":"user","parts":[{"kind":"data","data":{"skill":"list_creatives","input":{}}}]}}}`,
		"MCP probe":    `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"list_creatives","arguments":{}}}`,
	} {
		resp := rawPOST(t, base+"/a2a", "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln", body)
		if resp.StatusCode != 401 || resp.Header.Get("WWW-Authenticate") != want {
			t.Errorf("%s: %d %q, want 401 %q", name, resp.StatusCode, resp.Header.Get("WWW-Authenticate"), want)
		}
	}
	if r, _ := send(t, dial(t, base, "key-alice"), "list_creatives", `{}`); r.Error != nil {
		t.Errorf("API key beside OAuth: %+v", r.Error)
	}
}

// TestAsync: a submitted answer carries the AdCP task id as the task's id
// and the artifact's adcp_task_id; tasks/get reads it back, for its
// principal only.
func TestAsync(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{Authenticator: seller.APIKeys("x", keys)})
	base := start(t, s)
	alice, bob := dial(t, base, "key-alice"), dial(t, base, "key-bob")
	r, result := send(t, alice, "create_media_buy", `{"idempotency_key":"0123456789abcdef","po_number":"async-7","packages":[{"product_id":"p","budget":5}],"context":{"c":3}}`)
	task := wire.Lenient(result)
	id, _ := task.Get("artifacts").Index(0).Get("metadata").Get("adcp_task_id").AsString()
	if r.State != "submitted" || id == "" || !task.Get("id").StringIs(id) || r.DataPath != "status.message.parts[0].data" ||
		string(r.Data) != `{"adcp_version":"3.90-test","context":{"c":3},"status":"submitted","task_id":"`+id+`"}` {
		t.Fatalf("submitted: %+v %s", r, result)
	}
	h := s.BuyTask(id)
	resp := adcpt.NewCreateMediaBuyResponseSuccess(adcpt.CreateMediaBuySuccess{MediaBuyID: "mb_9"})
	if err := h.Complete(t.Context(), &resp, "Created."); err != nil {
		t.Fatal(err)
	}
	got, err := alice.GetTaskRaw(t.Context(), id)
	if err != nil || got.Error != nil {
		t.Fatalf("tasks/get: %v %s", err, got.Error)
	}
	if r := x.A2A(got.Result); r.State != "completed" || string(r.Data) != `{"adcp_version":"3.90-test","context":{"c":3},"media_buy_id":"mb_9","message":"Created.","status":"completed","task_id":"`+id+`"}` { // a2a-go holds data as a map: members sorted
		t.Errorf("completed task: %+v %s", r, r.Data)
	}
	// Bob asking for Alice's task and anyone asking for a missing one get
	// the same answer.
	other, _ := bob.GetTaskRaw(t.Context(), id)
	missing, _ := bob.GetTaskRaw(t.Context(), "task_missing")
	strip := func(b []byte) string {
		return string(wire.Lenient(b).Get("code")) + string(wire.Lenient(b).Get("message"))
	}
	if other == nil || missing == nil || other.Error == nil || strip(other.Error) != strip(missing.Error) {
		t.Errorf("not yours %s, missing %s", other.Error, missing.Error)
	}
}

func TestDisconnect(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{})
	base := start(t, s)
	hc := &http.Client{Transport: &http.Transport{}}
	before := runtime.NumGoroutine()
	c, err := a2aclient.Dial(t.Context(), base, hc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		for s.Calls("get_products") == 0 {
			time.Sleep(5 * time.Millisecond)
		}
		cancel()
	}()
	if _, err := c.SendMessageRaw(ctx, "get_products", json.RawMessage(`{"buying_mode":"brief","brief":"hang"}`)); err == nil {
		t.Error("the call succeeded")
	}
	select {
	case <-s.GaveUp:
	case <-time.After(5 * time.Second):
		t.Fatal("the handler's context was not cancelled")
	}
	c.Close()
	hc.CloseIdleConnections()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines left (%d before)\n%s", n, before, buf[:runtime.Stack(buf, true)])
	}
}

// TestTaskStateModes: each mode answers an AdCP error and a submitted
// answer in the task state it names, by the dialect of the request where
// it follows it; the runtime's extraction reads the same code, recovery,
// retry_after and context from every error, and the same payload (status
// and task_id included) from every submitted answer. Responses are
// completed tasks in every mode.
func TestTaskStateModes(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{})
	const input = `{"buying_mode":"brief","brief":"code:BUDGET_TOO_LOW:30","context":{"k":1}}`
	want := s.Serve(t.Context(), "get_products", &seller.Call{Arguments: json.RawMessage(input)}).Error
	if want == nil {
		t.Fatal("the seller answered no error")
	}
	wantRetry, _ := adcperr.NormalizeRetryAfter(want.RetryAfter.Seconds())
	type dialect int
	const (
		current dialect = iota // {"skill", "input"}
		legacy                 // {"skill", "parameters"}
	)
	const (
		failed    = a2a.TaskStateFailed
		submitted = a2a.TaskStateSubmitted
		completed = a2a.TaskStateCompleted
	)
	for _, tt := range []struct {
		name                   string
		mode                   a2aserver.TaskStateMode
		dialect                dialect
		errorState, asyncState a2a.TaskState
	}{
		{"protocol/input", a2aserver.TaskStatesProtocol, current, failed, submitted},
		{"protocol/parameters", a2aserver.TaskStatesProtocol, legacy, failed, submitted},
		{"completed/input", a2aserver.TaskStatesCompleted, current, completed, completed},
		{"completed/parameters", a2aserver.TaskStatesCompleted, legacy, completed, completed},
		{"dialect/input", a2aserver.TaskStatesFollowDialect, current, failed, submitted},
		{"dialect/parameters", a2aserver.TaskStatesFollowDialect, legacy, completed, completed},
	} {
		t.Run(tt.name, func(t *testing.T) {
			mux := http.NewServeMux()
			ts := httptest.NewServer(mux)
			t.Cleanup(ts.Close)
			opts := a2aserver.Options{URL: ts.URL + "/a2a", TaskStates: tt.mode}
			mux.Handle("/a2a", a2aserver.NewHandler(s.Server, opts))
			mux.Handle(a2aserver.CardPath, a2aserver.NewCardHandler(s.Server, opts))
			c := dial(t, ts.URL, "")
			call := func(in string) (wire.Lenient, *extract.Result) {
				t.Helper()
				key := "input"
				if tt.dialect == legacy {
					key = "parameters"
				}
				raw, err := c.SendRaw(t.Context(), &a2a.MessageSendParams{Message: a2a.NewMessage(a2a.MessageRoleUser,
					a2a.DataPart{Data: map[string]any{"skill": "get_products", key: json.RawMessage(in)}})})
				if err != nil || raw.Error != nil {
					t.Fatalf("send: %v %s", err, raw.Error)
				}
				return wire.Lenient(raw.Result), x.A2A(raw.Result)
			}
			stateOf := func(task wire.Lenient) a2a.TaskState {
				s, _ := task.Get("status").Get("state").AsString()
				return a2a.TaskState(s)
			}

			task, r := call(input)
			if stateOf(task) != tt.errorState {
				t.Errorf("error: state %q, want %q", stateOf(task), tt.errorState)
			}
			if r.Error == nil || r.Error.Code != want.Code || r.Error.Recovery != want.Recovery || r.Error.RetryAfter != wantRetry {
				t.Fatalf("error: extracted %+v, sent %s/%s/%v", r.Error, want.Code, want.Recovery, want.RetryAfter)
			}
			if data := task.Get("artifacts").Index(0).Get("parts").Index(1).Get("data"); string(data.Get("context")) != `{"k":1}` {
				t.Errorf("error: context not echoed: %s", data)
			}

			task, r = call(`{"buying_mode":"brief","brief":"async","context":{"k":2}}`)
			id, _ := task.Get("artifacts").Index(0).Get("metadata").Get("adcp_task_id").AsString()
			if stateOf(task) != tt.asyncState || id == "" || !task.Get("id").StringIs(id) {
				t.Errorf("submitted: state %q, want %q; task %s", stateOf(task), tt.asyncState, task)
			}
			if r.Error != nil || string(r.Data) != `{"adcp_version":"3.90-test","context":{"k":2},"message":"Queued.","status":"submitted","task_id":"`+id+`"}` {
				t.Errorf("submitted: extracted %+v %s", r.Error, r.Data)
			}
			if interim := task.Get("status").Get("message").Present(); interim != (tt.asyncState == submitted) {
				t.Errorf("submitted: status.message present %v in state %s", interim, stateOf(task))
			}

			task, r = call(`{"buying_mode":"brief"}`)
			if stateOf(task) != completed || r.Error != nil || !bytes.Contains(r.Data, []byte("ctv_premium")) {
				t.Errorf("success: %s %+v", stateOf(task), r)
			}

			// Input the strict reader refuses is refused in the dialect's
			// state too.
			task, r = call(`{"buying_mode":"brief","brand":{"\u005f_proto__":1},"context":{"k":3}}`)
			if stateOf(task) != tt.errorState || r.Error == nil || r.Error.Code != "INVALID_REQUEST" {
				t.Errorf("refused input: state %q, want %q; %+v", stateOf(task), tt.errorState, r.Error)
			}
			if data := task.Get("artifacts").Index(0).Get("parts").Index(1).Get("data"); string(data.Get("context")) != `{"k":3}` {
				t.Errorf("refused input: context not echoed: %s", data)
			}
		})
	}
}

func TestPanicKeepsServing(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{})
	c := dial(t, start(t, s), "")
	if r, _ := send(t, c, "get_products", `{"buying_mode":"brief","brief":"panic"}`); r.Error == nil || r.Error.Code != "SERVICE_UNAVAILABLE" {
		t.Fatalf("panic: %+v", r.Error)
	}
	if r, _ := send(t, c, "get_products", `{"buying_mode":"brief"}`); r.Error != nil {
		t.Errorf("after a panic: %+v", r.Error)
	}
}

// A payload whose own status reads as another task status (AdCP 3.0's
// update_media_buy reporting a canceled buy in a completed task) puts the
// text first: the JavaScript SDK 6.11 takes the first DataPart's status
// for the task's. AdCP's extraction still finds the payload, and a status
// that is the task's keeps the DataPart first.
func TestOwnStatusLeadsWithText(t *testing.T) {
	at := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		body      string
		textFirst bool
	}{
		{`{"media_buy_id":"mb_1","status":"canceled"}`, true},
		{`{"media_buy_id":"mb_1","status":"completed"}`, false},
		{`{"media_buy_id":"mb_1","status":"pending_creatives"}`, false},
		{`{"media_buy_id":"mb_1"}`, false},
	} {
		task := a2aserver.TaskOf(&seller.Answer{Status: "completed", Body: json.RawMessage(c.body)}, "ctx-1", at, false)
		parts := task.Artifacts[0].Parts
		_, textFirst := parts[0].(a2a.TextPart)
		if textFirst != c.textFirst || len(parts) != 1+btoi(c.textFirst) {
			t.Errorf("%s: parts %#v", c.body, parts)
		}
		raw, err := json.Marshal(task)
		if err != nil {
			t.Fatal(err)
		}
		r := x.A2A(raw)
		if r.Error != nil || r.Problem != nil || wire.Lenient(r.Data).Get("media_buy_id").StringIs("mb_1") == false || r.State != "completed" {
			t.Errorf("%s: extracted %+v", c.body, r)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Task timestamps are whole seconds: answers that say the same are the
// same size whatever the clock's fraction (the uniform-response rule the
// conformance fuzzer checks byte for byte).
func TestTimestampsWholeSeconds(t *testing.T) {
	a := &seller.Answer{Status: "completed", Body: json.RawMessage(`{"media_buy_deliveries":[]}`)}
	var sizes []int
	for _, ns := range []int{0, 120_000_000, 123_456_789} {
		task := a2aserver.TaskOf(a, "", time.Date(2026, 3, 1, 0, 0, 0, ns, time.UTC), false)
		task.ID = "t" // ids are fixed-length UUIDs; make them equal here
		raw, err := json.Marshal(task)
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, len(raw))
		if !strings.Contains(string(raw), `"timestamp":"2026-03-01T00:00:00Z"`) {
			t.Errorf("timestamp in %s", raw)
		}
	}
	if sizes[0] != sizes[1] || sizes[1] != sizes[2] {
		t.Errorf("sizes %v", sizes)
	}
}
