package idempotency_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/internal/sellerrig"
	"github.com/adcpgen/adcpgen/internal/specseller"
	"github.com/adcpgen/adcpgen/runtime/a2aserver"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/idempotency"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/validate"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// versionSeller is create_media_buy of a published version behind the
// layer, its answers validated against the version's schemas, on MCP and
// A2A at once; gate, when set, holds every handler run.
type versionSeller struct {
	spec     *registry.Spec
	mcpURL   string
	a2aURL   string
	runs     atomic.Int64
	gate     chan struct{}
	request  string
	x        *extract.Extractor
	mcpBuyer *sellerrig.Buyer
	// hold makes the next handler runs wait; its result lets them go.
	hold func() func()
}

const versionLease = 30 * time.Second

func newVersionSeller(t *testing.T, version string) *versionSeller {
	t.Helper()
	tree, sp := specseller.Open(t, version)
	fixtures := filepath.Join("..", "..", "internal", "versions", "testdata", version)
	request, err := os.ReadFile(filepath.Join(fixtures, "create-media-buy-request.json"))
	if err != nil {
		t.Fatal(err)
	}
	success, err := os.ReadFile(filepath.Join(fixtures, "create-media-buy-success.json"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := validate.New(tree, validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// 3.0 has no IDEMPOTENCY_IN_FLIGHT: a call meeting its key in flight
	// waits, briefly here.
	layer := idempotency.New(sp, sellerstore.NewMemory(nil), idempotency.Options{Lease: versionLease, InFlightWait: 300 * time.Millisecond, Validator: v})
	srv, err := seller.New(sp, seller.Options{Schemas: tree, ValidateResponses: true, Authenticator: sellerrig.Authenticator(),
		Middleware: []seller.Middleware{layer.Middleware()},
		Capabilities: json.RawMessage(`{"adcp":{"idempotency":` + string(layer.Capabilities()) +
			`},"account":{"supported_billing":["operator"]},"media_buy":{"supported_pricing_models":["cpm"]}}`)})
	if err != nil {
		t.Fatal(err)
	}
	vs := &versionSeller{spec: sp, gate: make(chan struct{}), request: string(request), x: extract.New(sp)}
	close(vs.gate)
	tool, _ := sp.Tool("create_media_buy")
	var mu sync.Mutex
	srv.HandleRaw(seller.RawTool{Name: tool.Name, RequestSchema: tool.RequestSchema, ResponseSchema: tool.ResponseSchema,
		Handler: func(ctx context.Context, c *seller.Call) *seller.Answer {
			vs.runs.Add(1)
			mu.Lock()
			gate := vs.gate
			mu.Unlock()
			<-gate
			return &seller.Answer{Body: success}
		}})
	vs.hold = func() func() {
		mu.Lock()
		defer mu.Unlock()
		g := make(chan struct{})
		vs.gate = g
		return func() { close(g) }
	}
	vs.mcpURL = sellerrig.ServeMCP(t, srv)
	a2a := httptest.NewServer(a2aserver.NewHandler(srv, a2aserver.Options{URL: "http://127.0.0.1/a2a"}))
	t.Cleanup(a2a.Close)
	vs.a2aURL = a2a.URL
	vs.mcpBuyer = sellerrig.ConnectMCP(t, vs.mcpURL, sellerrig.KeyOf("buyer-a"), vs.x)
	return vs
}

// answer is what a buyer read: the data or the error.
type answer struct {
	data     json.RawMessage
	err      *adcperr.Error
	replayed bool
}

// call calls tool over transport ("mcp" or "a2a") as buyer-a.
func (vs *versionSeller) call(t *testing.T, transport, tool, args string) answer {
	t.Helper()
	if transport == "mcp" {
		o := vs.mcpBuyer.Call(context.Background(), tool, args)
		if o.CallErr != nil {
			t.Fatalf("%s over MCP: %v", tool, o.CallErr)
		}
		return answer{data: o.Data, err: o.Err, replayed: o.Replayed}
	}
	body := `{"jsonrpc":"2.0","id":"r1","method":"message/send","params":{"message":{"kind":"message","messageId":"m-` +
		time.Now().Format("150405.000000000") + `","role":"user","parts":[{"kind":"data","data":{"skill":"` + tool + `","input":` + args + `}}]}}}`
	req, _ := http.NewRequest(http.MethodPost, vs.a2aURL, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+sellerrig.KeyOf("buyer-a"))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	r := vs.x.A2A(raw)
	if r.Error == nil && r.Data == nil {
		t.Fatalf("%s over A2A: %v: %s", tool, r.Failure(), raw)
	}
	return answer{data: r.Data, err: r.Error, replayed: string(wire.Lenient(r.Data).Get("replayed")) == "true"}
}

// On every published version and both transports: the capability the
// version has (in_flight_max_seconds from 3.1, where
// IDEMPOTENCY_IN_FLIGHT came), schema-valid; a retry replayed; a key in
// flight answered with the code the version has (3.0: CONFLICT after a
// short wait-and-replay; 3.1 and later: IDEMPOTENCY_IN_FLIGHT at once),
// transient, its retry_after the holder's lease left, not a token second.
func TestVersions(t *testing.T) {
	for _, v := range specseller.Versions {
		t.Run(v.Version, func(t *testing.T) {
			vs := newVersionSeller(t, v.Version)
			for _, transport := range []string{"mcp", "a2a"} {
				caps := vs.call(t, transport, "get_adcp_capabilities", `{}`)
				if caps.err != nil {
					t.Fatalf("%s: capabilities: %v", transport, caps.err)
				}
				idem := wire.Lenient(caps.data).Get("adcp").Get("idempotency")
				_, hasInFlight := vs.spec.Recovery("IDEMPOTENCY_IN_FLIGHT")
				if got := idem.Get("in_flight_max_seconds").Present(); got != hasInFlight || hasInFlight != (v.Version != "3.0.26") {
					t.Fatalf("%s: in_flight_max_seconds present %v (IDEMPOTENCY_IN_FLIGHT %v): %s", transport, got, hasInFlight, idem)
				}

				key := "k-" + transport + "-0123456789abcdef"
				args := strings.Replace(vs.request, "8a4c5e0b-2f5d-4d2e-9a55-0c2b8e3f6a10", key, 1)
				before := vs.runs.Load()
				first := vs.call(t, transport, "create_media_buy", args)
				again := vs.call(t, transport, "create_media_buy", args)
				if first.err != nil || again.err != nil || !again.replayed || vs.runs.Load() != before+1 {
					t.Fatalf("%s: first %v, retry %v (replayed %v), %d runs", transport, first.err, again.err, again.replayed, vs.runs.Load()-before)
				}

				release := vs.hold()
				held := strings.Replace(args, key, key+"-held", 1)
				done := make(chan answer, 1)
				go func() { done <- vs.call(t, transport, "create_media_buy", held) }()
				for vs.runs.Load() != before+2 { // the first call holds the key
					time.Sleep(5 * time.Millisecond)
				}
				busy := vs.call(t, transport, "create_media_buy", held)
				release()
				want := "IDEMPOTENCY_IN_FLIGHT"
				if !hasInFlight {
					want = "CONFLICT"
				}
				e := busy.err
				if e == nil || e.Code != want || e.Recovery != registry.Transient || e.RetryAfter < versionLease-5*time.Second || e.RetryAfter > versionLease {
					t.Fatalf("%s: a key in flight: %+v, want %s, transient, retry_after about %v", transport, e, want, versionLease)
				}
				if a := <-done; a.err != nil {
					t.Fatalf("%s: the held call: %v", transport, a.err)
				}
				if a := vs.call(t, transport, "create_media_buy", held); a.err != nil || !a.replayed || !bytes.Contains(a.data, []byte(`"mb_1"`)) {
					t.Fatalf("%s: after the held call: %+v", transport, a)
				}
			}
		})
	}
}
