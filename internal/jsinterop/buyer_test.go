package jsinterop_test

// These tests drive the JavaScript SDK's buyer (buyer.mjs) against sellers
// on the Go SDKs' servers (internal/testseller), behind a proxy that
// records what the buyer sends, and pin the facts doc.go lists about it.

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/adcpgen/adcpgen/internal/jsinterop"
	"github.com/adcpgen/adcpgen/internal/testseller"
)

// recorder is a reverse proxy in front of a seller that keeps every
// request body. Agent cards passing through point at the proxy. With
// dataFirst, it drops the TextParts testseller puts before an A2A
// artifact's DataPart, leaving the DataPart first, as the SDK's buyer
// needs (see TestBuyerA2A).
type recorder struct {
	*httptest.Server
	mu     sync.Mutex
	bodies [][]byte
}

func newRecorder(t *testing.T, target string, dataFirst bool) *recorder {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	proxy := httputil.NewSingleHostReverseProxy(u)
	proxy.FlushInterval = -1 // server-sent events pass through as they come
	proxy.ModifyResponse = func(resp *http.Response) error {
		card := strings.HasSuffix(resp.Request.URL.Path, "/agent-card.json")
		a2aResult := dataFirst && resp.Request.URL.Path == "/a2a"
		if (!card && !a2aResult) || resp.StatusCode != 200 {
			return nil
		}
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			return err
		}
		if card {
			body = bytes.ReplaceAll(body, []byte(target), []byte(r.URL))
		} else if body, err = dropTextParts(body); err != nil {
			return err
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		resp.ContentLength = int64(len(body))
		resp.Header.Set("Content-Length", strconv.Itoa(len(body)))
		return nil
	}
	// Started only once r.Server is set: its handler reads r.URL.
	r.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.bodies = append(r.bodies, body)
		r.mu.Unlock()
		req.Body = io.NopCloser(bytes.NewReader(body))
		proxy.ServeHTTP(w, req)
	}))
	r.Start()
	t.Cleanup(r.Close)
	return r
}

// dropTextParts removes the TextParts of a JSON-RPC response's task's
// artifacts.
func dropTextParts(body []byte) ([]byte, error) {
	var resp map[string]any
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, err
	}
	task, _ := resp["result"].(map[string]any)
	artifacts, _ := task["artifacts"].([]any)
	for _, a := range artifacts {
		artifact := a.(map[string]any)
		parts, _ := artifact["parts"].([]any)
		artifact["parts"] = slices.DeleteFunc(parts, func(p any) bool { return p.(map[string]any)["kind"] == "text" })
	}
	return json.Marshal(resp)
}

// mcpCalls returns the arguments of every tools/call of tool.
func (r *recorder) mcpCalls(tool string) []map[string]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []map[string]any
	for _, b := range r.bodies {
		var req struct {
			Method string `json:"method"`
			Params struct {
				Name      string         `json:"name"`
				Arguments map[string]any `json:"arguments"`
			} `json:"params"`
		}
		if json.Unmarshal(b, &req) == nil && req.Method == "tools/call" && req.Params.Name == tool {
			out = append(out, req.Params.Arguments)
		}
	}
	return out
}

// a2aCalls returns the DataPart of every message/send invoking skill.
func (r *recorder) a2aCalls(skill string) []map[string]any {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []map[string]any
	for _, b := range r.bodies {
		var req struct {
			Method string `json:"method"`
			Params struct {
				Message struct {
					Parts []struct {
						Kind string         `json:"kind"`
						Data map[string]any `json:"data"`
					} `json:"parts"`
				} `json:"message"`
			} `json:"params"`
		}
		if json.Unmarshal(b, &req) != nil || req.Method != "message/send" {
			continue
		}
		for _, p := range req.Params.Message.Parts {
			if p.Kind == "data" && p.Data["skill"] == skill {
				out = append(out, p.Data)
			}
		}
	}
	return out
}

func raw(s string) json.RawMessage { return json.RawMessage(s) }

const (
	capabilities = `{"adcp":{"major_versions":[3],"idempotency":{"supported":true,"replay_ttl_seconds":3600}},"supported_protocols":["media_buy"]}`
	products     = `[{"product_id":"p1","name":"P1","description":"d","delivery_type":"non_guaranteed",` +
		`"format_ids":[{"id":"f","agent_url":"https://creative.example.com/mcp"}],` +
		`"publisher_properties":[{"publisher_domain":"publisher.example.com","selection_type":"all"}],` +
		`"pricing_options":[{"pricing_option_id":"cpm","pricing_model":"cpm","fixed_price":5,"currency":"USD"}]}]`
	taskDone = `{"task_id":"%s","task_type":"create_media_buy","status":"completed","protocol":"media-buy",` +
		`"created_at":"2027-01-01T00:00:00Z","updated_at":"2027-01-01T00:00:01Z",` +
		`"result":{"media_buy_id":"mb_go_1","status":"active","packages":[]}}`
)

