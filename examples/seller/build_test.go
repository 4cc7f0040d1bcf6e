package main

import (
	"fmt"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/wire"
)

// From 3.1 the seller advertises its canonical builds
// (creative.supported_formats, each with a capability_id), builds one
// named by target_format_id (3.1) or target_capability_id (3.2) into a
// canonical manifest (format_kind, no format_id), and refuses an unknown
// target with FORMAT_NOT_SUPPORTED on the member that named it; 3.0 keeps
// its answers (no supported_formats, UNSUPPORTED_FEATURE).
func TestCanonicalBuilds(t *testing.T) {
	cs := mcpBuyer(t, startAgent(t), testKey)
	acme := `"account":{"brand":{"domain":"acmeoutdoor.example"},"operator":"pinnacle-agency.example"},"brand":{"domain":"acmeoutdoor.example"},"message":"A summer sale image."`
	for _, tc := range []struct {
		version, target, field string
	}{
		{"3.1", `"target_format_id":{"agent_url":"https://x.example","id":%q}`, "target_format_id"},
		{"3.2-beta.5", `"target_capability_id":%q`, "target_capability_id"},
	} {
		caps := call(t, cs, "get_adcp_capabilities", `{"adcp_version":"`+tc.version+`"}`)
		first := wire.Lenient(caps.Data).Get("creative").Get("supported_formats").Index(0)
		id, _ := first.Get("capability_id").AsString()
		kind, _ := first.Get("format").Get("format_kind").AsString()
		if id == "" || kind != "image" {
			t.Fatalf("%s capabilities: %s", tc.version, caps.Data)
		}
		target := func(id string) string { return fmt.Sprintf(tc.target, id) }
		r := call(t, cs, "build_creative", `{"adcp_version":"`+tc.version+`","idempotency_key":"build-`+tc.version+`-000001",`+acme+`,`+target(id)+`}`)
		m := wire.Lenient(r.Data).Get("creative_manifest")
		if k, _ := m.Get("format_kind").AsString(); r.Error != nil || k != "image" || m.Get("format_id").Present() || !m.Get("assets").Get("image_main").Present() {
			t.Errorf("%s build: %s %+v", tc.version, r.Data, r.Error)
		}
		r = call(t, cs, "build_creative", `{"adcp_version":"`+tc.version+`","idempotency_key":"build-`+tc.version+`-000002",`+acme+`,`+target("unknown_takeover")+`}`)
		if r.Error == nil || r.Error.Code != "FORMAT_NOT_SUPPORTED" || r.Error.Field != tc.field || r.Error.Recovery != "correctable" {
			t.Errorf("%s unknown target: %s %+v", tc.version, r.Data, r.Error)
		}
	}
	caps := call(t, cs, "get_adcp_capabilities", `{}`)
	if wire.Lenient(caps.Data).Get("creative").Get("supported_formats").Present() {
		t.Errorf("3.0 capabilities list supported_formats: %s", caps.Data)
	}
	r := call(t, cs, "build_creative", `{"idempotency_key":"build-3.0-000003",`+acme+`,"target_format_id":{"agent_url":"https://x.example","id":"image_300x250"}}`)
	if r.Error == nil || r.Error.Code != "UNSUPPORTED_FEATURE" {
		t.Errorf("3.0 build: %s %+v", r.Data, r.Error)
	}
}
