package oteladcp_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
)

// On every release, a typed buyer calls a seller on loopback over MCP and
// over A2A, each with its own tracer and meter (two processes), and:
//
//   - the buyer's call, the seller's served call, its validation,
//     idempotency layer, store calls, handler, the task recorded for the
//     webhook, the delivery and its POST are one trace, each span under
//     the one before, and the webhook carries the POST's trace context to
//     the buyer's receiver;
//   - the spans say the tool, the transport, the release, the task status,
//     the signature verdict, a replay, an AdCP error's code and recovery;
//   - the seller's metrics count the calls by tool and outcome (the error
//     by its code), the idempotency layer's claim, replay and conflict,
//     the delivery by outcome with its age, the signatures verified, the
//     store's latency, and no task left pending; the buyer's count its
//     calls.
func TestOneTrace(t *testing.T) {
	for _, r := range releases(t) {
		t.Run(r.version, func(t *testing.T) {
			for _, transport := range []string{"mcp", "a2a"} {
				t.Run(transport, func(t *testing.T) {
					g := newRig(t, r)
					b := g.buyer(t, transport)
					conflict, failed := g.scenario(t, b)
					var ae *adcperr.Error
					if g.tool("create_media_buy").IdempotencyRequired && (!errors.As(conflict, &ae) || ae.Code != conflictCode(g.spec)) {
						t.Fatalf("the key reused with another request: %v, want %s", conflict, conflictCode(g.spec))
					}
					if !errors.As(failed, &ae) || ae.Code != "INVALID_REQUEST" {
						t.Fatalf("get_products: %v", failed)
					}
					checkTrace(t, g, b, transport)
					checkSellerMetrics(t, g, transport)
					checkBuyerMetrics(t, g, b, transport)
				})
			}
		})
	}
}

// method is the JSON-RPC method of a call over transport.
func method(transport string) string {
	if transport == "a2a" {
		return "message/send"
	}
	return "tools/call"
}

func attrs(kv []attribute.KeyValue) map[attribute.Key]attribute.Value {
	out := map[attribute.Key]attribute.Value{}
	for _, a := range kv {
		out[a.Key] = a.Value
	}
	return out
}

// want checks that s has each attribute of want (values as strings).
func want(t *testing.T, s tracetest.SpanStub, want map[string]string) {
	t.Helper()
	got := attrs(s.Attributes)
	for k, v := range want {
		if g, ok := got[attribute.Key(k)]; !ok || g.String() != v {
			t.Errorf("span %q: %s = %q (set: %v), want %q", s.Name, k, g.String(), ok, v)
		}
	}
}

