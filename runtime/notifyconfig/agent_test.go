package notifyconfig_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/internal/specseller"
	"github.com/adcpgen/adcpgen/runtime/notifyconfig"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// sync_agent_notification_configs on a 3.2 seller, which validates every
// request and answer against 3.2.0-beta.5: the caller's set registered,
// echoed, cleared by a dry run without change, then cleared; another
// caller's set apart; an entry of another surface refused with the field
// named and the set unchanged; the capability block valid beside it. A
// release without the tool (3.1.19) cannot serve it.
func TestAgentTool(t *testing.T) {
	tree, sp := specseller.Open(t, "3.2.0-beta.5")
	base := `{"supported_protocols":["media_buy"],"account":{"supported_billing":["operator"]},"media_buy":{"supported_pricing_models":["cpm"]}}`
	caps := `{"supported_protocols":["media_buy"],"account":{"supported_billing":["operator"]},"media_buy":{"supported_pricing_models":["cpm"]},` +
		`"adcp":{"idempotency":{"supported":true,"replay_ttl_seconds":86400},"capability_changes":` +
		string(notifyconfig.CapabilityChanges(notifyconfig.CapabilitiesVersion([]byte(base)), time.Hour)) + `}}`
	srv, err := seller.New(sp, seller.Options{Schemas: tree, ValidateResponses: true, Capabilities: json.RawMessage(caps)})
	if err != nil {
		t.Fatal(err)
	}
	keeper := notifyconfig.New(notifyconfig.Options{})
	if err := notifyconfig.ServeAgentTool(srv, keeper, notifyconfig.AgentToolOptions{}); err != nil {
		t.Fatal(err)
	}
	call := func(principal, args string) wire.Lenient {
		t.Helper()
		a := srv.Serve(context.Background(), notifyconfig.AgentTool, &seller.Call{Arguments: json.RawMessage(args), Principal: seller.Principal{ID: principal}, Transport: seller.TransportMCP})
		if a.Error != nil {
			t.Fatalf("%s: %+v", args, a.Error)
		}
		return wire.Lenient(a.Body)
	}
	const registry = `{"subscriber_id":"registry-cache","url":"https://registry.example/hooks/caps","event_types":["capabilities.changed"],"active":false}`
	if v := call("alice", `{"idempotency_key":"agent-notification-0001","notification_configs":[`+registry+`],"context":{"c":1}}`); !v.Get("action").StringIs("updated") ||
		!v.Get("notification_configs").Index(0).Get("subscriber_id").StringIs("registry-cache") || string(v.Get("context").Get("c")) != "1" {
		t.Fatalf("register: %s", v)
	}
	if v := call("bob", `{"idempotency_key":"agent-notification-0002","notification_configs":[]}`); !v.Get("action").StringIs("unchanged") {
		t.Fatalf("another caller's set: %s", v)
	}
	if v := call("alice", `{"idempotency_key":"agent-notification-0003","notification_configs":[],"dry_run":true}`); !v.Get("action").StringIs("cleared") || string(v.Get("dry_run")) != "true" {
		t.Fatalf("dry-run clear: %s", v)
	}
	if set, _ := keeper.List(context.Background(), notifyconfig.AgentOwner("alice")); len(set) != 1 {
		t.Fatal("a dry run cleared the set")
	}
	wrong := strings.Replace(registry, `"capabilities.changed"`, `"creative.purged"`, 1)
	if v := call("alice", `{"idempotency_key":"agent-notification-0004","notification_configs":[`+wrong+`]}`); !v.Get("action").StringIs("failed") ||
		!v.Get("errors").Index(0).Get("field").StringIs("notification_configs[0].event_types[0]") ||
		!v.Get("notification_configs").Index(0).Get("event_types").Index(0).StringIs("capabilities.changed") {
		t.Fatalf("an account event: %s", v)
	}
	if v := call("alice", `{"idempotency_key":"agent-notification-0005","notification_configs":[]}`); !v.Get("action").StringIs("cleared") {
		t.Fatalf("clear: %s", v)
	}
	if a := srv.Serve(context.Background(), notifyconfig.AgentTool, &seller.Call{Arguments: json.RawMessage(`{"idempotency_key":"agent-notification-0006","notification_configs":[]}`),
		Transport: seller.TransportMCP}); a.Error == nil || a.Error.Code != "AUTH_REQUIRED" {
		t.Fatalf("anonymous: %+v", a)
	}
	if caps := srv.Serve(context.Background(), "get_adcp_capabilities", &seller.Call{Arguments: json.RawMessage(`{}`), Transport: seller.TransportMCP}); caps.Error != nil ||
		!wire.Lenient(caps.Body).Get("adcp").Get("capability_changes").Get("capabilities_version").Present() {
		t.Fatalf("capabilities: %+v %s", caps.Error, caps.Body)
	}

	tree31, sp31 := specseller.Open(t, "3.1.19")
	srv31, err := seller.New(sp31, seller.Options{Schemas: tree31})
	if err != nil {
		t.Fatal(err)
	}
	if err := notifyconfig.ServeAgentTool(srv31, keeper, notifyconfig.AgentToolOptions{}); err == nil {
		t.Fatal("served on 3.1.19, which has no such tool")
	}
}
