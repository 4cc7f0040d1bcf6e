package main

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/adcpgen/adcpgen/internal/testseller"
)

// The call tests run real sellers on loopback (internal/testseller: go-sdk's
// MCP server over streamable HTTP, a2a-go's server over JSON-RPC) and the
// command in-process, with the buyer tests' schema tree as --spec
// (internal/buyertest/testdata/schemas: get_things, create_thing with
// interim payloads and a required idempotency key, get_task_status).

var callSpecDir = filepath.Join("..", "..", "internal", "buyertest", "testdata", "schemas")

// sellerAnswer is what a seller says to one call, in transport-neutral
// terms.
type sellerAnswer struct {
	// payload is the AdCP payload: MCP structuredContent, an A2A DataPart
	// (the artifact's for a final state, the status message's for an
	// interim one).
	payload string
	// state is the A2A task state ("" means completed); MCP says its
	// status in the payload.
	state a2a.TaskState
	// adcpErr is an adcp_error: an MCP tool error, a failed A2A task.
	adcpErr string
	hang    bool
}

// sellerCall is one call a seller received.
type sellerCall struct {
	Tool string
	Args json.RawMessage
}

// callSeller is a seller on loopback and the --agent and --transport that
// reach it.
type callSeller struct {
	args    []string
	calls   func() []sellerCall
	headers func() []http.Header
}

// startSeller starts a seller over transport ("mcp" or "a2a") answering
// each tool with its answers in turn, the last one repeating.
func startSeller(t *testing.T, transport string, byTool map[string][]sellerAnswer) *callSeller {
	t.Helper()
	var mu sync.Mutex
	n := map[string]int{}
	next := func(tool string) sellerAnswer {
		mu.Lock()
		defer mu.Unlock()
		n[tool]++
		seq := byTool[tool]
		return seq[min(n[tool], len(seq))-1]
	}
	if transport == "mcp" {
		canned := map[string]testseller.MCPReply{}
		for tool := range byTool {
			canned[tool] = testseller.MCPReply{}
		}
		s := testseller.NewMCPSeller(canned, testseller.MCPOptions{Script: func(c testseller.MCPCall) testseller.MCPReply {
			a := next(c.Tool)
			switch {
			case a.hang:
				return testseller.MCPReply{Hang: true}
			case a.adcpErr != "":
				return testseller.MCPReply{StructuredContent: json.RawMessage(`{"adcp_error":` + a.adcpErr + `}`), Text: "error", IsError: true}
			}
			return testseller.MCPReply{StructuredContent: json.RawMessage(a.payload), Text: "done"}
		}})
		t.Cleanup(s.Close)
		return &callSeller{args: []string{"--agent", s.URL, "--transport", "mcp"}, headers: s.Headers, calls: func() []sellerCall {
			var out []sellerCall
			for _, c := range s.Calls() {
				out = append(out, sellerCall{c.Tool, c.Args})
			}
			return out
		}}
	}
	canned := map[string]testseller.A2AReply{}
	for tool := range byTool {
		canned[tool] = testseller.A2AReply{}
	}
	s := testseller.NewA2ASeller(canned, testseller.A2AOptions{Script: func(c testseller.A2ACall) testseller.A2AReply {
		a := next(c.Skill)
		switch {
		case a.hang:
			return testseller.A2AReply{Hang: true}
		case a.adcpErr != "":
			return testseller.A2AReply{State: a2a.TaskStateFailed, Data: map[string]json.RawMessage{"adcp_error": json.RawMessage(a.adcpErr)}}
		}
		var members map[string]json.RawMessage
		if err := json.Unmarshal([]byte(a.payload), &members); err != nil {
			panic(err)
		}
		state := a.state
		if state == "" {
			state = a2a.TaskStateCompleted
		}
		if state.Terminal() {
			return testseller.A2AReply{State: state, Data: members}
		}
		return testseller.A2AReply{State: state, StatusData: members, StatusText: "in progress"}
	}})
	t.Cleanup(s.Close)
	return &callSeller{args: []string{"--agent", s.URL, "--transport", "a2a"}, headers: s.Headers, calls: func() []sellerCall {
		var out []sellerCall
		for _, c := range s.Calls() {
			out = append(out, sellerCall{c.Skill, c.Input})
		}
		return out
	}}
}

type callRun struct {
	code           int
	stdout, stderr string
}

