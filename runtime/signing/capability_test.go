package signing_test

import (
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/runtime/signing"
)

func TestParseCapability(t *testing.T) {
	cases := []struct {
		name, caps string
		want       signing.Capability
		err        string
	}{
		{"no block", `{"adcp":{"major_versions":[3]}}`, signing.Capability{}, ""},
		{"null block", `{"request_signing":null}`, signing.Capability{}, ""},
		{"full", `{"request_signing":{"supported":true,"covers_content_digest":"forbidden","required_for":["create_media_buy"],"warn_for":[],"supported_for":["create_media_buy","sync_creatives"],"protocol_methods_required_for":["tasks/cancel"],"protocol_methods_supported_for":["tasks/cancel"]}}`,
			signing.Capability{Supported: true, CoversContentDigest: signing.DigestForbidden, Policy: signing.OperationPolicy{
				RequiredFor: []string{"create_media_buy"}, SupportedFor: []string{"create_media_buy", "sync_creatives"},
				ProtocolMethodsRequiredFor: []string{"tasks/cancel"}, ProtocolMethodsSupportedFor: []string{"tasks/cancel"}}}, ""},
		{"supported only", `{"request_signing":{"supported":false}}`, signing.Capability{}, ""},
		{"duplicate key", `{"request_signing":{"supported":true,"supported":false}}`, signing.Capability{}, "duplicate"},
		{"supported not a boolean", `{"request_signing":{"supported":"true"}}`, signing.Capability{}, "not a boolean"},
		{"unknown digest policy", `{"request_signing":{"supported":true,"covers_content_digest":"sometimes"}}`, signing.Capability{}, "covers_content_digest"},
		{"list not an array", `{"request_signing":{"supported":true,"supported_for":"create_media_buy"}}`, signing.Capability{}, "not an array"},
		{"list of numbers", `{"request_signing":{"supported":true,"supported_for":[1]}}`, signing.Capability{}, "non-string"},
		{"block not an object", `{"request_signing":true}`, signing.Capability{}, "not an object"},
		{"not an object", `[]`, signing.Capability{}, "not an object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := signing.ParseCapability([]byte(c.caps))
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil || !sameCapability(got, c.want) {
				t.Fatalf("got %+v %v, want %+v", got, err, c.want)
			}
		})
	}
}

func sameCapability(a, b signing.Capability) bool {
	eq := func(x, y []string) bool { return strings.Join(x, ",") == strings.Join(y, ",") }
	p, q := a.Policy, b.Policy
	return a.Supported == b.Supported && a.CoversContentDigest == b.CoversContentDigest &&
		eq(p.SupportedFor, q.SupportedFor) && eq(p.WarnFor, q.WarnFor) && eq(p.RequiredFor, q.RequiredFor) &&
		eq(p.ProtocolMethodsSupportedFor, q.ProtocolMethodsSupportedFor) && eq(p.ProtocolMethodsWarnFor, q.ProtocolMethodsWarnFor) &&
		eq(p.ProtocolMethodsRequiredFor, q.ProtocolMethodsRequiredFor)
}

// Block writes what each version's schema defines, and reads back the same.
func TestCapabilityBlock(t *testing.T) {
	ops := signing.OperationPolicy{SupportedFor: []string{"create_media_buy", "update_media_buy"}, RequiredFor: []string{"create_media_buy"}}
	methods := ops
	methods.ProtocolMethodsSupportedFor, methods.ProtocolMethodsRequiredFor = []string{"tasks/cancel"}, []string{"tasks/cancel"}
	cases := []struct {
		version string
		c       signing.Capability
		want    string
		err     string
	}{
		{"3.0.26", signing.Capability{Supported: true, Policy: ops},
			`{"supported":true,"covers_content_digest":"either","required_for":["create_media_buy"],"warn_for":[],"supported_for":["create_media_buy","update_media_buy"]}`, ""},
		{"3.0.26", signing.Capability{Supported: true, Policy: methods}, "", "no request_signing.protocol_methods_required_for"},
		{"3.1.19", signing.Capability{Supported: true, CoversContentDigest: signing.DigestForbidden, Policy: methods},
			`{"supported":true,"covers_content_digest":"forbidden","required_for":["create_media_buy"],"warn_for":[],"supported_for":["create_media_buy","update_media_buy"],"protocol_methods_required_for":["tasks/cancel"],"protocol_methods_warn_for":[],"protocol_methods_supported_for":["tasks/cancel"]}`, ""},
		{"3.2.0-beta.3", signing.Capability{Supported: true, Policy: ops},
			`{"supported":true,"covers_content_digest":"required","required_for":["create_media_buy"],"warn_for":[],"supported_for":["create_media_buy","update_media_buy"],"protocol_methods_required_for":[],"protocol_methods_warn_for":[],"protocol_methods_supported_for":[]}`, ""},
		{"3.2.0-beta.5", signing.Capability{Supported: true, CoversContentDigest: signing.DigestEither}, "", `"required" only`},
		{"3.1.19", signing.Capability{Supported: true, Policy: signing.OperationPolicy{RequiredFor: []string{"create_media_buy"}}}, "", "supported_for does not"},
		{"2.5.3", signing.Capability{Supported: true}, "", "3.x only"},
	}
	for _, c := range cases {
		t.Run(c.version, func(t *testing.T) {
			got, err := c.c.Block(c.version)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil || string(got) != c.want {
				t.Fatalf("got %s %v\nwant %s", got, err, c.want)
			}
			back, err := signing.ParseCapability([]byte(`{"request_signing":` + string(got) + `}`))
			want := c.c
			if want.CoversContentDigest == "" {
				want.CoversContentDigest = back.CoversContentDigest
			}
			if err != nil || !sameCapability(back, want) {
				t.Fatalf("read back %+v %v", back, err)
			}
		})
	}
}
