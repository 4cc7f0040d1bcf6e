package oteladcp_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/adcpgen/adcpgen/runtime/signing"
)

// No span or metric of either side carries a secret or a payload: not the
// API key, the webhook's bearer or the token in its URL, the idempotency
// key, a marker inside the requests, nor the buyer's private signing key;
// on every release, over both transports, with the scenario's successes
// and failures and a call whose signature the seller refuses.
func TestNoSecret(t *testing.T) {
	secrets := map[string]string{"API key": apiKey, "webhook bearer": hookBearer, "webhook URL token": hookToken,
		"idempotency key": idemKey, "payload": payloadTag, "private signing key": buyerKey.d}
	for _, r := range releases(t) {
		t.Run(r.version, func(t *testing.T) {
			for _, transport := range []string{"mcp", "a2a"} {
				t.Run(transport, func(t *testing.T) {
					g, b := fullRun(t, r, transport)
					dump := dumpSpans(spans(b.signal, g.seller)) + dumpMetrics(g.seller.metrics(t)) + dumpMetrics(b.metrics(t))
					if len(dump) < 2000 {
						t.Fatalf("only %d bytes of telemetry", len(dump))
					}
					for what, s := range secrets {
						if i := strings.Index(dump, s); i >= 0 {
							t.Errorf("the %s is in the telemetry: ...%s...", what, dump[max(0, i-200):min(len(dump), i+len(s)+50)])
						}
					}
				})
			}
		})
	}
}

// fullRun runs the scenario on a new rig of release r over transport,
// then, where the release signs requests, a call signed with a key the
// seller does not know, which is refused.
func fullRun(t *testing.T, r release, transport string) (*rig, *buyerSide) {
	t.Helper()
	g := newRig(t, r)
	b := g.buyer(t, transport)
	g.scenario(t, b)
	if !g.signs {
		return g, b
	}
	forged := g.forgedBuyer(t, transport)
	if _, err := forged.client.Invoke(t.Context(), "create_media_buy", g.createArgs("5000")); err == nil {
		t.Fatal("a call signed with an unknown key was served")
	}
	if err := b.spans.ExportSpans(t.Context(), forged.spans.GetSpans().Snapshots()); err != nil {
		t.Fatal(err)
	}
	refused := false
	var seen []string
	for _, s := range named(g.seller.spans.GetSpans(), "adcp.signature.verify") {
		a := attrs(s.Attributes)
		seen = append(seen, kvs(s.Attributes))
		refused = refused || a["adcp.signature.verdict"].AsString() == "refused" &&
			a["adcp.signature.error_code"].AsString() == string(signing.CodeInvalid) && a["error.type"].AsString() == "refused"
	}
	if !refused {
		t.Errorf("no span of the refused signature: %v", seen)
	}
	return g, b
}

// forgedBuyer is a buyer signing with a key the seller does not know,
// under the known key id.
func (g *rig) forgedBuyer(t *testing.T, transport string) *buyerSide {
	t.Helper()
	key, _, err := keys.GenerateKey(keys.Ed25519, keyID, nil)
	if err != nil {
		t.Fatal(err)
	}
	saved := buyerKey.key
	buyerKey.key = key
	defer func() { buyerKey.key = saved }()
	return g.buyer(t, transport)
}

// dumpSpans writes everything a span exports: names, attributes, events,
// links, status, resource and scope.
func dumpSpans(all tracetest.SpanStubs) string {
	var b strings.Builder
	for _, s := range all {
		fmt.Fprintf(&b, "%s|%s|%s|%s|%s\n", s.Name, s.Status.Description, kvs(s.Attributes), kvs(s.Resource.Attributes()), s.InstrumentationScope.Name)
		for _, e := range s.Events {
			fmt.Fprintf(&b, " event %s %s\n", e.Name, kvs(e.Attributes))
		}
		for _, l := range s.Links {
			fmt.Fprintf(&b, " link %s\n", kvs(l.Attributes))
		}
	}
	return b.String()
}

// dumpMetrics writes every metric's name, description, unit and the
// attributes of its points.
func dumpMetrics(rm metricdata.ResourceMetrics) string {
	var b strings.Builder
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			fmt.Fprintf(&b, "%s|%s|%s\n", m.Name, m.Description, m.Unit)
			raw, _ := json.Marshal(m.Data)
			b.Write(raw)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func kvs(kv []attribute.KeyValue) string {
	var b strings.Builder
	for _, a := range kv {
		fmt.Fprintf(&b, "%s=%s;", a.Key, a.Value.String())
	}
	return b.String()
}
