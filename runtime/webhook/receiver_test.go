package webhook_test

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/generator/testdata/golden/manifest"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/webhook"
)

// The tests use the golden package generated from
// generator/testdata/schemas/manifest: a tool create_thing with submitted
// and working payloads, a read-only get_things, and a task type
// thing_delivery that task_result_resolution gives a schema of its own.

const testSecret = "k3y-9f8e7d6c5b4a3928171605f4e3d2c1b0a"

type thingEvent = webhook.Event[manifest.CreateThingResponse, manifest.CreateThingSubmitted, manifest.CreateThingWorking, task.None]

// receiverRig is a receiver on an httptest server, mounted on the routing
// pattern AdCP recommends, with a fixed clock.
type receiverRig struct {
	t      *testing.T
	srv    *httptest.Server
	rc     *webhook.Receiver
	signer *webhook.HMAC
	now    int64
	mu     sync.Mutex
	events []*thingEvent
	others []*webhook.Notification
	fail   error // returned by the create_thing handler
	reject []int // statuses the receiver reported refusing
}

func newReceiverRig(t *testing.T, opts webhook.ReceiverOptions, signed bool) *receiverRig {
	t.Helper()
	rig := &receiverRig{t: t, now: 1_800_000_000}
	signer, err := webhook.NewHMAC([]byte(testSecret))
	if err != nil {
		t.Fatal(err)
	}
	signer.Now = func() time.Time { return time.Unix(rig.now, 0) }
	rig.signer = signer
	if signed {
		opts.HMAC = signer
	}
	opts.Rejected = func(_ *http.Request, status int, _ error) {
		rig.mu.Lock()
		rig.reject = append(rig.reject, status)
		rig.mu.Unlock()
	}
	rig.rc = webhook.NewReceiver(manifest.Spec(), opts)
	//lint:ignore SA1019 the golden manifest deprecates its one async tool on purpose
	if err := webhook.On(rig.rc, manifest.Tools.CreateThing, func(_ context.Context, ev *thingEvent) error {
		rig.mu.Lock()
		defer rig.mu.Unlock()
		if rig.fail != nil {
			return rig.fail
		}
		rig.events = append(rig.events, ev)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	rig.rc.Handle("thing_delivery", func(_ context.Context, n *webhook.Notification) error {
		rig.mu.Lock()
		defer rig.mu.Unlock()
		rig.others = append(rig.others, n)
		return nil
	})
	mux := http.NewServeMux()
	mux.Handle("/webhooks/adcp/{task_type}/{operation_id}", rig.rc)
	mux.Handle("/unrouted", rig.rc)
	rig.srv = httptest.NewServer(mux)
	t.Cleanup(rig.srv.Close)
	return rig
}

// post sends body to path, signed at ts with sig when sig is "auto".
func (rig *receiverRig) post(path, body string, header map[string]string) (int, string) {
	rig.t.Helper()
	req, err := http.NewRequest(http.MethodPost, rig.srv.URL+path, strings.NewReader(body))
	if err != nil {
		rig.t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := rig.srv.Client().Do(req)
	if err != nil {
		rig.t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out)
}

// signed returns the signature headers for body at ts. It computes the
// HMAC itself: Sign refuses bodies with duplicate keys, and a hostile
// sender does not.
func (rig *receiverRig) signed(ts int64, body string) map[string]string {
	m := hmac.New(sha256.New, []byte(testSecret))
	m.Write([]byte(strconv.FormatInt(ts, 10) + "." + body))
	sig := "sha256=" + hex.EncodeToString(m.Sum(nil))
	return map[string]string{webhook.TimestampHeader: strconv.FormatInt(ts, 10), webhook.SignatureHeader: sig}
}

func (rig *receiverRig) counts() (events, others int) {
	rig.mu.Lock()
	defer rig.mu.Unlock()
	return len(rig.events), len(rig.others)
}

const route = "/webhooks/adcp/create_thing/op_1"

func mcpBody(status, result string, extra ...string) string {
	b := `{"idempotency_key":"whk_0123456789abcdef","task_id":"task_1","status":"` + status + `","timestamp":"2027-01-15T08:00:00Z"`
	for _, e := range extra {
		b += "," + e
	}
	if result != "" {
		b += `,"result":` + result
	}
	return b + "}"
}

func TestReceiverDeliversTypedValues(t *testing.T) {
	cases := []struct {
		name  string
		path  string
		body  string
		check func(t *testing.T, ev *thingEvent)
	}{
		{"completed", route, mcpBody("completed", `{"thing":{"thing_id":"th_1"}}`, `"context_id":"ctx_9"`, `"message":"done"`),
			func(t *testing.T, ev *thingEvent) {
				if ev.Response == nil || ev.Response.Thing.ThingID != "th_1" || ev.Status != task.Completed ||
					ev.TaskID != "task_1" || ev.ContextID != "ctx_9" || ev.Message != "done" {
					t.Errorf("event %+v", ev.Result)
				}
				if ev.Notification.OperationID != "op_1" || ev.Notification.TaskType != "create_thing" || ev.Notification.Form != extract.FormMCPWebhook {
					t.Errorf("notification %+v", ev.Notification)
				}
			}},
		{"working", route, mcpBody("working", `{"percentage":40}`),
			func(t *testing.T, ev *thingEvent) {
				if ev.Working == nil || ev.Working.Percentage == nil || *ev.Working.Percentage != 40 || ev.Response != nil || !ev.Interim() {
					t.Errorf("event %+v", ev.Result)
				}
			}},
		{"submitted", route, mcpBody("submitted", `{"ticket":"T-7"}`),
			func(t *testing.T, ev *thingEvent) {
				if ev.Submitted == nil || ev.Submitted.Ticket == nil || *ev.Submitted.Ticket != "T-7" {
					t.Errorf("event %+v", ev.Result)
				}
			}},
		{"input-required has no payload type", route, mcpBody("input-required", `{"reason":"approval"}`),
			func(t *testing.T, ev *thingEvent) {
				if ev.Status != task.InputRequired || ev.InputRequired != nil || string(ev.Notification.Data) != `{"reason":"approval"}` {
					t.Errorf("event %+v", ev.Result)
				}
			}},
		{"failed with adcp_error", route, mcpBody("failed", `{"adcp_error":{"code":"THING_NOT_FOUND","message":"no such thing"}}`),
			func(t *testing.T, ev *thingEvent) {
				if ev.Err == nil || ev.Err.Code != "THING_NOT_FOUND" || ev.Err.Recovery != "correctable" || ev.Response != nil {
					t.Errorf("event %+v err %v", ev.Result, ev.Err)
				}
			}},
		{"task type from the payload", "/unrouted", mcpBody("completed", `{"thing":{"thing_id":"th_2"}}`, `"task_type":"create_thing"`, `"operation_id":"op_p"`),
			func(t *testing.T, ev *thingEvent) {
				if ev.Response == nil || ev.Notification.OperationID != "op_p" {
					t.Errorf("event %+v", ev.Notification)
				}
			}},
		{"A2A push", route, `{"id":"a2a_task_1","contextId":"ctx_a","kind":"task","status":{"state":"completed","timestamp":"2027-01-15T08:00:00Z"},` +
			`"artifacts":[{"artifactId":"r","metadata":{"adcp_task_id":"task_7"},"parts":[{"kind":"data","data":{"thing":{"thing_id":"th_a"}}}]}]}`,
			func(t *testing.T, ev *thingEvent) {
				if ev.Response == nil || ev.Response.Thing.ThingID != "th_a" || ev.TaskID != "task_7" || ev.ContextID != "ctx_a" || ev.Notification.Form != extract.FormTask {
					t.Errorf("event %+v %+v", ev.Result, ev.Notification)
				}
			}},
		{"A2A stream status update", route, `{"statusUpdate":{"taskId":"a2a_2","contextId":"ctx_b","status":{"state":"TASK_STATE_WORKING","message":{"role":"agent","parts":[{"text":"half way"},{"data":{"percentage":50}}]}}}}`,
			func(t *testing.T, ev *thingEvent) {
				if ev.Working == nil || *ev.Working.Percentage != 50 || ev.TaskID != "a2a_2" || ev.Message != "half way" {
					t.Errorf("event %+v", ev.Result)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rig := newReceiverRig(t, webhook.ReceiverOptions{}, true)
			status, out := rig.post(c.path, c.body, rig.signed(rig.now, c.body))
			if status != http.StatusOK || out != `{"status":"processed"}` {
				t.Fatalf("status %d %s", status, out)
			}
			if n, _ := rig.counts(); n != 1 {
				t.Fatalf("%d events, want 1", n)
			}
			c.check(t, rig.events[0])
		})
	}
}

func TestReceiverOwnResultType(t *testing.T) {
	rig := newReceiverRig(t, webhook.ReceiverOptions{}, true)
	body := mcpBody("completed", `{"delivered":12}`)
	if status, out := rig.post("/webhooks/adcp/thing_delivery/op_2", body, rig.signed(rig.now, body)); status != http.StatusOK {
		t.Fatalf("status %d %s", status, out)
	}
	if _, n := rig.counts(); n != 1 {
		t.Fatalf("%d notifications", n)
	}
	got, ok := rig.others[0].Payload.(*manifest.ThingDeliveryResult)
	if !ok || got.Delivered != 12 {
		t.Fatalf("payload %#v", rig.others[0].Payload)
	}
}

// Every refused post gets a clear 4xx (or 5xx where the seller should
// retry) and never reaches a handler.
func TestReceiverRefuses(t *testing.T) {
	good := mcpBody("completed", `{"thing":{"thing_id":"th_1"}}`)
	type post struct {
		path, body string
		header     func(rig *receiverRig) map[string]string
	}
	signedAt := func(delta int64, body string) func(*receiverRig) map[string]string {
		return func(rig *receiverRig) map[string]string { return rig.signed(rig.now+delta, body) }
	}
	cases := []struct {
		name     string
		opts     webhook.ReceiverOptions
		unsigned bool
		method   string
		post     post
		status   int
		want     string
	}{
		{name: "wrong signature", post: post{route, good, func(rig *receiverRig) map[string]string {
			h := rig.signed(rig.now, good)
			h[webhook.SignatureHeader] = "sha256=" + strings.Repeat("0", 64)
			return h
		}}, status: 401, want: "does not match"},
		{name: "signature of other bytes", post: post{route, good + " ", signedAt(0, good)}, status: 401, want: "does not match"},
		{name: "no signature", post: post{route, good, func(*receiverRig) map[string]string { return nil }}, status: 401, want: "missing"},
		{name: "stale timestamp", post: post{route, good, signedAt(-301, good)}, status: 401, want: "outside the accepted window"},
		{name: "future timestamp", post: post{route, good, signedAt(301, good)}, status: 401, want: "outside the accepted window"},
		{name: "body of the wrong task type", post: post{route, mcpBody("completed", `{"things":[]}`), signedAt(0, mcpBody("completed", `{"things":[]}`))},
			status: 400, want: `missing required field "thing"`},
		{name: "payload task type differs from the route", post: post{route, mcpBody("completed", `{"thing":{"thing_id":"x"}}`, `"task_type":"get_things"`),
			signedAt(0, mcpBody("completed", `{"thing":{"thing_id":"x"}}`, `"task_type":"get_things"`))}, status: 400, want: `routes to "create_thing" but the payload says "get_things"`},
		{name: "duplicate key in the result", post: post{route, mcpBody("completed", `{"thing":{"thing_id":"a","thing_id":"b"}}`),
			signedAt(0, mcpBody("completed", `{"thing":{"thing_id":"a","thing_id":"b"}}`))}, status: 400, want: `duplicate key "thing_id"`},
		{name: "duplicate key unsigned", unsigned: true, post: post{route, mcpBody("completed", `{"thing":{"thing_id":"a","\u0074hing_id":"b"}}`), nil},
			status: 400, want: `duplicate key "thing_id"`},
		{name: "__proto__ in the result", post: post{route, mcpBody("completed", `{"thing":{"thing_id":"a"},"\u005f_proto__":{"x":1}}`),
			signedAt(0, mcpBody("completed", `{"thing":{"thing_id":"a"},"\u005f_proto__":{"x":1}}`))}, status: 400, want: `forbidden key "__proto__"`},
		{name: "oversized body", opts: webhook.ReceiverOptions{MaxBodyBytes: 64}, post: post{route, good, signedAt(0, good)}, status: 413, want: "size cap"},
		{name: "GET", method: http.MethodGet, post: post{route, "", nil}, status: 405, want: "not POST"},
		{name: "not JSON", unsigned: true, post: post{route, `task_id=1`, nil}, status: 400, want: "body"},
		{name: "not a webhook", unsigned: true, post: post{route, `{"hello":"world"}`, nil}, status: 400, want: "not an MCP webhook payload"},
		{name: "unknown status", unsigned: true, post: post{route, mcpBody("done", `{"thing":{"thing_id":"a"}}`), nil}, status: 400, want: `unknown task status "done"`},
		{name: "no task type anywhere", unsigned: true, post: post{"/unrouted", good, nil}, status: 400, want: "none in the URL route or the payload"},
		{name: "unknown task type", unsigned: true, post: post{"/webhooks/adcp/sync_nothing/op", good, nil}, status: 400, want: `"sync_nothing" is not one AdCP 9.0.0-test knows`},
		{name: "no handler for the task type", unsigned: true, post: post{"/webhooks/adcp/get_things/op", mcpBody("completed", `{"things":[]}`), nil}, status: 404, want: "no handler"},
		{name: "wrong token", unsigned: true, opts: webhook.ReceiverOptions{Token: "tok-0123456789abcdef"}, post: post{route, mcpBody("completed", `{"thing":{"thing_id":"a"}}`, `"token":"tok-guess"`), nil},
			status: 401, want: "token does not match"},
		{name: "missing A2A token", unsigned: true, opts: webhook.ReceiverOptions{Token: "tok-0123456789abcdef"}, post: post{route,
			`{"id":"t","status":{"state":"completed"},"artifacts":[{"parts":[{"data":{"thing":{"thing_id":"a"}}}]}]}`, nil}, status: 401, want: "token does not match"},
		{name: "non-string envelope member", unsigned: true, post: post{route, mcpBody("completed", `{"thing":{"thing_id":"a"}}`, `"context_id":7`), nil}, status: 400, want: "/context_id: want a string"},
		{name: "wrapper in A2A", unsigned: true, post: post{route, `{"id":"t","status":{"state":"completed"},"artifacts":[{"parts":[{"data":{"response":{"thing":{}}}}]}]}`, nil},
			status: 400, want: "wrapper"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rig := newReceiverRig(t, c.opts, !c.unsigned)
			var header map[string]string
			if c.post.header != nil {
				header = c.post.header(rig)
			}
			var status int
			var out string
			if c.method == "" {
				status, out = rig.post(c.post.path, c.post.body, header)
			} else {
				req, _ := http.NewRequest(c.method, rig.srv.URL+c.post.path, nil)
				resp, err := rig.srv.Client().Do(req)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				status, out = resp.StatusCode, string(b)
				if resp.Header.Get("Allow") != "POST" {
					t.Errorf("Allow %q", resp.Header.Get("Allow"))
				}
			}
			var answer struct{ Error string }
			if err := json.Unmarshal([]byte(out), &answer); err != nil {
				t.Fatalf("answer %q: %v", out, err)
			}
			if status != c.status || !strings.Contains(answer.Error, c.want) {
				t.Fatalf("status %d %s, want %d mentioning %q", status, out, c.status, c.want)
			}
			if e, o := rig.counts(); e+o != 0 {
				t.Fatalf("a refused post reached a handler (%d, %d)", e, o)
			}
			if len(rig.reject) != 1 || rig.reject[0] != c.status {
				t.Fatalf("Rejected saw %v", rig.reject)
			}
		})
	}
}

func TestReceiverReplayedSignature(t *testing.T) {
	rig := newReceiverRig(t, webhook.ReceiverOptions{}, true)
	body := mcpBody("completed", `{"thing":{"thing_id":"th_1"}}`)
	h := rig.signed(rig.now, body)
	if status, out := rig.post(route, body, h); status != http.StatusOK {
		t.Fatalf("first post: %d %s", status, out)
	}
	// Upper-case hex is the same signature.
	h[webhook.SignatureHeader] = "sha256=" + strings.ToUpper(strings.TrimPrefix(h[webhook.SignatureHeader], "sha256="))
	if status, out := rig.post(route, body, h); status != http.StatusConflict || !strings.Contains(out, "replayed") {
		t.Fatalf("replay: %d %s", status, out)
	}
	// Much later the timestamp check refuses it, and the memory has let go.
	rig.now += 2000
	if status, _ := rig.post(route, body, h); status != http.StatusUnauthorized {
		t.Fatalf("stale replay: %d", status)
	}
	if n, _ := rig.counts(); n != 1 {
		t.Fatalf("%d events, want 1", n)
	}
}

// A redelivery of the same event (same idempotency_key, signed afresh) is
// acknowledged without calling the handler again.
func TestReceiverDropsRedeliveredEvent(t *testing.T) {
	rig := newReceiverRig(t, webhook.ReceiverOptions{}, true)
	body := mcpBody("completed", `{"thing":{"thing_id":"th_1"}}`)
	if status, _ := rig.post(route, body, rig.signed(rig.now, body)); status != http.StatusOK {
		t.Fatal(status)
	}
	status, out := rig.post(route, body, rig.signed(rig.now+1, body))
	if status != http.StatusOK || out != `{"status":"duplicate"}` {
		t.Fatalf("redelivery: %d %s", status, out)
	}
	if n, _ := rig.counts(); n != 1 {
		t.Fatalf("%d events, want 1", n)
	}
}

// A handler failure answers 500 and forgets the post, so the seller's
// retry of the very same signed bytes is accepted.
func TestReceiverHandlerFailureAllowsRetry(t *testing.T) {
	rig := newReceiverRig(t, webhook.ReceiverOptions{}, true)
	rig.fail = errors.New("database down")
	body := mcpBody("completed", `{"thing":{"thing_id":"th_1"}}`)
	h := rig.signed(rig.now, body)
	status, out := rig.post(route, body, h)
	if status != http.StatusInternalServerError || strings.Contains(out, "database") {
		t.Fatalf("failing handler: %d %s (the handler's error must not leak)", status, out)
	}
	rig.mu.Lock()
	rig.fail = nil
	rig.mu.Unlock()
	if status, out := rig.post(route, body, h); status != http.StatusOK {
		t.Fatalf("retry: %d %s", status, out)
	}
	if n, _ := rig.counts(); n != 1 {
		t.Fatalf("%d events", n)
	}
}

// The replay memory is bounded: when it is full of signatures still inside
// the window, a new post is refused with 503 (retry later), never let in by
// forgetting one that could then be replayed.
func TestReceiverReplayMemoryBounded(t *testing.T) {
	rig := newReceiverRig(t, webhook.ReceiverOptions{MaxSeen: 2}, true)
	for i := range 3 {
		body := mcpBody("completed", `{"thing":{"thing_id":"th_`+strconv.Itoa(i)+`"}}`, `"operation_id":"op_`+strconv.Itoa(i)+`"`)
		body = strings.Replace(body, "whk_0123456789abcdef", "whk_0123456789abcde"+strconv.Itoa(i), 1)
		status, _ := rig.post(route, body, rig.signed(rig.now, body))
		if want := map[bool]int{true: 200, false: 503}[i < 2]; status != want {
			t.Fatalf("post %d: %d, want %d", i, status, want)
		}
	}
	rig.now += 700 // past 2*window: the first two are forgotten
	body := mcpBody("completed", `{"thing":{"thing_id":"th_9"}}`)
	body = strings.Replace(body, "whk_0123456789abcdef", "whk_0123456789abcde9", 1)
	if status, _ := rig.post(route, body, rig.signed(rig.now, body)); status != 200 {
		t.Fatalf("after the window: %d", status)
	}
}

func TestOnChecksTheDescriptor(t *testing.T) {
	rc := webhook.NewReceiver(manifest.Spec(), webhook.ReceiverOptions{})
	noop := func(context.Context, *thingEvent) error { return nil }
	other := task.NewTool[manifest.CreateThingRequest, manifest.CreateThingResponse, manifest.CreateThingSubmitted, manifest.CreateThingWorking, task.None]("create_thing", "8.0.0")
	if err := webhook.On(rc, other, noop); err == nil || !strings.Contains(err.Error(), "from AdCP 8.0.0") {
		t.Errorf("other version: %v", err)
	}
	wrong := task.NewTool[manifest.CreateThingRequest, manifest.GetThingsResponse, manifest.CreateThingSubmitted, manifest.CreateThingWorking, task.None]("create_thing", manifest.SpecVersion)
	err := webhook.On(rc, wrong, func(context.Context, *webhook.Event[manifest.GetThingsResponse, manifest.CreateThingSubmitted, manifest.CreateThingWorking, task.None]) error {
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), "manifest.CreateThingResponse") {
		t.Errorf("wrong response type: %v", err)
	}
	missing := task.NewTool[manifest.CreateThingRequest, manifest.CreateThingResponse, manifest.CreateThingSubmitted, manifest.CreateThingWorking, task.None]("make_thing", manifest.SpecVersion)
	if err := webhook.On(rc, missing, noop); err == nil || !strings.Contains(err.Error(), "no tool make_thing") {
		t.Errorf("unknown tool: %v", err)
	}
}

func TestReceiverDecode(t *testing.T) {
	rc := webhook.NewReceiver(manifest.Spec(), webhook.ReceiverOptions{})
	n, err := rc.Decode([]byte(mcpBody("completed", `{"thing":{"thing_id":"th_1"}}`)), "create_thing")
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := n.Payload.(*manifest.CreateThingResponse); !ok || r.Thing.ThingID != "th_1" {
		t.Fatalf("payload %#v", n.Payload)
	}
	_, err = rc.Decode([]byte(`{"task_id":"t","status":"completed","result":{"thing":{}}}`), "create_thing")
	var re *webhook.ReceiveError
	if !errors.As(err, &re) || re.Status != 400 || !errors.Is(err, webhook.ErrResult) {
		t.Fatalf("bad result: %v", err)
	}
}

func FuzzReceiverDecode(f *testing.F) {
	f.Add([]byte(mcpBody("completed", `{"thing":{"thing_id":"th_1"}}`)), "create_thing")
	f.Add([]byte(`{"statusUpdate":{"taskId":"a","status":{"state":"working"}}}`), "")
	rc := webhook.NewReceiver(manifest.Spec(), webhook.ReceiverOptions{})
	f.Fuzz(func(t *testing.T, body []byte, route string) {
		n, err := rc.Decode(body, route)
		if (n == nil) == (err == nil) {
			t.Fatalf("Decode = %v, %v", n, err)
		}
		if err == nil && !bytes.Equal(n.Body, body) {
			t.Fatal("body changed")
		}
	})
}
