package main

import (
	"slices"
	"strings"
	"testing"
)

// A bundle's release is its version at release precision.
func TestRelease(t *testing.T) {
	for bundle, want := range map[string]string{"3.0.25": "3.0", "3.1.18": "3.1", "3.2.0-beta.5": "3.2-beta.5", "3.2.0": "3.2", "latest": "latest"} {
		if got := release(bundle); got != want {
			t.Errorf("release(%q) = %q, want %q", bundle, got, want)
		}
	}
}

// The bundles graded are those of the releases the seller lists in
// supported_versions, or of 3.0 for a seller that lists only major
// versions; its protocol methods required signed are read too.
func TestServedBundles(t *testing.T) {
	bundles := []string{"3.0.25", "3.1.18", "3.2.0-beta.5"}
	for _, tc := range []struct {
		name, answer      string
		served, not, sigs []string
	}{
		{"every release", `{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"adcp":{"major_versions":[3],"supported_versions":["3.0","3.1","3.2-beta.5"]},` +
			`"request_signing":{"supported":true,"protocol_methods_required_for":["tasks/cancel"]}}}}`,
			bundles, nil, []string{"tasks/cancel"}},
		{"a 3.0 seller", `{"jsonrpc":"2.0","id":1,"result":{"structuredContent":{"adcp":{"major_versions":[3]}}}}`,
			[]string{"3.0.25"}, []string{"3.1.18", "3.2.0-beta.5"}, nil},
		{"over SSE", "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"structuredContent\":{\"adcp\":{\"supported_versions\":[\"3.1\"]}}}}\n\n",
			[]string{"3.1.18"}, []string{"3.0.25", "3.2.0-beta.5"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			caps, err := parseCaps([]byte(tc.answer))
			if err != nil {
				t.Fatal(err)
			}
			served, not := servedBundles(bundles, caps)
			if !slices.Equal(served, tc.served) || !slices.Equal(not, tc.not) || !slices.Equal(caps.ProtocolMethodsRequiredFor, tc.sigs) {
				t.Errorf("served %q, not %q, methods %q", served, not, caps.ProtocolMethodsRequiredFor)
			}
		})
	}
	for _, bad := range []string{`{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"no"}}`, `{"jsonrpc":"2.0","id":1,"result":{}}`, "<html>"} {
		if _, err := parseCaps([]byte(bad)); err == nil || !strings.Contains(err.Error(), "get_adcp_capabilities") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}