func checkTrace(t *testing.T, g *rig, b *buyerSide, transport string) {
	t.Helper()
	all := spans(b.signal, g.seller)
	root := named(all, "scenario")
	if len(root) != 1 {
		t.Fatalf("%d scenario spans", len(root))
	}
	traceID := root[0].SpanContext.TraceID()
	byID := map[trace.SpanID]tracetest.SpanStub{}
	for _, s := range all {
		byID[s.SpanContext.SpanID()] = s
		if s.Name == "adcp.signature.verify" && attrs(s.Attributes)["gen_ai.tool.name"].AsString() == "" {
			continue // an MCP session's own request (initialize), made before the scenario
		}
		if s.SpanContext.TraceID() != traceID {
			t.Errorf("span %q is in trace %s, not the buyer's %s", s.Name, s.SpanContext.TraceID(), traceID)
		}
	}
	under := func(s tracetest.SpanStub, ancestor trace.SpanID) bool {
		for p := s.Parent.SpanID(); p.IsValid(); p = byID[p].Parent.SpanID() {
			if p == ancestor {
				return true
			}
			if _, ok := byID[p]; !ok {
				return false
			}
		}
		return false
	}
	callName := method(transport) + " create_media_buy"
	sent, served := b.spans.GetSpans(), g.seller.spans.GetSpans()
	idempotent, mutating := g.tool("create_media_buy").IdempotencyRequired, g.tool("create_media_buy").Mutating
	n := 2
	if idempotent {
		n = 3
	}
	clients, servers := named(sent, callName), named(served, callName)
	if len(clients) != n || len(servers) != n {
		t.Fatalf("%d buyer and %d seller spans %q, want %d each", len(clients), len(servers), callName, n)
	}
	client, server := clients[0], servers[0]
	if client.SpanKind != trace.SpanKindClient || client.Parent.SpanID() != root[0].SpanContext.SpanID() {
		t.Errorf("the buyer's span: kind %v, parent %s", client.SpanKind, client.Parent.SpanID())
	}
	if server.SpanKind != trace.SpanKindServer || server.Parent.SpanID() != client.SpanContext.SpanID() || !server.Parent.IsRemote() {
		t.Errorf("the seller's span: kind %v, parent %s (remote %v), want the buyer's %s", server.SpanKind, server.Parent.SpanID(),
			server.Parent.IsRemote(), client.SpanContext.SpanID())
	}
	common := map[string]string{"gen_ai.tool.name": "create_media_buy", "gen_ai.operation.name": "execute_tool",
		"adcp.transport": transport, "adcp.release": g.spec.Version(), "adcp.task.status": "completed"}
	if transport == "mcp" {
		common["mcp.method.name"] = "tools/call"
	} else {
		common["rpc.system.name"], common["rpc.method"] = "jsonrpc", "message/send"
	}
	want(t, client, common)
	want(t, client, map[string]string{"adcp.attempts": "1"})
	want(t, server, common)
	if g.signs {
		want(t, server, map[string]string{"adcp.signature.verdict": "verified"})
		verify := named(served, "adcp.signature.verify")
		found := false
		for _, v := range verify {
			found = found || attrs(v.Attributes)["gen_ai.tool.name"].AsString() == "create_media_buy" &&
				attrs(v.Attributes)["adcp.signature.verdict"].AsString() == "verified" && v.Parent.SpanID() == client.SpanContext.SpanID()
		}
		if !found {
			t.Errorf("no adcp.signature.verify span of create_media_buy, verified, under the buyer's call (%d such spans)", len(verify))
		}
	}

	// Inside a served call, in this nesting.
	inside := func(name string, parent trace.SpanID) tracetest.SpanStub {
		t.Helper()
		for _, s := range named(served, name) {
			if under(s, parent) {
				return s
			}
		}
		t.Fatalf("no span %q inside %s", name, byID[parent].Name)
		return tracetest.SpanStub{}
	}
	sid := server.SpanContext.SpanID()
	inside("adcp.validate", sid)
	handler := inside("adcp.handler", sid)
	want(t, handler, map[string]string{"adcp.task.status": "completed"})
	if idempotent {
		idem := inside("adcp.idempotency", sid)
		want(t, idem, map[string]string{"adcp.idempotency.outcome": "claimed", "adcp.task.status": "completed"})
		if !under(handler, idem.SpanContext.SpanID()) {
			t.Error("the handler ran outside the idempotency layer")
		}
		claim := inside("adcp.store.claim", idem.SpanContext.SpanID())
		want(t, claim, map[string]string{"adcp.store.operation": "claim", "adcp.idempotency.outcome": "claimed"})
		inside("adcp.store.complete", idem.SpanContext.SpanID())

		// The replay, and the conflict: an AdCP error, by code.
		want(t, servers[1], map[string]string{"adcp.replayed": "true", "adcp.task.status": "completed"})
		want(t, clients[1], map[string]string{"adcp.replayed": "true"})
		code := conflictCode(g.spec)
		for _, s := range []tracetest.SpanStub{servers[2], clients[2]} {
			want(t, s, map[string]string{"adcp.task.status": "failed", "adcp.error.code": code, "error.type": "tool_error"})
			if s.Status.Code != codes.Error || s.Status.Description != code {
				t.Errorf("span %q of the conflict: status %v %q", s.Name, s.Status.Code, s.Status.Description)
			}
		}
		want(t, servers[2], map[string]string{"adcp.error.recovery": "correctable"})
	}
	g.mu.Lock()
	hooks := g.hookHdr
	g.mu.Unlock()
	webhooks := 1 // sync_creatives' task
	if mutating {
		// NotifySyncResults posts create_media_buy's answer, from inside
		// its served call.
		webhooks++
		inside("adcp.task.create", sid)
		update := inside("adcp.task.update", sid)
		deliver := inside("adcp.webhook.deliver", update.SpanContext.SpanID())
		post := inside("POST", deliver.SpanContext.SpanID())
		checkPost(t, post, deliver, hooks[0], traceID)
	}
	if len(hooks) != webhooks {
		t.Fatalf("%d webhooks, want %d", len(hooks), webhooks)
	}
	failedCall := named(served, method(transport)+" get_products")
	if len(failedCall) != 1 {
		t.Fatalf("%d get_products spans", len(failedCall))
	}
	want(t, failedCall[0], map[string]string{"adcp.error.code": "INVALID_REQUEST", "adcp.task.status": "failed"})
	if _, listed := g.spec.Recovery("INVALID_REQUEST"); listed {
		want(t, failedCall[0], map[string]string{"adcp.error.recovery": "correctable"})
	}
	if h := inside("adcp.handler", failedCall[0].SpanContext.SpanID()); h.Status.Code != codes.Error {
		t.Errorf("get_products' handler span: status %v", h.Status.Code)
	}

	// The async tool: its task created in its call, the buyer's polls, the
	// task completed (and its webhook posted) inside the served status
	// tool call of the first poll.
	syncServed := named(served, method(transport)+" sync_creatives")
	if len(syncServed) != 1 {
		t.Fatalf("%d sync_creatives spans", len(syncServed))
	}
	want(t, syncServed[0], map[string]string{"adcp.task.status": "submitted"})
	inside("adcp.task.create", syncServed[0].SpanContext.SpanID())
	polls := named(sent, "adcp.task.poll")
	if len(polls) == 0 {
		t.Fatal("no adcp.task.poll span")
	}
	poll := polls[len(polls)-1]
	want(t, poll, map[string]string{"gen_ai.tool.name": "sync_creatives", "adcp.task.status": "completed", "adcp.transport": transport})
	if poll.SpanKind != trace.SpanKindClient || attrs(poll.Attributes)["adcp.task.id"].AsString() == "" {
		t.Errorf("poll span: kind %v, attributes %v", poll.SpanKind, poll.Attributes)
	}
	var update tracetest.SpanStub
	for _, s := range named(served, "adcp.task.update") {
		if attrs(s.Attributes)["gen_ai.tool.name"].AsString() == "sync_creatives" {
			update = s
		}
	}
	if !update.SpanContext.IsValid() || !under(update, polls[0].SpanContext.SpanID()) {
		t.Fatalf("sync_creatives' task update is not inside the buyer's first poll")
	}
	enqueue := inside("adcp.webhook.enqueue", update.SpanContext.SpanID())
	deliver := inside("adcp.webhook.deliver", enqueue.SpanContext.SpanID())
	if enqueue.SpanKind != trace.SpanKindProducer || deliver.SpanKind != trace.SpanKindConsumer ||
		deliver.Parent.SpanID() != enqueue.SpanContext.SpanID() || !deliver.Parent.IsRemote() {
		t.Errorf("the outbox's spans: enqueue %v, deliver %v with parent %s (remote %v), want the enqueue's %s", enqueue.SpanKind,
			deliver.SpanKind, deliver.Parent.SpanID(), deliver.Parent.IsRemote(), enqueue.SpanContext.SpanID())
	}
	post := inside("POST", deliver.SpanContext.SpanID())
	checkPost(t, post, deliver, hooks[len(hooks)-1], traceID)
}

