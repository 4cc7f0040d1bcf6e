package mcpserver

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/adcpgen/adcpgen/internal/sellertest"
	"github.com/adcpgen/adcpgen/runtime/seller"
)

// paths serves srv twice on loopback, as NewStreamableHandler does: with
// the direct path, and with go-sdk answering every request.
func paths(t *testing.T, srv *seller.Server, opts Options) (d *direct, direct, sdk string) {
	t.Helper()
	server, tools, err := newServer(srv, opts)
	if err != nil {
		t.Fatal(err)
	}
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: opts.Stateless, JSONResponse: opts.JSONResponse, Logger: srv.Logger()})
	if opts.AcceptJSONOnly && opts.JSONResponse {
		h = acceptJSONOnly(h)
	}
	d = newDirect(srv, opts, tools)
	if d == nil {
		t.Fatalf("no direct path with %+v", opts)
	}
	a, b := httptest.NewServer(gate(srv, h, d)), httptest.NewServer(gate(srv, h, nil))
	t.Cleanup(a.Close)
	t.Cleanup(b.Close)
	return d, a.URL, b.URL
}

type exchange struct {
	status int
	header http.Header
	body   []byte
}

func post(t *testing.T, url string, header http.Header, body string) exchange {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, vs := range header {
		for _, v := range vs {
			if k == "Host" {
				req.Host = v
				continue
			}
			req.Header.Add(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return exchange{resp.StatusCode, resp.Header, b}
}

// The headers both paths must send alike: all but the transfer's.
func sentHeaders(h http.Header) http.Header {
	out := h.Clone()
	for _, k := range []string{"Date", "Content-Length", "Transfer-Encoding"} {
		out.Del(k)
	}
	return out
}

// The direct path sends what go-sdk sends for the same call, headers and
// bytes, and answers only calls go-sdk would take as they are: everything
// else (other methods, versions, headers, params) still gets go-sdk's own
// answer.
func TestDirectSendsGoSDKBytes(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{Authenticator: seller.APIKeys("https://seller.example/mcp", map[string]string{"key-alice": "alice"})})
	call := func(id, tool, args string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`
	}
	products := `{"buying_mode":"brief","brief":"ctv","context":{"trace": "<t&1>", "note":"line` + "\u2028" + `é\u00e9 \"q\""}}`
	json := http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json, text/event-stream"}}
	with := func(kv ...string) http.Header {
		h := json.Clone()
		for i := 0; i < len(kv); i += 2 {
			if kv[i+1] == "" {
				h.Del(kv[i])
			} else {
				h.Set(kv[i], kv[i+1])
			}
		}
		return h
	}
	for _, opts := range []Options{
		{Stateless: true, JSONResponse: true},
		{Stateless: true, JSONResponse: true, AcceptJSONOnly: true, TerseText: true, MinimalInputSchemas: true},
	} {
		d, direct, sdk := paths(t, s.Server, opts)
		for _, c := range []struct {
			name   string
			header http.Header
			body   string
			direct bool // the direct path answers it
		}{
			{"products", json, call("1", "get_products", products), true},
			{"string id", json, call(`"a<b>&\u2028"`, "get_products", `{"buying_mode":"brief"}`), true},
			{"compact context", json, call("30", "get_products", `{"buying_mode":"brief","context":{"t":"é\u00e9 \"q\" \\"}}`), true},
			{"compact context, html", json, call("31", "get_products", `{"buying_mode":"brief","context":{"t":"<a&b>`+"\u2028"+`"}}`), true},
			{"big id", json, call("12345678901234567890", "get_products", `{"buying_mode":"brief"}`), true},
			{"float id", json, call("1.0", "get_products", `{"buying_mode":"brief"}`), true},
			{"fraction id", json, call("2.5", "get_products", `{"buying_mode":"brief"}`), true}, // go-sdk's id 2, both ways
			{"no arguments", json, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_products"}}`, true},
			{"spaced", json, " {\n \"jsonrpc\" : \"2.0\", \"method\":\"tools/call\", \"params\" : { \"arguments\" : { \"buying_mode\" : \"brief\" } , \"name\":\"get_products\" }, \"id\" : 3 } ", true},
			{"schema error", json, call("4", "get_products", `{"buying_mode":"sometimes","context":{"a":1}}`), true},
			{"seller error", json, call("5", "get_products", `{"buying_mode":"brief","brief":"code:RATE_LIMITED:7","context":{"a":[1]}}`), true},
			{"handler panic", json, call("6", "get_products", `{"buying_mode":"brief","brief":"panic"}`), true},
			{"invalid answer", json, call("7", "get_products", `{"buying_mode":"brief","brief":"invalid"}`), true},
			{"unknown tool", with("Authorization", "Bearer key-alice"), call("8", "no_such_tool", `{"context":{"x":"y"}}`), true},
			{"protected, with a key", with("Authorization", "Bearer key-alice"), call("9", "list_creatives", `{}`), true},
			{"protected, no key", json, call("10", "list_creatives", `{}`), false},
			{"arguments not an object", json, call("11", "get_products", `[1]`), false},
			{"_meta progress token", json, `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"get_products","arguments":{},"_meta":{"progressToken":1}}}`, false},
			{"_meta of MCP's own", json, `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"get_products","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, false},
			{"_meta trace context", json, `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"_meta":{"traceparent":"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01","n":[1]},"name":"get_products","arguments":{"buying_mode":"brief"}}}`, true},
			{"_meta not an object", json, `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"get_products","arguments":{},"_meta":[]}}`, false},
			{"name twice", json, `{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"x","name":"get_products","arguments":{}}}`, false},
			{"escaped member name", json, `{"jsonrpc":"2.0","id":14,"method":"tools/call","params":{"n\u0061me":"get_products","arguments":{}}}`, false},
			{"notification", json, `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"get_products","arguments":{}}}`, false},
			{"tools/list", json, `{"jsonrpc":"2.0","id":15,"method":"tools/list"}`, false},
			{"version 2025-06-18", with("Mcp-Protocol-Version", "2025-06-18"), call("16", "get_products", products), true},
			{"version 2025-11-25", with("Mcp-Protocol-Version", "2025-11-25"), call("17", "get_products", products), true},
			{"version 2024-11-05", with("Mcp-Protocol-Version", "2024-11-05"), call("18", "get_products", products), true},
			{"version 2026-07-28", with("Mcp-Protocol-Version", "2026-07-28"), call("19", "get_products", products), false},
			{"unknown version", with("Mcp-Protocol-Version", "1999-01-01"), call("20", "get_products", products), false},
			{"charset", with("Content-Type", "application/json; charset=utf-8"), call("21", "get_products", products), true},
			{"text/plain", with("Content-Type", "text/plain"), call("22", "get_products", products), false},
			{"accept */*", with("Accept", "*/*"), call("23", "get_products", products), true},
			{"accept json only", with("Accept", "application/json"), call("24", "get_products", products), opts.AcceptJSONOnly},
			{"no accept", with("Accept", ""), call("25", "get_products", products), opts.AcceptJSONOnly},
			{"last event id", with("Last-Event-Id", "x_1"), call("26", "get_products", products), false},
			{"foreign host", with("Host", "evil.example"), call("27", "get_products", products), false},
			{"localhost", with("Host", "localhost"), call("28", "get_products", products), true},
		} {
			t.Run(c.name, func(t *testing.T) {
				before := d.served.Load()
				got := post(t, direct, c.header, c.body)
				if served := d.served.Load() > before; served != c.direct {
					t.Errorf("answered by the direct path: %v, want %v (status %d: %s)", served, c.direct, got.status, got.body)
				}
				want := post(t, sdk, c.header, c.body)
				if got.status != want.status || !bytes.Equal(got.body, want.body) {
					t.Errorf("direct path: %d %s\ngo-sdk:      %d %s", got.status, got.body, want.status, want.body)
				}
				if g, w := sentHeaders(got.header), sentHeaders(want.header); !equalHeaders(g, w) {
					t.Errorf("headers: direct path %v, go-sdk %v", g, w)
				}
			})
		}
	}
}

func equalHeaders(a, b http.Header) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if !slices.Equal(v, b[k]) {
			return false
		}
	}
	return true
}

// Options that keep go-sdk's framing or reach into calls have no direct
// path.
func TestDirectOnlyWhereExact(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{})
	for _, c := range []struct {
		opts Options
		want bool
	}{
		{Options{Stateless: true, JSONResponse: true}, true},
		{Options{Stateless: true, JSONResponse: true, Server: &mcp.ServerOptions{Instructions: "hi", PageSize: 10}}, true},
		{Options{Stateless: true}, false},
		{Options{JSONResponse: true}, false},
		{Options{}, false},
		{Options{Stateless: true, JSONResponse: true, Server: &mcp.ServerOptions{GetSessionID: func() string { return "s" }}}, false},
	} {
		if got := newDirect(s.Server, c.opts, nil) != nil; got != c.want {
			t.Errorf("%+v: direct path %v, want %v", c.opts, got, c.want)
		}
	}
}

// A call on the direct path runs with the principal the gate admitted,
// and ends when its buyer goes away.
func TestDirectCallContext(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{Authenticator: seller.APIKeys("x", map[string]string{"key-alice": "alice"})})
	d, url, _ := paths(t, s.Server, Options{Stateless: true, JSONResponse: true})
	header := http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json, text/event-stream"}, "Authorization": {"Bearer key-alice"}}
	post(t, url, header, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_creatives","arguments":{}}}`)
	if p := <-s.Principals; p.ID != "alice" || d.served.Load() != 1 {
		t.Fatalf("principal %+v, direct calls %d", p, d.served.Load())
	}

	ctx, cancel := context.WithCancel(t.Context())
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url,
		strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_products","arguments":{"buying_mode":"brief","brief":"hang"}}}`))
	req.Header = header
	done := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	for s.Calls("get_products") == 0 {
		runtime.Gosched()
	}
	cancel()
	if brief := <-s.GaveUp; brief != "hang" {
		t.Fatalf("gave up on %q", brief)
	}
	<-done
}

