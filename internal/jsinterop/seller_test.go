package jsinterop_test

// These tests call the JavaScript SDK's seller with the runtime's raw-bytes
// clients and extraction, and pin the facts doc.go lists about it.

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/adcpgen/adcpgen/generated/adcp"
	"github.com/adcpgen/adcpgen/internal/jsinterop"
	"github.com/adcpgen/adcpgen/runtime/a2aclient"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/registry"
)

var x = extract.New(adcp.Spec())

// createMediaBuy is a create_media_buy request for seller.mjs's product;
// po_number "async-..." asks for the submitted answer.
func createMediaBuy(key, po string) json.RawMessage {
	return json.RawMessage(`{"idempotency_key":"` + key + `","account":{"account_id":"acc_test"},` +
		`"brand":{"domain":"acme.example"},"po_number":"` + po + `",` +
		`"start_time":"2027-01-01T00:00:00Z","end_time":"2027-01-31T00:00:00Z",` +
		`"packages":[{"product_id":"prod_display_ron","budget":1000,"pricing_option_id":"cpm_usd"}]}`)
}

const getProducts = `{"buying_mode":"brief","brief":"display"}`

// canned is the seller most tests use: get_media_buys fails with a
// transient error carrying retry_after.
var canned = jsinterop.SellerOptions{Errors: map[string]jsinterop.SellerError{
	"get_media_buys": {Code: "RATE_LIMITED", Message: "slow down", RetryAfter: 7},
}}

// asyncResult is the AdCP payload of a submitted answer and of the
// tasks/get tool's answer.
type asyncResult struct {
	Status   string `json:"status"`
	TaskID   string `json:"task_id"`
	TaskType string `json:"task_type"`
	Result   *struct {
		MediaBuyID string `json:"media_buy_id"`
	} `json:"result"`
	MediaBuyID string `json:"media_buy_id"`
}

func decode[T any](t *testing.T, data []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%v: %s", err, data)
	}
	return v
}