func completed(taskID string) string { return strings.Replace(taskDone, "%s", taskID, 1) }

// checkAsync checks that the buyer followed a submitted create_media_buy
// with taskID to the completed task's result.
func checkAsync(t *testing.T, s *jsinterop.BuyerSummary, taskID string) {
	t.Helper()
	step := s.Find("create_media_buy")
	if step == nil || step.Status != "submitted" || step.TaskID != taskID || step.Completed == nil ||
		step.Completed.Status != "completed" || !bytes.Contains(step.Completed.Data, []byte(`"mb_go_1"`)) {
		t.Errorf("create_media_buy: %+v, completed %+v", step, step.Completed)
	}
}

// checkPolls checks the status tool's arguments.
func checkPolls(t *testing.T, polls []map[string]any, want map[string]any) {
	t.Helper()
	if len(polls) == 0 || !reflect.DeepEqual(polls[0], want) {
		t.Errorf("tasks/get calls %v, want arguments %v", polls, want)
	}
}

func TestBuyerMCP(t *testing.T) {
	seller := testseller.NewMCPSeller(map[string]testseller.MCPReply{
		"get_adcp_capabilities": {StructuredContent: raw(capabilities), Text: "capabilities"},
		"get_products":          {StructuredContent: raw(`{"products":` + products + `}`), Text: "1 product"},
		"create_media_buy":      {StructuredContent: raw(`{"status":"submitted","task_id":"task_go_1"}`), Text: "submitted"},
		"tasks/get":             {StructuredContent: raw(completed("task_go_1")), Text: "completed"},
	}, testseller.MCPOptions{})
	defer seller.Close()
	rec := newRecorder(t, seller.URL, false)

	s := jsinterop.Buy(t, jsinterop.BuyerOptions{Agent: rec.URL, Protocol: "mcp"})
	if s.Error != "" {
		t.Fatalf("buyer.mjs: %s", s.Error)
	}
	if p := s.Find("get_products"); p == nil || !p.Success || !bytes.Contains(p.Data, []byte(`"p1"`)) {
		t.Errorf("get_products: %+v", p)
	}
	checkAsync(t, s, "task_go_1")
	// Over MCP the buyer adds adcp_major_version to its v3 requests.
	checkPolls(t, rec.mcpCalls("tasks/get"), map[string]any{"task_id": "task_go_1", "include_result": true, "adcp_major_version": 3.0})
	// The SDK adds an idempotency key to a mutating call.
	if c := rec.mcpCalls("create_media_buy"); len(c) != 1 || c[0]["idempotency_key"] == nil {
		t.Errorf("create_media_buy calls: %v", c)
	}
}

func TestBuyerA2A(t *testing.T) {
	replies := map[string]testseller.A2AReply{
		"get_products": {Data: map[string]json.RawMessage{"products": raw(products)}},
		// The payload and the artifact's metadata name different tasks, so
		// the test sees which one the buyer polls.
		"create_media_buy": {
			Data:             map[string]json.RawMessage{"status": raw(`"submitted"`), "task_id": raw(`"task_in_payload"`)},
			ArtifactMetadata: map[string]any{"adcp_task_id": "task_in_metadata"},
		},
		"tasks/get": {Data: dataOf(t, completed("task_in_metadata"))},
	}
	for _, tc := range []struct {
		name string
		// capabilitiesSkill lists get_adcp_capabilities in the card.
		capabilitiesSkill bool
		// textFirst leaves testseller's TextPart before the DataPart.
		textFirst bool
		version   string // the buyer's reading
	}{
		{"v3 card", true, false, "v3"},
		// Without the skill the buyer takes the agent for AdCP 2 and
		// rewrites requests for it.
		{"card without get_adcp_capabilities", false, false, "v2"},
		// The buyer reads the AdCP status at artifacts[0].parts[0].data
		// only: behind a TextPart, the submitted answer looks completed.
		{"text part first", true, true, "v3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := map[string]testseller.A2AReply{}
			for k, v := range replies {
				r[k] = v
			}
			if tc.capabilitiesSkill {
				r["get_adcp_capabilities"] = testseller.A2AReply{Data: dataOf(t, capabilities)}
			}
			seller := testseller.NewA2ASeller(r, testseller.A2AOptions{})
			defer seller.Close()
			rec := newRecorder(t, seller.URL, !tc.textFirst)

			s := jsinterop.Buy(t, jsinterop.BuyerOptions{Agent: rec.URL, Protocol: "a2a"})
			if s.Error != "" {
				t.Fatalf("buyer.mjs: %s", s.Error)
			}
			var caps struct{ Version string }
			if c := s.Find("capabilities"); c == nil || json.Unmarshal(c.Data, &caps) != nil || caps.Version != tc.version {
				t.Errorf("capabilities: %+v, want version %s", c, tc.version)
			}
			var polls []map[string]any
			for _, part := range rec.a2aCalls("tasks/get") {
				polls = append(polls, part["parameters"].(map[string]any))
			}
			if tc.textFirst {
				if c := s.Find("create_media_buy"); c == nil || c.Status != "completed" || c.Completed != nil || len(polls) != 0 {
					t.Errorf("create_media_buy: %+v, polls %v", c, polls)
				}
			} else {
				// The task id comes from the artifact's metadata, not the payload.
				checkAsync(t, s, "task_in_metadata")
				want := map[string]any{"task_id": "task_in_metadata", "include_result": true}
				if tc.version == "v3" {
					want["adcp_major_version"] = 3.0 // the buyer adds it to v3 requests
				}
				checkPolls(t, polls, want)
			}

			creates := rec.a2aCalls("create_media_buy")
			if len(creates) != 1 {
				t.Fatalf("create_media_buy calls: %v", creates)
			}
			var keys []string
			for k := range creates[0] {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			if !slices.Equal(keys, []string{"parameters", "skill"}) {
				t.Errorf("DataPart keys %v, want [parameters skill]", keys)
			}
			params := creates[0]["parameters"].(map[string]any)
			_, account := params["account"]
			_, manifest := params["brand_manifest"]
			_, major := params["adcp_major_version"]
			if v3 := tc.version == "v3"; account != v3 || manifest == v3 || major != v3 {
				t.Errorf("%s request: account sent %v, brand_manifest sent %v, adcp_major_version sent %v: %v",
					tc.version, account, manifest, major, params)
			}
		})
	}
}

