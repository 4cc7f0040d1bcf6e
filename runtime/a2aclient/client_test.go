package a2aclient_test

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

	"github.com/a2aproject/a2a-go/a2a"
	sdk "github.com/a2aproject/a2a-go/a2aclient"
	"github.com/a2aproject/a2a-go/a2aclient/agentcard"
	"github.com/adcpgen/adcpgen/internal/testseller"
	"github.com/adcpgen/adcpgen/runtime/a2aclient"
	"github.com/adcpgen/adcpgen/runtime/rawrpc"
)

// hostile holds DataPart members a strict decoder must reject: a
// duplicate key, an escaped __proto__ and a number no float64 holds.
var hostile = map[string]json.RawMessage{
	"status":   json.RawMessage(`"completed"`),
	"products": json.RawMessage(`[{"product_id":"a","product_id":"b"}]`),
	"payload":  json.RawMessage(`{"\u005f_proto__":{"polluted":true}}`),
	"total":    json.RawMessage(`12345678901234567890123`),
}

// hostileData is the DataPart data as the seller sends it (a Go map, so
// its members in key order).
const hostileData = `{"payload":{"\u005f_proto__":{"polluted":true}},"products":[{"product_id":"a","product_id":"b"}],"status":"completed","total":12345678901234567890123}`

type headerTransport struct {
	base    http.RoundTripper
	headers http.Header
}

func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, vs := range t.headers {
		r.Header[k] = vs
	}
	return t.base.RoundTrip(r)
}

func dial(t *testing.T, replies map[string]testseller.A2AReply) (*a2aclient.Conn, *testseller.A2ASeller) {
	t.Helper()
	seller := testseller.NewA2ASeller(replies, testseller.A2AOptions{})
	t.Cleanup(seller.Close)
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	c, err := a2aclient.Dial(t.Context(), seller.URL, &http.Client{Transport: tr})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, seller
}

