package seller_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/internal/sellertest"
	"github.com/adcpgen/adcpgen/runtime/seller"
)

// A framework piece's capability block joins the automatic answer, computed
// at each call; the seller's own Options.Capabilities member wins, and a nil
// block leaves the member out.
func TestSetCapability(t *testing.T) {
	for _, c := range []struct {
		name  string
		base  string
		block string // "" for a nil block
		want  string
	}{
		{name: "added", block: `{"scenarios":["force_media_buy_status"]}`,
			want: `{"adcp_version":"3.90-test","status":"completed","adcp":{"major_versions":[3],"supported_versions":["3.90-test"],"idempotency":{"supported":false}},"compliance_testing":{"scenarios":["force_media_buy_status"]},"supported_protocols":["creative","media_buy"]}`},
		{name: "nil leaves it out",
			want: `{"adcp_version":"3.90-test","status":"completed","adcp":{"major_versions":[3],"supported_versions":["3.90-test"],"idempotency":{"supported":false}},"supported_protocols":["creative","media_buy"]}`},
		{name: "the seller's own wins", base: `{"compliance_testing":{"scenarios":["simulate_delivery"]}}`, block: `{"scenarios":["force_media_buy_status"]}`,
			want: `{"adcp_version":"3.90-test","status":"completed","adcp":{"major_versions":[3],"supported_versions":["3.90-test"],"idempotency":{"supported":false}},"supported_protocols":["creative","media_buy"],"compliance_testing":{"scenarios":["simulate_delivery"]}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := sellertest.NewSeller(t, seller.Options{Capabilities: json.RawMessage(c.base)})
			calls := 0
			s.SetCapability("compliance_testing", func() json.RawMessage {
				calls++
				if c.block == "" {
					return nil
				}
				return json.RawMessage(c.block)
			})
			a := serve(s, "get_adcp_capabilities", `{}`)
			if a.Error != nil || string(a.Body) != c.want {
				t.Errorf("got  %s %v\nwant %s", a.Body, a.Error, c.want)
			}
			serve(s, "get_adcp_capabilities", `{}`)
			if calls != 2 && c.base == "" {
				t.Errorf("block computed %d times for two calls", calls)
			}
		})
	}
	// A block that is not JSON is never sent.
	s := sellertest.NewSeller(t, seller.Options{})
	s.SetCapability("compliance_testing", func() json.RawMessage { return json.RawMessage(`{"scenarios":`) })
	if a := serve(s, "get_adcp_capabilities", `{}`); a.Error == nil || a.Error.Code != "SERVICE_UNAVAILABLE" {
		t.Errorf("broken block sent: %s", a.Body)
	}
	defer func() {
		if recover() == nil {
			t.Error("a capability set twice must panic")
		}
	}()
	s.SetCapability("compliance_testing", func() json.RawMessage { return nil })
}

// A raw tool that owns its schema issues gets the call with the issues
// instead of the server's INVALID_REQUEST; the schema still applies to
// every other tool, and malformed bytes never reach any handler.
func TestOwnsSchemaIssues(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{})
	var got []string
	handler := func(_ context.Context, c *seller.Call) *seller.Answer {
		got = got[:0]
		for _, is := range c.SchemaIssues() {
			got = append(got, is.Keyword+" "+is.Pointer)
		}
		return &seller.Answer{Body: json.RawMessage(`{"creatives":[]}`)}
	}
	s.HandleRaw(seller.RawTool{Name: "own_issues", RequestSchema: "media-buy/get-products-request.json", OwnsSchemaIssues: true, Handler: handler})
	s.HandleRaw(seller.RawTool{Name: "server_issues", RequestSchema: "media-buy/get-products-request.json", Handler: handler})

	if a := serve(s, "own_issues", `{"brief":7}`); a.Error != nil || strings.Join(got, ",") != "required ,type /brief" {
		t.Errorf("own_issues: %v, issues %q", a.Error, got)
	}
	if a := serve(s, "own_issues", `{"buying_mode":"brief"}`); a.Error != nil || len(got) != 0 {
		t.Errorf("valid call: %v, issues %q", a.Error, got)
	}
	got = append(got[:0], "not called")
	if a := serve(s, "server_issues", `{"brief":7}`); a.Error == nil || a.Error.Code != "INVALID_REQUEST" || got[0] != "not called" {
		t.Errorf("server_issues: %v", a.Error)
	}
	if a := serve(s, "own_issues", `{"buying_mode":"brief","buying_mode":"wholesale"}`); a.Error == nil || a.Error.Code != "INVALID_REQUEST" || got[0] != "not called" {
		t.Errorf("a duplicate key reached the handler: %v", a.Error)
	}
}
