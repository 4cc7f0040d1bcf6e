package a2aserver_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/adcpgen/adcpgen/internal/specseller"
	"github.com/adcpgen/adcpgen/runtime/a2aserver"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// TestReleases: one A2A endpoint serving 3.0.26, 3.1.19 and 3.2.0-beta.5,
// each by its own server: the card lists every release's skills once, and
// each message is answered in the release its pin resolves to, echoed as
// adcp_version in the DataPart, failed tasks included.
func TestReleases(t *testing.T) {
	srv := specseller.Endpoint(t, seller.Options{})
	mux := http.NewServeMux()
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	opts := a2aserver.Options{URL: ts.URL + "/a2a"}
	mux.Handle("/a2a", a2aserver.NewHandler(srv, opts))
	mux.Handle("GET "+a2aserver.CardPath, a2aserver.NewCardHandler(srv, opts))
	c := dial(t, ts.URL, "")

	var skills []string
	for _, sk := range c.Card().Skills {
		skills = append(skills, sk.ID)
	}
	if !slices.Equal(skills, []string{"get_adcp_capabilities", "list_accounts"}) {
		t.Errorf("skills %v", skills)
	}
	for _, tc := range []struct{ input, echo, code string }{
		{input: `{"adcp_version":"3.0","adcp_major_version":3}`, echo: "3.0"},
		{input: `{"adcp_version":"3.1","adcp_major_version":3}`, echo: "3.1"},
		{input: `{"adcp_version":"3.2-beta.5","adcp_major_version":3}`, echo: "3.2-beta.5"},
		{input: `{"adcp_version":"3.1","fail":true}`, echo: "3.1", code: "ACCOUNT_NOT_FOUND"},
		{input: `{"adcp_major_version":99}`, code: "VERSION_UNSUPPORTED"},
	} {
		r, result := send(t, c, "list_accounts", tc.input)
		data := wire.Lenient(r.Data)
		if r.Error != nil {
			wire.Lenient(result).Get("artifacts").Index(0).Get("parts").Elems(func(p wire.Lenient) bool {
				if p.Get("data").Get("adcp_error").Present() {
					data = p.Get("data")
				}
				return true
			})
			if r.Error.Code != tc.code {
				t.Errorf("%s: %s", tc.input, result)
			}
		} else if tc.code != "" {
			t.Errorf("%s: served: %s", tc.input, result)
		}
		if got, _ := data.Get("adcp_version").AsString(); got != tc.echo {
			t.Errorf("%s: echo %q, want %q: %s", tc.input, got, tc.echo, result)
		}
	}
}