func TestSendMessageRawKeepsSellerBytes(t *testing.T) {
	c, _ := dial(t, map[string]testseller.A2AReply{
		"get_products": {Data: hostile, ArtifactMetadata: map[string]any{"adcp_task_id": "task-9"}},
	})
	resp, err := c.SendMessageRaw(t.Context(), "get_products", json.RawMessage(`{"brief":"ctv"}`))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Error != nil || !resp.Exact {
		t.Fatalf("Error=%s Exact=%v", resp.Error, resp.Exact)
	}
	if !bytes.Contains(resp.Result, []byte(`"data":`+hostileData)) {
		t.Errorf("the DataPart did not arrive byte for byte:\n%s", resp.Result)
	}
	if !bytes.Contains(resp.Result, []byte(`"adcp_task_id":"task-9"`)) {
		t.Errorf("artifact metadata lost: %s", resp.Result)
	}

	var task struct{ ID string }
	if err := json.Unmarshal(resp.Result, &task); err != nil || task.ID == "" {
		t.Fatalf("no task id in %s: %v", resp.Result, err)
	}
	got, err := c.GetTaskRaw(t.Context(), task.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(got.Result, []byte(`"data":`+hostileData)) {
		t.Errorf("tasks/get: the DataPart did not arrive byte for byte:\n%s", got.Result)
	}
}

// a2a-go's own decoding loses what the raw call keeps.
func TestSDKDecodingLosesDuplicates(t *testing.T) {
	c, _ := dial(t, map[string]testseller.A2AReply{"get_products": {Data: hostile}})
	res, err := c.SDK().SendMessage(t.Context(), a2aclient.AdCPMessage("get_products", nil))
	if err != nil {
		t.Fatal(err)
	}
	again, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(again, []byte(`"product_id":"a"`)) || bytes.Contains(again, []byte(`\u005f`)) || bytes.Contains(again, []byte(`12345678901234567890123`)) {
		t.Errorf("a2a-go kept the hostile bytes (%s); the raw transport may no longer be needed", again)
	}
}

func TestErrorsKeepAdCPError(t *testing.T) {
	rpcErr := `{"code":-32029,"message":"Rate limited","data":{"adcp_error":{"code":"RATE_LIMITED","message":"slow down","recovery":"transient","retry_after":30}}}`
	adcpErr := json.RawMessage(`{"code":"BUDGET_TOO_LOW","message":"raise it","recovery":"correctable","field":"budget"}`)
	c, _ := dial(t, map[string]testseller.A2AReply{
		"limited":  {RPCError: json.RawMessage(rpcErr)},
		"429":      {RPCError: json.RawMessage(rpcErr), RPCErrorStatus: http.StatusTooManyRequests},
		"rejected": {State: a2a.TaskStateFailed, Data: map[string]json.RawMessage{"adcp_error": adcpErr}},
	})

	// a2a-go reports a non-200 answer by its status line alone; the body
	// is kept all the same.
	for _, skill := range []string{"limited", "429"} {
		resp, err := c.SendMessageRaw(t.Context(), skill, nil)
		if err != nil {
			t.Fatal(err)
		}
		if string(resp.Error) != rpcErr || resp.Result != nil {
			t.Errorf("%s: error object\n got %s\nwant %s", skill, resp.Error, rpcErr)
		}
	}
	// What a2a-go itself reports: the code's meaning, no adcp_error.
	_, sdkErr := c.SDK().SendMessage(t.Context(), a2aclient.AdCPMessage("limited", nil))
	if sdkErr == nil || strings.Contains(sdkErr.Error(), "RATE_LIMITED") {
		t.Errorf("a2a-go now keeps error.data (%v); the raw path may no longer be needed", sdkErr)
	}

	resp, err := c.SendMessageRaw(t.Context(), "rejected", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(resp.Result, []byte(`"state":"failed"`)) || !bytes.Contains(resp.Result, []byte(`{"adcp_error":`+string(adcpErr)+`}`)) {
		t.Errorf("failed task lost its adcp_error: %s", resp.Result)
	}
}

func TestLargePayload(t *testing.T) {
	blob := json.RawMessage(`"` + strings.Repeat("x", 2<<20) + `"`)
	c, _ := dial(t, map[string]testseller.A2AReply{"big": {Data: map[string]json.RawMessage{"blob": blob}}})
	resp, err := c.SendMessageRaw(t.Context(), "big", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(resp.Result, []byte(`{"blob":`+string(blob)+`}`)) {
		t.Errorf("a %d-byte result lost the 2 MiB DataPart", len(resp.Result))
	}
}

func TestStreamMessageRaw(t *testing.T) {
	c, _ := dial(t, map[string]testseller.A2AReply{"get_products": {Data: hostile}})
	events, err := c.StreamMessageRaw(t.Context(), "get_products", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(events) == 0 {
		t.Fatal("no events")
	}
	last := events[len(events)-1]
	if !last.Exact || !bytes.Contains(last.Result, []byte(`"data":`+hostileData)) {
		t.Errorf("the final event did not carry the DataPart byte for byte:\n%s", last.Message)
	}
}

func TestCardWithoutPreferredTransport(t *testing.T) {
	seller := testseller.NewA2ASeller(map[string]testseller.A2AReply{"ok": {Data: map[string]json.RawMessage{"status": json.RawMessage(`"completed"`)}}}, testseller.A2AOptions{})
	defer seller.Close()
	card, err := agentcard.NewResolver(seller.Client()).Resolve(t.Context(), seller.URL)
	if err != nil {
		t.Fatal(err)
	}
	if card.PreferredTransport != "" {
		t.Fatalf("the seller's card names a transport: %q", card.PreferredTransport)
	}
	if _, err := sdk.NewFromCard(t.Context(), card); err == nil {
		t.Error("a2a-go now accepts cards without preferredTransport; the default may be dropped")
	}
	c, err := a2aclient.NewFromCard(t.Context(), card, seller.Client())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.Card().PreferredTransport != a2a.TransportProtocolJSONRPC || card.PreferredTransport != "" {
		t.Errorf("card in use says %q; caller's card says %q", c.Card().PreferredTransport, card.PreferredTransport)
	}
	if _, err := c.SendMessageRaw(t.Context(), "ok", nil); err != nil {
		t.Error(err)
	}
}

func TestCallerHeadersReachSeller(t *testing.T) {
	seller := testseller.NewA2ASeller(map[string]testseller.A2AReply{"ok": {}}, testseller.A2AOptions{})
	defer seller.Close()
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	hc := &http.Client{Transport: headerTransport{base: tr, headers: http.Header{
		"Authorization": {"Bearer s3cret"},
		"X-Adcp-Buyer":  {"buyer-1"},
	}}}
	c, err := a2aclient.Dial(t.Context(), seller.URL, hc)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.SendMessageRaw(t.Context(), "ok", nil); err != nil {
		t.Fatal(err)
	}
	seen := seller.Headers()
	if len(seen) != 2 {
		t.Fatalf("seller saw %d requests, want the card and the call", len(seen))
	}
	for i, h := range seen {
		if h.Get("Authorization") != "Bearer s3cret" || h.Get("X-Adcp-Buyer") != "buyer-1" {
			t.Errorf("request %d lacks the caller's headers: %v", i, h)
		}
	}
}

func TestNeverAnsweringSeller(t *testing.T) {
	seller := testseller.NewA2ASeller(map[string]testseller.A2AReply{"hang": {Hang: true}}, testseller.A2AOptions{})
	defer seller.Close()
	baseline := goruntime.NumGoroutine()

	tr := &http.Transport{}
	c, err := a2aclient.Dial(t.Context(), seller.URL, &http.Client{Transport: tr})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	if _, err := c.SendMessageRaw(ctx, "hang", nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("want the deadline, got %v", err)
	}
	if _, err := c.StreamMessageRaw(ctx, "hang", nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("stream: want the deadline, got %v", err)
	}
	c.Close()
	tr.CloseIdleConnections()
	n := goruntime.NumGoroutine()
	for deadline := time.Now().Add(3 * time.Second); n > baseline && time.Now().Before(deadline); n = goruntime.NumGoroutine() {
		time.Sleep(20 * time.Millisecond)
	}
	if n > baseline {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines after Close, %d before dialing:\n%s", n, baseline, buf[:goruntime.Stack(buf, true)])
	}
}

// A duplicate member in the JSON-RPC envelope (here added by a hostile
// intermediary) is what a2a-go resolves silently; the raw call rejects it.
func TestEnvelopeDuplicateRejected(t *testing.T) {
	seller := testseller.NewA2ASeller(map[string]testseller.A2AReply{"ok": {}}, testseller.A2AOptions{RepeatResult: true})
	defer seller.Close()
	c, err := a2aclient.Dial(t.Context(), seller.URL, seller.Client())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.SDK().SendMessage(t.Context(), a2aclient.AdCPMessage("ok", nil)); err != nil {
		t.Errorf("a2a-go no longer accepts the repeated result (%v)", err)
	}
	for name, call := range map[string]func() error{
		"send":   func() error { _, err := c.SendMessageRaw(t.Context(), "ok", nil); return err },
		"stream": func() error { _, err := c.StreamMessageRaw(t.Context(), "ok", nil); return err },
	} {
		if err := call(); !errors.Is(err, rawrpc.ErrMalformed) || !strings.Contains(err.Error(), `at /result: duplicate member "result"`) {
			t.Errorf("%s: %v, want a duplicate /result", name, err)
		}
	}
}

// a2a-go reads SSE lines with a 64 KiB limit: a larger streamed event
// ends the stream with an error, which the raw call reports.
func TestLargeStreamedEvent(t *testing.T) {
	blob := json.RawMessage(`"` + strings.Repeat("x", 2<<20) + `"`)
	c, _ := dial(t, map[string]testseller.A2AReply{"big": {Data: map[string]json.RawMessage{"blob": blob}}})
	events, err := c.StreamMessageRaw(t.Context(), "big", nil)
	if err == nil {
		t.Fatalf("a2a-go streamed a 2 MiB event (%d events); drop this limit from the docs", len(events))
	}
	t.Logf("%d events, %v", len(events), err)
}
