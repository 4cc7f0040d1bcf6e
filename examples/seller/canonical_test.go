package main

import (
	"encoding/json"
	"testing"

	"example.com/seller/adcp32"

	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// buyer32 is a buyer pinned at 3.2-beta.5 over MCP.
func buyer32(t *testing.T, base string) *buyer.Client {
	t.Helper()
	m, err := mcpclient.ConnectHTTP(t.Context(), base+"/mcp", client(testKey), mcpclient.ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = m.Close() })
	c, err := buyer.New(adcp32.Spec(), m)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestCanonical32: 3.2's canonical creative wire at the 3.2 edge, in
// answers the seller validates against 3.2's schemas.
func TestCanonical32(t *testing.T) {
	c := buyer32(t, startAgent(t))
	for _, tc := range []struct{ name, tool, args, path, want string }{
		{"a canonical preview says the quality it rendered", "preview_creative", `{` + acme + `,"request_type":"single","quality":"production",` +
			`"creative_manifest":{"format_kind":"image","assets":{"image":{"asset_type":"image","url":"https://cdn.example/b.png","width":300,"height":250}}}}`,
			"quality_used", `"draft"`},
	} {
		r, err := c.Invoke(t.Context(), tc.tool, json.RawMessage(tc.args))
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if got := wire.Lenient(r.Data).Get(tc.path); string(got) != tc.want {
			t.Errorf("%s: %s = %s, want %s (%s)", tc.name, tc.path, got, tc.want, r.Data)
		}
	}
}