// mcpCaller connects to the seller's MCP endpoint for the test's duration
// and returns the session and a call of one tool, extracted.
func mcpCaller(t *testing.T, url string) (*mcpclient.Session, func(tool, args string) *extract.Result) {
	t.Helper()
	c, err := mcpclient.ConnectHTTP(t.Context(), url, nil, mcpclient.ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, func(tool, args string) *extract.Result {
		t.Helper()
		resp, err := c.CallToolRaw(t.Context(), tool, json.RawMessage(args))
		if err != nil {
			t.Fatal(err)
		}
		return x.MCP(resp.Message)
	}
}

func TestSellerMCP(t *testing.T) {
	s := jsinterop.StartSeller(t, canned)
	c, call := mcpCaller(t, s.MCPURL)

	tools, err := c.ListTools(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
	// The status tool of 3.0.x is a tool literally named tasks/get (with
	// tasks_get as an alias), although MCP tool names may not hold "/".
	for _, want := range []string{"get_adcp_capabilities", "get_products", "create_media_buy", "tasks/get", "tasks_get"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools/list has no %q: %v", want, names)
		}
	}

	r := call("get_products", getProducts)
	if r.Failure() != nil || r.DataPath != "result.structuredContent" || !bytes.Contains(r.Data, []byte(`"product_id":"prod_display_ron"`)) {
		t.Errorf("get_products: %s from %s (%v)", r.Data, r.DataPath, r.Failure())
	}

	r = call("create_media_buy", string(createMediaBuy("k-mcp-sync-0123456789", "sync-1")))
	if sync := decode[asyncResult](t, r.Data); r.Failure() != nil || sync.MediaBuyID == "" || sync.Status == "submitted" {
		t.Errorf("synchronous create_media_buy: %s (%v)", r.Data, r.Failure())
	}

	r = call("create_media_buy", string(createMediaBuy("k-mcp-async-0123456789", "async-1")))
	submitted := decode[asyncResult](t, r.Data)
	if r.Failure() != nil || submitted.Status != "submitted" || !strings.HasPrefix(submitted.TaskID, "task_") || submitted.MediaBuyID != "" {
		t.Fatalf("asynchronous create_media_buy: %s (%v)", r.Data, r.Failure())
	}
	r = call("tasks/get", `{"task_id":"`+submitted.TaskID+`","include_result":true}`)
	done := decode[asyncResult](t, r.Data)
	if r.Failure() != nil || done.Status != "completed" || done.TaskType != "create_media_buy" || done.Result == nil || done.Result.MediaBuyID == "" {
		t.Errorf("tasks/get: %s (%v)", r.Data, r.Failure())
	}

	r = call("get_media_buys", `{}`)
	if r.Error == nil || r.Error.Code != "RATE_LIMITED" || r.Error.Recovery != registry.Transient ||
		r.Error.RetryAfter != 7*time.Second || r.Action != adcperr.ActionRetry {
		t.Errorf("canned error: %+v (%v)", r.Error, r.Failure())
	}
}

// a2aTask is the part of an A2A task the facts are about.
type a2aTask struct {
	Kind   string `json:"kind"`
	ID     string `json:"id"`
	Status struct {
		State string `json:"state"`
	} `json:"status"`
	Artifacts []struct {
		Name     string         `json:"name"`
		Metadata map[string]any `json:"metadata"`
		Parts    []struct {
			Kind string          `json:"kind"`
			Data json.RawMessage `json:"data"`
		} `json:"parts"`
	} `json:"artifacts"`
}

func TestSellerA2A(t *testing.T) {
	s := jsinterop.StartSeller(t, canned)

	card := getJSON(t, s.BaseURL+"/.well-known/agent-card.json", "")
	if _, ok := card["preferredTransport"]; ok {
		t.Errorf("the agent card has preferredTransport (the SDK sends none): %v", card)
	}
	if card["url"] != s.A2AURL {
		t.Errorf("card url %v, want %s", card["url"], s.A2AURL)
	}
	var skills []string
	for _, sk := range card["skills"].([]any) {
		skills = append(skills, sk.(map[string]any)["id"].(string))
	}
	if slices.Contains(skills, "get_adcp_capabilities") || !slices.Contains(skills, "tasks/get") {
		t.Errorf("card skills %v: the SDK lists every tool but get_adcp_capabilities", skills)
	}

	// a2aclient accepts the card although a2a-go alone refuses it.
	c, err := a2aclient.Dial(t.Context(), s.BaseURL, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	send := func(skill, argsKey, args string) (*extract.Result, a2aTask) {
		t.Helper()
		msg := &a2a.MessageSendParams{Message: a2a.NewMessage(a2a.MessageRoleUser,
			a2a.DataPart{Data: map[string]any{"skill": skill, argsKey: json.RawMessage(args)}})}
		resp, err := c.SendRaw(t.Context(), msg)
		if err != nil {
			t.Fatal(err)
		}
		if resp.Error != nil {
			t.Fatalf("%s: JSON-RPC error %s", skill, resp.Error)
		}
		return x.A2A(resp.Result), decode[a2aTask](t, resp.Result)
	}

	r, task := send("get_products", "input", getProducts)
	if r.Failure() != nil || task.Status.State != "completed" || !bytes.Contains(r.Data, []byte(`"prod_display_ron"`)) {
		t.Errorf("get_products: %s in state %s (%v)", r.Data, task.Status.State, r.Failure())
	}

	// The legacy DataPart key "parameters" (the SDK's own buyer sends it)
	// works as "input" does.
	r, task = send("create_media_buy", "parameters", string(createMediaBuy("k-a2a-async-0123456789", "async-2")))
	submitted := decode[asyncResult](t, r.Data)
	if r.Failure() != nil || submitted.Status != "submitted" || submitted.TaskID == "" {
		t.Fatalf("asynchronous create_media_buy: %s (%v)", r.Data, r.Failure())
	}
	// A submitted answer is a completed A2A task (the call is done, the work
	// is not), with the AdCP task id in the artifact's metadata as well as
	// in the payload.
	if task.Status.State != "completed" || task.Artifacts[0].Name != "submitted" ||
		task.Artifacts[0].Metadata["adcp_task_id"] != submitted.TaskID {
		t.Errorf("submitted task: state %s, artifact %q, metadata %v, payload task_id %s",
			task.Status.State, task.Artifacts[0].Name, task.Artifacts[0].Metadata, submitted.TaskID)
	}
	r, _ = send("tasks/get", "input", `{"task_id":"`+submitted.TaskID+`","include_result":true}`)
	if done := decode[asyncResult](t, r.Data); r.Failure() != nil || done.Status != "completed" || done.Result == nil || done.Result.MediaBuyID == "" {
		t.Errorf("tasks/get skill: %s (%v)", r.Data, r.Failure())
	}

	// An AdCP error is a failed task whose artifact holds the adcp_error in
	// a DataPart; no JSON-RPC error.
	r, task = send("get_media_buys", "input", `{}`)
	if task.Status.State != "failed" || task.Artifacts[0].Name != "error" || !bytes.HasPrefix(task.Artifacts[0].Parts[0].Data, []byte(`{"adcp_error":`)) {
		t.Errorf("error task: state %s, artifacts %+v", task.Status.State, task.Artifacts)
	}
	if r.Error == nil || r.Error.Code != "RATE_LIMITED" || r.Error.RetryAfter != 7*time.Second || r.Action != adcperr.ActionRetry {
		t.Errorf("canned error: %+v (%v)", r.Error, r.Failure())
	}
}

func TestSellerAuth(t *testing.T) {
	const key = "sk_jsinterop_test_key"
	s := jsinterop.StartSeller(t, jsinterop.SellerOptions{APIKey: key})
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_products","arguments":` + getProducts + `}}`
	send := `{"jsonrpc":"2.0","id":1,"method":"message/send","params":{"message":{"kind":"message","messageId":"m1","role":"user",` +
		`"parts":[{"kind":"data","data":{"skill":"get_products","input":` + getProducts + `}}]}}}`
	for _, tc := range []struct {
		name, url, body, auth string
		status                int
		want                  string // in the body
		challenge             bool   // WWW-Authenticate expected
	}{
		{"mcp without key", s.MCPURL, call, "", 401, `"invalid_token"`, true},
		{"mcp wrong key", s.MCPURL, call, "wrong", 401, `"invalid_token"`, true},
		{"mcp", s.MCPURL, call, key, 200, `prod_display_ron`, false},
		// The A2A adapter has no 401: a refused buyer gets a generic
		// JSON-RPC internal error with HTTP 500.
		{"a2a without key", s.A2AURL, send, "", 500, `"code":-32603`, false},
		{"a2a wrong key", s.A2AURL, send, "wrong", 500, `"code":-32603`, false},
		{"a2a", s.A2AURL, send, key, 200, `prod_display_ron`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, tc.url, strings.NewReader(tc.body))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tc.auth != "" {
				req.Header.Set("Authorization", "Bearer "+tc.auth)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			challenge := resp.Header.Get("WWW-Authenticate")
			if resp.StatusCode != tc.status || !strings.Contains(string(body), tc.want) ||
				(tc.challenge != strings.HasPrefix(challenge, "Bearer ")) {
				t.Errorf("HTTP %d, WWW-Authenticate %q, body %s", resp.StatusCode, challenge, body)
			}
		})
	}
	// The agent card stays public.
	getJSON(t, s.BaseURL+"/.well-known/agent-card.json", "")
}

func getJSON(t *testing.T, url, auth string) map[string]any {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, url, nil)
	if auth != "" {
		req.Header.Set("Authorization", "Bearer "+auth)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: HTTP %d %s", url, resp.StatusCode, body)
	}
	return decode[map[string]any](t, body)
}