// checkPost checks a webhook delivery, its POST and the headers the
// receiver got.
func checkPost(t *testing.T, post, deliver tracetest.SpanStub, hook http.Header, traceID trace.TraceID) {
	t.Helper()
	want(t, deliver, map[string]string{"adcp.webhook.outcome": "delivered", "adcp.task.status": "completed", "adcp.attempts": "1"})
	want(t, post, map[string]string{"http.request.method": "POST", "adcp.webhook.attempt": "1", "http.response.status_code": "204",
		"server.address": "127.0.0.1"})
	if post.SpanKind != trace.SpanKindClient {
		t.Errorf("the webhook POST is a %v span", post.SpanKind)
	}
	if tp := hook.Get("traceparent"); !strings.Contains(tp, traceID.String()) || !strings.Contains(tp, post.SpanContext.SpanID().String()) {
		t.Errorf("the webhook's traceparent %q does not name the POST span %s of trace %s", tp, post.SpanContext.SpanID(), traceID)
	}
}

// points returns the data points of the metric name, as attribute maps
// with their values (a histogram's count, a sum's value).
func points(t *testing.T, rm metricdata.ResourceMetrics, name string) []point {
	t.Helper()
	var out []point
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != name {
				continue
			}
			switch d := m.Data.(type) {
			case metricdata.Histogram[float64]:
				for _, p := range d.DataPoints {
					out = append(out, point{p.Attributes, float64(p.Count)})
				}
			case metricdata.Sum[int64]:
				for _, p := range d.DataPoints {
					out = append(out, point{p.Attributes, float64(p.Value)})
				}
			}
		}
	}
	return out
}