func runCallCmd(t *testing.T, stdin string, args ...string) callRun {
	t.Helper()
	var out, errb bytes.Buffer
	e := &env{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
	code := run(e, append([]string{"call"}, args...))
	return callRun{code, out.String(), errb.String()}
}

// outputOf parses the command's stdout into its members.
func outputOf(t *testing.T, r callRun) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(r.stdout), &m); err != nil {
		t.Fatalf("stdout is not one JSON object (%v):\n%s\nstderr: %s", err, r.stdout, r.stderr)
	}
	return m
}

func member(t *testing.T, m map[string]json.RawMessage, key string) any {
	t.Helper()
	raw, ok := m[key]
	if !ok {
		t.Fatalf("no %q in the output %v", key, m)
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

const (
	thingsOK     = `{"things":[{"thing_id":"t-1","name":"first","size":3}]}`
	rateLimited  = `{"code":"RATE_LIMITED","message":"slow down","recovery":"transient","retry_after":29.2}`
	noRecovery   = `{"code":"INVALID_REQUEST","message":"fix it"}`
	thingCreated = `{"task_id":"task-7","status":"completed","result":{"thing":{"thing_id":"t-7","name":"made"}}}`
)

func TestCallOutcomes(t *testing.T) {
	for _, transport := range []string{"mcp", "a2a"} {
		t.Run(transport, func(t *testing.T) {
			seller := startSeller(t, transport, map[string][]sellerAnswer{
				"get_things":   {{payload: thingsOK}},
				"create_thing": {{payload: `{"status":"submitted","task_id":"task-7"}`, state: a2a.TaskStateSubmitted}},
				"delete_thing": {{adcpErr: rateLimited}},
				"lock_thing":   {{adcpErr: noRecovery}},
			})
			base := append([]string{"--spec", callSpecDir}, seller.args...)

			// Success: the decoded answer, the data as sent.
			r := runCallCmd(t, `{"filter":"all"}`, append(base, "--tool", "get_things", "--request", "-")...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			m := outputOf(t, r)
			if member(t, m, "status") != "completed" || member(t, m, "tool") != "get_things" || member(t, m, "task_id") != nil {
				t.Errorf("output %s", r.stdout)
			}
			var data any
			json.Unmarshal(m["data"], &data)
			var want any
			json.Unmarshal([]byte(thingsOK), &want)
			if !reflect.DeepEqual(data, want) {
				t.Errorf("data %s, want %s", m["data"], thingsOK)
			}
			if _, ok := m["validation"]; ok {
				t.Error("validation without --validate")
			}

			// A submitted answer: status and task id, exit 0; the tool
			// requires an idempotency key, which is added and printed.
			r = runCallCmd(t, `{"name":"made"}`, append(base, "--tool", "create_thing", "--request", "-")...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			m = outputOf(t, r)
			key, _ := member(t, m, "idempotency_key").(string)
			if member(t, m, "status") != "submitted" || member(t, m, "task_id") != "task-7" || len(key) != 36 {
				t.Errorf("output %s", r.stdout)
			}
			calls := seller.calls()
			sent := calls[len(calls)-1]
			if sent.Tool != "create_thing" || !strings.Contains(string(sent.Args), `"idempotency_key":"`+key+`"`) {
				t.Errorf("seller got %s %s, want the key %s", sent.Tool, sent.Args, key)
			}

			// An AdCP error: the error, its recovery and action, exit 1.
			r = runCallCmd(t, "", append(base, "--tool", "delete_thing")...)
			if r.code != 1 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			m = outputOf(t, r)
			if member(t, m, "code") != "RATE_LIMITED" || member(t, m, "recovery") != "transient" || member(t, m, "action") != "retry" ||
				member(t, m, "retry_after") != 30.0 {
				t.Errorf("output %s", r.stdout)
			}
			if e, _ := member(t, m, "error").(map[string]any); e["message"] != "slow down" {
				t.Errorf("error %v", e)
			}
			if !strings.Contains(r.stderr, "RATE_LIMITED") {
				t.Errorf("stderr %q", r.stderr)
			}
			// Sent without recovery: classified by the spec's code table.
			r = runCallCmd(t, "", append(base, "--tool", "lock_thing")...)
			m = outputOf(t, r)
			if r.code != 1 || member(t, m, "recovery") != "correctable" || member(t, m, "action") != "surface_to_caller" || member(t, m, "retry_after") != nil {
				t.Errorf("exit %d, output %s", r.code, r.stdout)
			}
			// One attempt only: the transient error was not retried.
			n := 0
			for _, c := range seller.calls() {
				if c.Tool == "delete_thing" {
					n++
				}
			}
			if n != 1 {
				t.Errorf("delete_thing called %d times, want 1", n)
			}
		})
	}
}

// Seller bytes the strict checks refuse: exit 1, the JSON pointer named.
func TestCallRefusesHostilePayloads(t *testing.T) {
	cases := []struct {
		transport, payload, pointer string
	}{
		{"mcp", `{"things":[{"thing_id":"a","thing_id":"b","name":"n"}]}`, `/things/0/thing_id`},
		{"mcp", `{"things":[{"thing_id":"a","name":"n","\u005f_proto__":{"polluted":true}}]}`, `/things/0`},
		{"a2a", `{"things":[{"thing_id":"a","thing_id":"b","name":"n"}]}`, `/things/0/thing_id`},
		{"a2a", `{"things":[{"thing_id":"a","name":"n","\u005f_proto__":{"polluted":true}}]}`, `/things/0`},
	}
	for _, c := range cases {
		t.Run(c.transport, func(t *testing.T) {
			seller := startSeller(t, c.transport, map[string][]sellerAnswer{"get_things": {{payload: c.payload}}})
			r := runCallCmd(t, "", append([]string{"--spec", callSpecDir, "--tool", "get_things"}, seller.args...)...)
			if r.code != 1 {
				t.Fatalf("exit %d, stdout %s, stderr %s", r.code, r.stdout, r.stderr)
			}
			if r.stdout != "" || !strings.Contains(r.stderr, c.pointer) {
				t.Errorf("stdout %q, stderr %q: want the pointer %s", r.stdout, r.stderr, c.pointer)
			}
			if strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
				t.Errorf("stderr is not one line: %q", r.stderr)
			}
		})
	}
}

func TestCallValidate(t *testing.T) {
	for _, transport := range []string{"mcp", "a2a"} {
		t.Run(transport, func(t *testing.T) {
			seller := startSeller(t, transport, map[string][]sellerAnswer{
				"get_things": {
					{payload: `{"things":[{"thing_id":5,"name":"n","size":1.5}]}`}, // strict JSON, but not what the schema says
					{payload: thingsOK},
				},
				"create_thing": {{payload: `{"status":"submitted","task_id":"task-7"}`, state: a2a.TaskStateSubmitted}},
				"delete_thing": {{adcpErr: rateLimited}},
			})
			base := append([]string{"--spec", callSpecDir, "--validate"}, seller.args...)
			r := runCallCmd(t, "", append(base, "--tool", "get_things")...)
			if r.code != 1 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			var out struct {
				Status     string
				Validation struct {
					Schema *string
					Issues []struct{ Pointer, Keyword, Message string }
				}
			}
			if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, is := range out.Validation.Issues {
				got = append(got, is.Pointer+" "+is.Keyword)
			}
			if want := []string{"/things/0/size type", "/things/0/thing_id type"}; out.Status != "completed" ||
				out.Validation.Schema == nil || *out.Validation.Schema != "media-buy/get-things-response.json" || !reflect.DeepEqual(got, want) {
				t.Errorf("status %s, schema %v, issues %q, want %q", out.Status, out.Validation.Schema, got, want)
			}

			// A valid payload: the schema and no issues, exit 0.
			r = runCallCmd(t, "", append(base, "--tool", "get_things")...)
			if r.code != 0 || !strings.Contains(r.stdout, `"schema": "media-buy/get-things-response.json",`) || !strings.Contains(r.stdout, `"issues": []`) {
				t.Errorf("exit %d, stdout %s, stderr %s", r.code, r.stdout, r.stderr)
			}

			// An interim answer is checked against the tool's async schema
			// for its status.
			r = runCallCmd(t, `{"name":"made"}`, append(base, "--tool", "create_thing", "--request", "-")...)
			if r.code != 0 || !strings.Contains(r.stdout, `"schema": "media-buy/create-thing-async-response-submitted.json"`) {
				t.Errorf("exit %d, stdout %s, stderr %s", r.code, r.stdout, r.stderr)
			}

			// An AdCP error: the tree has no core/error.json, which is said.
			r = runCallCmd(t, "", append(base, "--tool", "delete_thing")...)
			if r.code != 1 || !strings.Contains(r.stdout, `"schema": null`) || !strings.Contains(r.stderr, "core/error.json") {
				t.Errorf("exit %d, stdout %s, stderr %s", r.code, r.stdout, r.stderr)
			}
		})
	}
}

// --wait follows submitted through the status tool to completion,
// reporting progress on stderr; stdout holds the final answer only.
func TestCallWait(t *testing.T) {
	for _, transport := range []string{"mcp", "a2a"} {
		t.Run(transport, func(t *testing.T) {
			seller := startSeller(t, transport, map[string][]sellerAnswer{
				"create_thing": {{payload: `{"status":"submitted","task_id":"task-7","message":"queued"}`, state: a2a.TaskStateSubmitted}},
				"get_task_status": {
					{payload: `{"task_id":"task-7","status":"working","message":"half\u001b[31m way"}`},
					{payload: thingCreated},
				},
			})
			r := runCallCmd(t, `{"name":"made"}`, append([]string{"--spec", callSpecDir, "--tool", "create_thing", "--request", "-",
				"--wait", "--validate", "--poll-interval", "5ms"}, seller.args...)...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			m := outputOf(t, r)
			if member(t, m, "status") != "completed" || member(t, m, "task_id") != "task-7" ||
				!strings.Contains(string(m["data"]), `"thing_id": "t-7"`) || member(t, m, "idempotency_key") == nil {
				t.Errorf("output %s", r.stdout)
			}
			if !strings.Contains(r.stdout, `"schema": "media-buy/create-thing-response.json"`) || !strings.Contains(r.stdout, `"issues": []`) {
				t.Errorf("validation of the result: %s", r.stdout)
			}
			want := "adcpgen call: create_thing: task task-7 submitted: queued; waiting\n" +
				"adcpgen call: create_thing: task task-7 working (poll 1): half[31m way\n"
			if r.stderr != want {
				t.Errorf("stderr:\n%s\nwant:\n%s", r.stderr, want)
			}
			var polls int
			for _, c := range seller.calls() {
				if c.Tool == "get_task_status" {
					polls++
					if !strings.Contains(string(c.Args), `"task_id":"task-7"`) {
						t.Errorf("poll %s", c.Args)
					}
				}
			}
			if polls != 2 {
				t.Errorf("%d polls, want 2", polls)
			}
		})
	}
}

// Headers go with every request (the MCP session's, the agent card's, the
// A2A call's).
func TestCallHeaders(t *testing.T) {
	for _, transport := range []string{"mcp", "a2a"} {
		t.Run(transport, func(t *testing.T) {
			seller := startSeller(t, transport, map[string][]sellerAnswer{"get_things": {{payload: thingsOK}}})
			r := runCallCmd(t, "", append([]string{"--spec", callSpecDir, "--tool", "get_things",
				"--header", "Authorization=Bearer sekrit", "--header", "x-tenant= acme "}, seller.args...)...)
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			hs := seller.headers()
			if len(hs) == 0 {
				t.Fatal("the seller saw no requests")
			}
			for i, h := range hs {
				if h.Get("Authorization") != "Bearer sekrit" || h.Get("X-Tenant") != "acme" {
					t.Errorf("request %d: headers %v", i, h)
				}
			}
		})
	}
}

// Transport failures exit 2: nothing listening, an HTTP error without a
// JSON-RPC answer, a seller that never answers within --timeout.
func TestCallTransportFailures(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	unauthorized := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no key", http.StatusUnauthorized)
	}))
	defer unauthorized.Close()
	hangMCP := startSeller(t, "mcp", map[string][]sellerAnswer{"get_things": {{hang: true}}})
	hangA2A := startSeller(t, "a2a", map[string][]sellerAnswer{"get_things": {{hang: true}}})
	cases := []struct {
		name   string
		args   []string
		stderr string
	}{
		{"mcp refused", []string{"--agent", closed.URL, "--transport", "mcp"}, "connecting to"},
		{"a2a refused", []string{"--agent", closed.URL, "--transport", "a2a"}, "connecting to"},
		{"mcp 401", []string{"--agent", unauthorized.URL, "--transport", "mcp"}, "connecting to"},
		{"a2a 401", []string{"--agent", unauthorized.URL, "--transport", "a2a"}, "401"},
		{"mcp hangs", append([]string{"--timeout", "300ms"}, hangMCP.args...), "deadline exceeded"},
		{"a2a hangs", append([]string{"--timeout", "300ms"}, hangA2A.args...), "deadline exceeded"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runCallCmd(t, "", append([]string{"--spec", callSpecDir, "--tool", "get_things"}, c.args...)...)
			if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, c.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q (want %q)", r.code, r.stdout, r.stderr, c.stderr)
			}
		})
	}
}

