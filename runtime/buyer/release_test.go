package buyer_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/adcpgen/adcpgen/internal/specseller"
	"github.com/adcpgen/adcpgen/runtime/a2aclient"
	"github.com/adcpgen/adcpgen/runtime/a2aserver"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/spec"
)

// endpoint serves srv over MCP and A2A on loopback.
func endpoint(t *testing.T, srv *seller.Server) string {
	t.Helper()
	mux := http.NewServeMux()
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	h, err := mcpserver.NewStreamableHandler(srv, mcpserver.Options{Stateless: true, JSONResponse: true})
	if err != nil {
		t.Fatal(err)
	}
	opts := a2aserver.Options{URL: ts.URL + "/a2a"}
	mux.Handle("/mcp", h)
	mux.Handle("/a2a", a2aserver.NewHandler(srv, opts))
	mux.Handle("GET "+a2aserver.CardPath, a2aserver.NewCardHandler(srv, opts))
	return ts.URL
}

func transports(t *testing.T, base string) map[string]buyer.Transport {
	t.Helper()
	m, err := mcpclient.ConnectHTTP(t.Context(), base+"/mcp", nil, mcpclient.ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	a, err := a2aclient.Dial(t.Context(), base, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return map[string]buyer.Transport{"mcp": m, "a2a": a}
}

// specOf is the untyped Spec of a published version (its manifest's
// tools), under another version string when as is set.
func specOf(t *testing.T, version, as string) *registry.Spec {
	t.Helper()
	_, sp := specseller.Open(t, version)
	if as == "" {
		return sp
	}
	return registry.NewSpec(registry.SpecConfig{Version: as, Tools: sp.Tools(), Codes: sp.Codes()})
}

// TestClientReleases: clients of every published release against one
// seller of all three, over MCP and A2A: the pin declared and echoed, the
// seller's releases read once, VERSION_UNSUPPORTED typed with the seller's
// releases, the same verdict before sending once they are known, Pin.
func TestClientReleases(t *testing.T) {
	base := endpoint(t, specseller.Endpoint(t, seller.Options{}))
	ctx := context.Background()
	for proto, tr := range transports(t, base) {
		for _, v := range specseller.Versions {
			c, err := buyer.New(specOf(t, v.Version, ""), tr)
			if err != nil {
				t.Fatal(err)
			}
			rels, err := c.Releases(ctx)
			if err != nil || !slices.Equal(rels, []string{"3.0", "3.1", "3.2-beta.5"}) {
				t.Errorf("%s %s: Releases %v %v", proto, v.Version, rels, err)
			}
			reply, err := c.Invoke(ctx, "list_accounts", nil)
			// A client without types sends adcp_version only where the
			// pin's schemas declare it (3.1 and later); 3.0's major alone
			// goes to the highest release of the major, as versioning.mdx
			// says.
			want := c.Release()
			if want == "3.0" {
				want = "3.1"
			}
			if err != nil || reply.Release != want {
				t.Errorf("%s %s: answered in %+v %v, want %s", proto, v.Version, reply, err, want)
			}
		}

		// A release the seller does not speak: its VERSION_UNSUPPORTED,
		// typed, then the same verdict before sending.
		c, err := buyer.New(specOf(t, "3.1.19", "4.0.0"), tr)
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Invoke(ctx, "list_accounts", nil)
		var ve *buyer.VersionError
		if !errors.As(err, &ve) || ve.Err == nil || ve.Err.Code != "VERSION_UNSUPPORTED" || ve.Pin != "4.0" ||
			!slices.Equal(ve.Supported, []string{"3.0", "3.1", "3.2-beta.5"}) || !slices.Equal(ve.Majors, []int{3}) {
			t.Fatalf("%s: a 4.0 pin: %v", proto, err)
		}
		_, err = c.Invoke(ctx, "list_accounts", nil)
		if !errors.As(err, &ve) || ve.Err != nil || ve.Served != "" {
			t.Errorf("%s: a 4.0 pin once the releases are known: %v", proto, err)
		}
		down, err := buyer.New(specOf(t, "3.1.19", "3.3.0"), tr)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := down.Releases(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err = down.Invoke(ctx, "list_accounts", nil); !errors.As(err, &ve) || ve.Served != "3.1" {
			t.Errorf("%s: a 3.3 pin the seller would downshift: %v", proto, err)
		}
		// The explicit re-pin.
		re, err := c.Pin(specOf(t, "3.2.0-beta.5", ""))
		if err != nil {
			t.Fatal(err)
		}
		if reply, err := re.Invoke(ctx, "list_accounts", nil); err != nil || reply.Release != "3.2-beta.5" || re.Release() != "3.2-beta.5" {
			t.Errorf("%s: re-pinned: %+v %v", proto, reply, err)
		}
	}
}

// TestClientPreV3: a seller that does not list get_adcp_capabilities is
// pre-v3, over MCP and A2A.
func TestClientPreV3(t *testing.T) {
	_, sp := specseller.Open(t, "3.0.26")
	var tools registry.Tools
	for _, tl := range sp.Tools() {
		if tl.Name != "get_adcp_capabilities" {
			tools = append(tools, tl)
		}
	}
	srv, err := seller.New(registry.NewSpec(registry.SpecConfig{Version: "2.5.3", Tools: tools}), seller.Options{Schemas: (*spec.Tree)(nil)})
	if err != nil {
		t.Fatal(err)
	}
	srv.HandleRaw(seller.RawTool{Name: "get_products", Handler: func(context.Context, *seller.Call) *seller.Answer {
		return &seller.Answer{Body: json.RawMessage(`{"products":[]}`)}
	}})
	for proto, tr := range transports(t, endpoint(t, srv)) {
		c, err := buyer.New(sp, tr)
		if err != nil {
			t.Fatal(err)
		}
		var pre *buyer.PreV3Error
		if _, err := c.Releases(context.Background()); !errors.As(err, &pre) || pre.Tools != 1 {
			t.Errorf("%s: %v", proto, err)
		}
	}
}