// dataOf splits a JSON object into the DataPart members testseller sends.
func dataOf(t *testing.T, obj string) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(obj), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestBuyerAgainstSeller runs the SDK's buyer against the SDK's seller:
// over A2A it works only when the card lists get_adcp_capabilities.
func TestBuyerAgainstSeller(t *testing.T) {
	for _, tc := range []struct {
		name              string
		protocol          string
		capabilitiesSkill bool
		ok                bool
	}{
		{"mcp", "mcp", false, true},
		{"a2a", "a2a", false, false},
		{"a2a with the capabilities skill", "a2a", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seller := jsinterop.StartSeller(t, jsinterop.SellerOptions{CardCapabilitiesSkill: tc.capabilitiesSkill})
			agent := seller.MCPURL
			if tc.protocol == "a2a" {
				agent = seller.A2AURL
			}
			s := jsinterop.Buy(t, jsinterop.BuyerOptions{Agent: agent, Protocol: tc.protocol})
			if s.Error != "" {
				t.Fatalf("buyer.mjs: %s", s.Error)
			}
			p := s.Find("get_products")
			if p == nil || p.Success != tc.ok {
				t.Fatalf("get_products: %+v", p)
			}
			if !tc.ok {
				// The buyer stripped buying_mode, which 3.0 requires.
				if !bytes.Contains(p.Data, []byte(`must have required property 'buying_mode'`)) {
					t.Errorf("get_products failed otherwise: %s", p.Data)
				}
				return
			}
			c := s.Find("create_media_buy")
			if c == nil || c.Status != "submitted" || c.Completed == nil || c.Completed.Status != "completed" ||
				!bytes.Contains(c.Completed.Data, []byte(`"media_buy_id"`)) {
				t.Errorf("create_media_buy: %+v", c)
			}
		})
	}
}

// TestBuyerA2AErrors: the buyer reads an A2A answer's DataPart only when the
// task completed. An AdCP error in a failed task (as the A2A extraction rules
// and the SDK's own seller send it) reaches the caller as "Task failed",
// code unread; the same adcp_error in a completed task is read.
func TestBuyerA2AErrors(t *testing.T) {
	for _, tc := range []struct {
		state    a2a.TaskState
		success  bool
		errorHas string // in the step's error
		code     string // the adcp_error code the buyer read; "" none
	}{
		{a2a.TaskStateFailed, false, "Task failed", ""},
		{a2a.TaskStateCompleted, false, "slow down", "RATE_LIMITED"},
	} {
		t.Run(string(tc.state), func(t *testing.T) {
			seller := testseller.NewA2ASeller(map[string]testseller.A2AReply{
				"get_adcp_capabilities": {Data: dataOf(t, capabilities)},
				"get_products": {State: tc.state, Data: map[string]json.RawMessage{
					"adcp_error": raw(`{"code":"RATE_LIMITED","message":"slow down","recovery":"transient","retry_after":7}`),
				}},
			}, testseller.A2AOptions{})
			defer seller.Close()
			rec := newRecorder(t, seller.URL, true)
			s := jsinterop.Buy(t, jsinterop.BuyerOptions{Agent: rec.URL, Protocol: "a2a", Steps: []string{"get_products"}})
			p := s.Find("get_products")
			var adcpErr struct{ Code string }
			if p != nil && p.AdcpError != nil {
				json.Unmarshal(p.AdcpError, &adcpErr)
			}
			if p == nil || p.Success != tc.success || !strings.Contains(p.Error, tc.errorHas) || adcpErr.Code != tc.code {
				t.Errorf("get_products: %+v (adcp_error %s)", p, p.AdcpError)
			}
		})
	}
}