func TestCallUsage(t *testing.T) {
	dir := t.TempDir()
	dup := filepath.Join(dir, "dup.json")
	writeFile(t, dup, `{"name":"a","name":"b"}`)
	seller := startSeller(t, "mcp", map[string][]sellerAnswer{"get_things": {{payload: thingsOK}}})
	agent := seller.args[1]
	ok := []string{"--agent", agent, "--spec", callSpecDir, "--tool", "get_things"}
	cases := []struct {
		name   string
		args   []string
		stdin  string
		stderr string
	}{
		{"no agent", []string{"--spec", callSpecDir, "--tool", "get_things"}, "", "missing --agent URL"},
		{"no spec", []string{"--agent", agent, "--tool", "get_things"}, "", "missing --spec VERSION"},
		{"no tool", []string{"--agent", agent, "--spec", callSpecDir}, "", "missing --tool NAME"},
		{"bad transport", append(ok, "--transport", "grpc"), "", `unknown --transport "grpc"`},
		{"agent not a URL", []string{"--agent", "seller.example", "--spec", callSpecDir, "--tool", "get_things"}, "", "not an http:// or https:// URL"},
		{"argument", append(ok, "extra"), "", `unexpected argument "extra"`},
		{"header without =", append(ok, "--header", "Authorization"), "", "want K=V"},
		{"header name", append(ok, "--header", "Bad Name=x"), "", "not allowed in a header name"},
		{"unknown flag", append(ok, "--bogus"), "", "flag provided but not defined"},
		{"missing request file", append(ok, "--request", filepath.Join(dir, "none.json")), "", "none.json"},
		{"request not JSON", append(ok, "--request", "-"), "{", "--request <stdin>"},
		{"request not an object", append(ok, "--request", "-"), "[1]", "want a JSON object"},
		{"request duplicate key", append(ok, "--request", dup), "", "/name"},
		{"request bad key", append(ok, "--request", "-"), `{"idempotency_key":"short"}`, "/idempotency_key"},
		{"spec missing", []string{"--agent", agent, "--spec", filepath.Join(dir, "nothing"), "--tool", "get_things"}, "", "nothing"},
		{"validate unknown tool", append([]string{"--agent", agent, "--spec", callSpecDir, "--tool", "no_such_tool"}, "--validate"), "", `no schemas for tool "no_such_tool"`},
		{"bad poll interval", append(ok, "--poll-interval", "0s"), "", "--poll-interval"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := runCallCmd(t, c.stdin, c.args...)
			if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, c.stderr) {
				t.Errorf("exit %d, stdout %q, stderr %q (want %q)", r.code, r.stdout, r.stderr, c.stderr)
			}
			if strings.Count(strings.TrimSpace(r.stderr), "\n") != 0 {
				t.Errorf("stderr is not one line: %q", r.stderr)
			}
		})
	}
	if len(seller.calls()) != 0 {
		t.Errorf("usage errors reached the seller: %v", seller.calls())
	}
}