type point struct {
	attrs attribute.Set
	value float64
}

// sum adds the values of the points having every attribute of match.
func sum(ps []point, match map[string]string) float64 {
	total := 0.0
	for _, p := range ps {
		ok := true
		for k, v := range match {
			if got, has := p.attrs.Value(attribute.Key(k)); !has || got.String() != v {
				ok = false
			}
		}
		if ok {
			total += p.value
		}
	}
	return total
}

func checkSellerMetrics(t *testing.T, g *rig, transport string) {
	t.Helper()
	rm := g.seller.metrics(t)
	duration := "mcp.server.operation.duration"
	if transport == "a2a" {
		duration = "rpc.server.call.duration"
	}
	calls := points(t, rm, duration)
	idempotent := g.tool("create_media_buy").IdempotencyRequired
	cases := []struct {
		match map[string]string
		n     float64
	}{
		{map[string]string{"gen_ai.tool.name": "create_media_buy", "adcp.transport": transport, "adcp.release": g.spec.Version(), "adcp.task.status": "completed"}, 2},
		{map[string]string{"gen_ai.tool.name": "get_products", "adcp.error.code": "INVALID_REQUEST", "error.type": "tool_error", "adcp.task.status": "failed"}, 1},
		{map[string]string{"gen_ai.tool.name": "sync_creatives", "adcp.task.status": "submitted"}, 1},
	}
	if idempotent {
		cases = append(cases, struct {
			match map[string]string
			n     float64
		}{map[string]string{"gen_ai.tool.name": "create_media_buy", "adcp.error.code": conflictCode(g.spec)}, 1})
	}
	for _, c := range cases {
		if got := sum(calls, c.match); got != c.n {
			t.Errorf("%s%v: %v calls, want %v", duration, c.match, got, c.n)
		}
	}
	if idempotent {
		idem := points(t, rm, "adcp.idempotency.requests")
		for outcome, n := range map[string]float64{"claimed": 1, "replay": 1, "conflict": 1} {
			if got := sum(idem, map[string]string{"adcp.idempotency.outcome": outcome, "gen_ai.tool.name": "create_media_buy"}); got != n {
				t.Errorf("adcp.idempotency.requests{%s}: %v, want %v", outcome, got, n)
			}
		}
		if got := sum(points(t, rm, "adcp.store.operation.duration"), map[string]string{"adcp.store.operation": "claim"}); got < 3 {
			t.Errorf("adcp.store.operation.duration{claim}: %v, want 3", got)
		}
	}
	webhooks := 1.0
	if g.tool("create_media_buy").Mutating {
		webhooks++
	}
	if got := sum(points(t, rm, "adcp.webhook.deliveries"), map[string]string{"adcp.webhook.outcome": "delivered", "adcp.task.status": "completed"}); got != webhooks {
		t.Errorf("adcp.webhook.deliveries{delivered}: %v, want %v", got, webhooks)
	}
	if got := sum(points(t, rm, "adcp.webhook.delivery.age"), map[string]string{"adcp.webhook.outcome": "delivered"}); got != webhooks {
		t.Errorf("adcp.webhook.delivery.age{delivered}: %v points, want %v", got, webhooks)
	}
	if got := sum(points(t, rm, "adcp.webhook.pending"), nil); got != 0 {
		t.Errorf("adcp.webhook.pending: %v after every delivery ended", got)
	}
	pending := points(t, rm, "adcp.task.pending")
	if len(pending) == 0 {
		t.Error("no adcp.task.pending")
	}
	if got := sum(pending, nil); got != 0 {
		t.Errorf("adcp.task.pending: %v after every task ended", got)
	}
	if got := sum(points(t, rm, "adcp.store.operation.duration"), map[string]string{"adcp.store.operation": "create_task"}); got < 1 {
		t.Errorf("adcp.store.operation.duration{create_task}: %v", got)
	}
	if g.signs {
		if got := sum(points(t, rm, "adcp.signature.verifications"), map[string]string{"adcp.signature.verdict": "verified"}); got < 2 {
			t.Errorf("adcp.signature.verifications{verified}: %v, want 2", got)
		}
	}
}

