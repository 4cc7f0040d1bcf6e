package mcpserver_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/internal/specseller"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// TestReleases: one MCP endpoint serving 3.0.26, 3.1.19 and 3.2.0-beta.5,
// each by its own server: tools/list lists every release's tools once, and
// each call is answered in the release its pin resolves to, echoed as
// adcp_version in structuredContent and its text, errors included.
func TestReleases(t *testing.T) {
	srv := specseller.Endpoint(t, seller.Options{})
	h, err := mcpserver.NewStreamableHandler(srv, mcpserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", h)
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	c := rawSession(t, ts.URL+"/mcp", "")

	names, err := c.ToolNames(t.Context())
	if err != nil || !slices.Equal(names, []string{"get_adcp_capabilities", "list_accounts"}) {
		t.Errorf("tools/list: %v %v", names, err)
	}
	for _, tc := range []struct{ args, echo, code string }{
		{args: `{"adcp_version":"3.0","adcp_major_version":3}`, echo: "3.0"},
		{args: `{"adcp_version":"3.1","adcp_major_version":3}`, echo: "3.1"},
		{args: `{"adcp_version":"3.2-beta.5","adcp_major_version":3}`, echo: "3.2-beta.5"},
		{args: `{"adcp_version":"3.2-beta.5","fail":true}`, echo: "3.2-beta.5", code: "ACCOUNT_NOT_FOUND"},
		{args: `{"adcp_version":"4.0","adcp_major_version":4}`, code: "VERSION_UNSUPPORTED"},
		{args: `{"adcp_version":"3.1.19"}`, code: "VERSION_UNSUPPORTED"},
	} {
		r, result := call(t, c, "list_accounts", tc.args)
		data := wire.Lenient(r.Data)
		if r.Error != nil {
			data = wire.Lenient(result).Get("structuredContent")
			if r.Error.Code != tc.code {
				t.Errorf("%s: %s", tc.args, result)
			}
		} else if tc.code != "" {
			t.Errorf("%s: served: %s", tc.args, result)
		}
		if got, _ := data.Get("adcp_version").AsString(); got != tc.echo {
			t.Errorf("%s: echo %q, want %q: %s", tc.args, got, tc.echo, result)
		}
		text, _ := wire.Lenient(result).Get("content").Index(0).Get("text").AsString()
		if tc.echo != "" && !strings.Contains(text, `"adcp_version":"`+tc.echo+`"`) {
			t.Errorf("%s: the text content has no echo: %s", tc.args, text)
		}
		if tc.code == "VERSION_UNSUPPORTED" && string(data.Get("adcp_error").Get("details").Get("supported_versions")) != `["3.0","3.1","3.2-beta.5"]` {
			t.Errorf("%s: details %s", tc.args, data)
		}
	}
}