// --help explains every flag.
func TestCallHelp(t *testing.T) {
	r := runCallCmd(t, "", "--help")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
	for _, flag := range []string{"agent", "transport", "spec", "tool", "request", "header", "validate", "wait",
		"timeout", "poll-interval", "mirror", "cache", "lock", "offline"} {
		if !strings.Contains(r.stdout, "\n  --"+flag+" ") && !strings.Contains(r.stdout, "\n  --"+flag+"\n") {
			t.Errorf("--help does not explain --%s", flag)
		}
	}
	if !strings.Contains(r.stdout, "Exit status: 0") {
		t.Error("--help does not give the exit status")
	}
}

func writeFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A payload over AdCP's 1 MiB cap is refused with its size and the cap;
// --max-payload raises the cap.
func TestCallMaxPayload(t *testing.T) {
	big := `{"things":[{"thing_id":"t-1","name":"` + strings.Repeat("x", 2<<20) + `"}]}`
	seller := startSeller(t, "mcp", map[string][]sellerAnswer{"get_things": {{payload: big}}})
	args := append([]string{"--spec", callSpecDir, "--tool", "get_things"}, seller.args...)
	r := runCallCmd(t, "", args...)
	if r.code != 1 || !strings.Contains(r.stderr, "structuredContent is 2097193 bytes, over the cap of 1048576 (--max-payload raises the cap)") {
		t.Fatalf("default cap: exit %d: %s", r.code, r.stderr)
	}
	r = runCallCmd(t, "", append(args, "--max-payload", "4194304")...)
	if r.code != 0 || member(t, outputOf(t, r), "status") != "completed" {
		t.Fatalf("--max-payload 4194304: exit %d: %s", r.code, r.stderr)
	}
	if r = runCallCmd(t, "", append(args, "--max-payload", "0")...); r.code != 2 || !strings.Contains(r.stderr, "--max-payload 0 is not positive") {
		t.Fatalf("--max-payload 0: exit %d: %s", r.code, r.stderr)
	}
}