func checkBuyerMetrics(t *testing.T, g *rig, b *buyerSide, transport string) {
	t.Helper()
	rm := b.metrics(t)
	duration := "mcp.client.operation.duration"
	if transport == "a2a" {
		duration = "rpc.client.call.duration"
	}
	calls := points(t, rm, duration)
	if got := sum(calls, map[string]string{"gen_ai.tool.name": "create_media_buy", "adcp.task.status": "completed", "adcp.transport": transport}); got != 2 {
		t.Errorf("%s{create_media_buy, completed}: %v, want 2", duration, got)
	}
	// A code the release does not list is no attribute value: a seller's
	// codes are not a bounded set.
	code := "INVALID_REQUEST"
	if _, listed := g.spec.Recovery(code); !listed {
		code = "_OTHER"
	}
	if got := sum(calls, map[string]string{"gen_ai.tool.name": "get_products", "adcp.error.code": code}); got != 1 {
		t.Errorf("%s{get_products, %s}: %v, want 1", duration, code, got)
	}
}

// A webhook the receiver refuses once (503) is tried again (the outbox's
// retry): two attempts,
// each a span continuing the update's trace, the first retrying (its
// error.type the status), the second delivered as attempt 2; the metrics
// count one of each, and nothing is left pending.
func TestWebhookRetried(t *testing.T) {
	for _, r := range releases(t) {
		if r.version != "3.1.19" {
			continue
		}
		g := newRig(t, r)
		g.hookFail = 1 // create_media_buy's first post
		b := g.buyer(t, "mcp")
		g.scenario(t, b)
		var attempts []tracetest.SpanStub
		for _, s := range named(g.seller.spans.GetSpans(), "adcp.webhook.deliver") {
			if attrs(s.Attributes)["gen_ai.tool.name"].AsString() == "create_media_buy" {
				attempts = append(attempts, s)
			}
		}
		if len(attempts) != 2 {
			for _, s := range named(g.seller.spans.GetSpans(), "adcp.webhook.deliver") {
				t.Log(kvs(s.Attributes))
			}
			t.Fatalf("%d attempts at create_media_buy's webhook, want 2", len(attempts))
		}
		want(t, attempts[0], map[string]string{"adcp.webhook.outcome": "retrying", "adcp.attempts": "1", "http.response.status_code": "503", "error.type": "503"})
		want(t, attempts[1], map[string]string{"adcp.webhook.outcome": "delivered", "adcp.attempts": "2"})
		if attempts[0].Status.Code != codes.Error || attempts[0].Parent.SpanID() != attempts[1].Parent.SpanID() ||
			attempts[0].SpanContext.TraceID() != attempts[1].SpanContext.TraceID() {
			t.Errorf("the attempts: status %v, parents %s and %s", attempts[0].Status.Code, attempts[0].Parent.SpanID(), attempts[1].Parent.SpanID())
		}
		rm := g.seller.metrics(t)
		deliveries := points(t, rm, "adcp.webhook.deliveries")
		for outcome, n := range map[string]float64{"retrying": 1, "delivered": 2, "failed": 0} {
			if got := sum(deliveries, map[string]string{"adcp.webhook.outcome": outcome}); got != n {
				t.Errorf("adcp.webhook.deliveries{%s}: %v, want %v", outcome, got, n)
			}
		}
		if got := sum(points(t, rm, "adcp.webhook.pending"), nil); got != 0 {
			t.Errorf("adcp.webhook.pending: %v", got)
		}
		return
	}
	t.Fatal("no release 3.1.19")
}