// TestSellerOptions checks the options a test relies on: its own products
// (checked against the 3.0.6 response schema, as every answer is), and an
// async task that stays pending until AsyncDelay has passed (the
// status tool says "submitted" meanwhile).
func TestSellerOptions(t *testing.T) {
	products := `[{"product_id":"prod_custom","name":"Custom","description":"d","delivery_type":"non_guaranteed",` +
		`"format_ids":[{"id":"f","agent_url":"https://creative.example.com/mcp"}],` +
		`"publisher_properties":[{"publisher_domain":"publisher.example.com","selection_type":"all"}],` +
		`"pricing_options":[{"pricing_option_id":"cpm","pricing_model":"cpm","fixed_price":5,"currency":"USD"}],` +
		`"reporting_capabilities":{"available_reporting_frequencies":["daily"],"expected_delay_minutes":60,"timezone":"UTC",` +
		`"supports_webhooks":false,"available_metrics":["impressions"],"date_range_support":"date_range"}}]`
	s := jsinterop.StartSeller(t, jsinterop.SellerOptions{Products: json.RawMessage(products), AsyncDelay: 1500 * time.Millisecond})
	_, call := mcpCaller(t, s.MCPURL)
	if r := call("get_products", getProducts); !bytes.Contains(r.Data, []byte(`"prod_custom"`)) || bytes.Contains(r.Data, []byte(`"prod_display_ron"`)) {
		t.Errorf("get_products: %s (%v)", r.Data, r.Failure())
	}
	submitted := decode[asyncResult](t, call("create_media_buy", string(createMediaBuy("k-options-0123456789", "async-3"))).Data)
	poll := func() asyncResult {
		return decode[asyncResult](t, call("tasks/get", `{"task_id":"`+submitted.TaskID+`"}`).Data)
	}
	if p := poll(); p.Status != "submitted" || p.Result != nil {
		t.Errorf("task before AsyncDelay: %+v", p)
	}
	deadline := time.Now().Add(10 * time.Second)
	for p := poll(); p.Status != "completed"; p = poll() {
		if time.Now().After(deadline) {
			t.Fatalf("task never completed: %+v", p)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