// The call the direct path makes carries what go-sdk's would: the _meta
// (a trace context) and the HTTP header.
func TestDirectCallCarriesMetaAndHeader(t *testing.T) {
	seen := make(chan *seller.Call, 2)
	mw := func(next seller.Dispatch) seller.Dispatch {
		return func(ctx context.Context, c *seller.Call) *seller.Answer {
			seen <- c
			return next(ctx, c)
		}
	}
	s := sellertest.NewSeller(t, seller.Options{Middleware: []seller.Middleware{mw}})
	d, direct, sdk := paths(t, s.Server, Options{Stateless: true, JSONResponse: true})
	header := http.Header{"Content-Type": {"application/json"}, "Accept": {"application/json, text/event-stream"}, "X-Trace": {"t-1"}}
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_products","arguments":{"buying_mode":"brief"},"_meta":{"traceparent":"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01","n":1.5}}}`
	post(t, direct, header, body)
	viaDirect := <-seen
	post(t, sdk, header, body)
	viaSDK := <-seen
	if d.served.Load() != 1 {
		t.Fatalf("direct calls: %d", d.served.Load())
	}
	if !reflect.DeepEqual(viaDirect.Meta, viaSDK.Meta) || viaDirect.Meta["traceparent"] == nil {
		t.Errorf("_meta: direct path %v, go-sdk %v", viaDirect.Meta, viaSDK.Meta)
	}
	if viaDirect.Header.Get("X-Trace") != "t-1" || viaSDK.Header.Get("X-Trace") != "t-1" {
		t.Errorf("header: direct path %v, go-sdk %v", viaDirect.Header, viaSDK.Header)
	}
}
