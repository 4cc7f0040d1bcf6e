package oteladcp_test

import (
	"context"
	"crypto"
	"crypto/ed25519"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/runtime/signing/keys"

	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/adcpgen/adcpgen/generator"
	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/a2aclient"
	"github.com/adcpgen/adcpgen/runtime/a2aserver"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/idempotency"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/observe"
	"github.com/adcpgen/adcpgen/runtime/oteladcp"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/retry"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/sellertask"
	"github.com/adcpgen/adcpgen/runtime/signing"
	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/webhook"
)

// What must never reach a span or a metric: the buyer's API key, the
// webhook's bearer credential and the token in its URL's path, the
// idempotency key, a marker inside the request's payload, and the buyer's
// private signing key (its JWK's d, below).
const (
	apiKey       = "api-key-never-in-telemetry-0123456789"
	hookBearer   = "webhook-bearer-never-in-telemetry-0123456789"
	hookToken    = "hook-path-token-never-in-telemetry"
	idemKey      = "idem-key-never-in-telemetry-0123456789"
	payloadTag   = "payload-marker-never-in-telemetry"
	keyID        = "buyer-2026"
	buyerAgent   = "https://buyer.example/mcp"
	sellerRealm  = "https://seller.example"
	principalID  = "buyer"
	pollInterval = 10 * time.Millisecond
)

// release is one release of the published spec under ../shared/adcp.
type release struct {
	version, source string
}

// releases lists every release under the spec directory: each protocol
// bundle and each schema tree.
func releases(t *testing.T) []release {
	t.Helper()
	dir := testspec.Dir(t)
	var out []release
	bundles, _ := filepath.Glob(filepath.Join(dir, "protocol", "*.tgz"))
	for _, b := range bundles {
		out = append(out, release{strings.TrimSuffix(filepath.Base(b), ".tgz"), filepath.Join("protocol", filepath.Base(b))})
	}
	trees, _ := os.ReadDir(filepath.Join(dir, "schemas"))
	for _, d := range trees {
		if d.IsDir() {
			out = append(out, release{d.Name(), filepath.Join("schemas", d.Name())})
		}
	}
	if len(out) == 0 {
		t.Fatalf("no release under %s", dir)
	}
	return out
}

var specs sync.Map // source → *registry.Spec

// specOf is a release's tool table, read from its published tree
// (generator.SpecTable: nothing generated).
func specOf(t *testing.T, r release) *registry.Spec {
	t.Helper()
	if s, ok := specs.Load(r.source); ok {
		return s.(*registry.Spec)
	}
	tree, err := spec.Open(filepath.Join(testspec.Dir(t), r.source))
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := generator.SpecTable(tree)
	if err != nil {
		t.Fatal(err)
	}
	specs.Store(r.source, s)
	return s
}

// signal is one process's telemetry: spans and metrics in memory.
type signal struct {
	spans  *tracetest.InMemoryExporter
	reader *sdkmetric.ManualReader
	tp     *sdktrace.TracerProvider
	obs    observe.Observer
}

func newSignal(t *testing.T) *signal {
	t.Helper()
	s := &signal{spans: tracetest.NewInMemoryExporter(), reader: sdkmetric.NewManualReader()}
	s.tp = sdktrace.NewTracerProvider(sdktrace.WithSyncer(s.spans))
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(s.reader))
	t.Cleanup(func() { _ = s.tp.Shutdown(context.Background()); _ = mp.Shutdown(context.Background()) })
	obs, err := oteladcp.New(oteladcp.Options{TracerProvider: s.tp, MeterProvider: mp,
		Propagator: propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})})
	if err != nil {
		t.Fatal(err)
	}
	s.obs = obs
	return s
}

func (s *signal) metrics(t *testing.T) metricdata.ResourceMetrics {
	t.Helper()
	var rm metricdata.ResourceMetrics
	if err := s.reader.Collect(context.Background(), &rm); err != nil {
		t.Fatal(err)
	}
	return rm
}

// rig is one release's seller on loopback, over MCP (/mcp) and A2A (/a2a),
// every piece observed: API keys, RFC 9421 request signatures where the
// release has a profile (create_media_buy supported), the idempotency
// layer, tasks with webhooks (NotifySyncResults posts synchronous
// answers), the status tools. create_media_buy answers at once,
// sync_creatives answers submitted and completes on the buyer's first
// poll, get_products fails with a correctable INVALID_REQUEST.
type rig struct {
	release release
	spec    *registry.Spec
	seller  *signal
	srv     *httptest.Server
	tasks   *sellertask.Manager
	signs   bool // the release has a request-signing profile

	hook     *httptest.Server
	mu       sync.Mutex
	hookHdr  []http.Header // the headers of each webhook post
	hookFail int           // posts to refuse with 503 first
}

// buyerKey is the buyer's request-signing key, and its JWKS as the seller
// was given it.
var buyerKey = func() (k struct {
	key  crypto.Signer
	jwks *keys.JWKS
	d    string
}) {
	key, jwk, err := keys.GenerateKey(keys.Ed25519, keyID, nil)
	if err != nil {
		panic(err)
	}
	k.key, k.jwks = key, &keys.JWKS{Keys: []*keys.JWK{jwk}}
	k.d = base64.RawURLEncoding.EncodeToString(key.(ed25519.PrivateKey).Seed())
	return k
}()

// conflictCode is the code a release's idempotency layer answers a key
// reused with another request with.
func conflictCode(sp *registry.Spec) string {
	for _, c := range []string{"IDEMPOTENCY_CONFLICT", "CONFLICT", "INVALID_REQUEST"} {
		if _, ok := sp.Recovery(c); ok {
			return c
		}
	}
	return "INVALID_REQUEST"
}

func newRig(t *testing.T, r release) *rig {
	t.Helper()
	sp := specOf(t, r)
	g := &rig{release: r, spec: sp, seller: newSignal(t)}
	obs := g.seller.obs
	g.hook = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		g.mu.Lock()
		defer g.mu.Unlock()
		if g.hookFail > 0 {
			g.hookFail--
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		g.hookHdr = append(g.hookHdr, req.Header.Clone())
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(g.hook.Close)

	store := sellerstore.NewMemory(nil)
	sender := webhook.NewSender(webhook.SenderOptions{Policy: untrusted.PushURLPolicy{AllowLoopback: true}, Observer: obs,
		Retry: retry.Policy{InitialBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond}})
	var srv *seller.Server
	g.tasks = sellertask.New(sp, sellertask.Options{Store: store, Sender: sender, Observer: obs,
		// sync_creatives' task completes when the buyer first polls it.
		Refresh: func(ctx context.Context, principal, id string) error {
			snap, err := srv.Tasks().Get(ctx, principal, id)
			if err != nil || snap.Status.Final() {
				return err
			}
			return srv.Tasks().Update(ctx, seller.TaskEvent{ID: id, Principal: principal, Tool: snap.Tool,
				Answer: &seller.Answer{Status: task.Completed, TaskID: id, Body: json.RawMessage(`{"creatives":[]}`)}})
		}})
	layer := idempotency.New(sp, store, idempotency.Options{Observer: obs})
	cfg := seller.Options{
		Authenticator: seller.APIKeys(sellerRealm, map[string]string{apiKey: principalID}),
		Tasks:         g.tasks,
		// The raw handlers below stand for the release's tools: the first
		// middleware gives each call the spec's entry of its tool, so the
		// idempotency layer and NotifySyncResults act as they would on
		// generated handlers.
		//lint:ignore SA1019 a synchronous answer posted puts the webhook Sender on the traced path of every call
		Middleware: []seller.Middleware{specTool(sp), layer.Middleware(), g.tasks.NotifySyncResults()},
		Observer:   obs,
	}
	if _, err := signing.RequestProfile(sp.Version()); err == nil {
		g.signs = true
		cfg.SignedRequests = &seller.SignedRequests{
			Policy: signing.OperationPolicy{SupportedFor: []string{"create_media_buy"}},
			Keys:   keys.Static{Set: buyerKey.jwks, AgentURL: buyerAgent},
			Scheme: "http",
		}
	}
	srv, err := seller.New(sp, cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv.HandleRaw(seller.RawTool{Name: "create_media_buy", Handler: func(ctx context.Context, c *seller.Call) *seller.Answer {
		return &seller.Answer{Status: task.Completed, Body: json.RawMessage(`{"media_buy_id":"mb_1","packages":[]}`)}
	}})
	srv.HandleRaw(seller.RawTool{Name: "sync_creatives", Handler: func(ctx context.Context, c *seller.Call) *seller.Answer {
		id, err := srv.Tasks().Start(ctx, c)
		if err != nil {
			return seller.ErrorAnswer(&adcperr.Error{Code: "SERVICE_UNAVAILABLE", Message: "no task"})
		}
		return &seller.Answer{Status: task.Submitted, TaskID: id, Body: json.RawMessage(`{}`)}
	}})
	srv.HandleRaw(seller.RawTool{Name: "get_products", Handler: func(ctx context.Context, c *seller.Call) *seller.Answer {
		return seller.ErrorAnswer(&adcperr.Error{Code: "INVALID_REQUEST", Message: "no products for this brief"})
	}})
	g.tasks.ServeStatusTools(srv)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := g.tasks.Close(ctx); err != nil {
			t.Errorf("deliveries still running: %v", err)
		}
	})
	mcpH, err := mcpserver.NewStreamableHandler(srv, mcpserver.Options{Stateless: true, JSONResponse: true, MinimalInputSchemas: true})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	g.srv = httptest.NewServer(mux)
	t.Cleanup(g.srv.Close)
	mux.Handle("/mcp", mcpH)
	a2aOpts := a2aserver.Options{URL: g.srv.URL + "/a2a"}
	mux.Handle("/a2a", a2aserver.NewHandler(srv, a2aOpts))
	mux.Handle("GET "+a2aserver.CardPath, a2aserver.NewCardHandler(srv, a2aOpts))
	return g
}

// specTool sets each call's Tool to the spec's entry for its name.
func specTool(sp *registry.Spec) seller.Middleware {
	return func(next seller.Dispatch) seller.Dispatch {
		return func(ctx context.Context, c *seller.Call) *seller.Answer {
			if t, ok := sp.Tool(c.Tool.Name); ok {
				c.Tool = t
			}
			return next(ctx, c)
		}
	}
}

// buyerSide is the typed buyer of a release over one transport, observed
// with its own providers: a second process.
type buyerSide struct {
	*signal
	client *buyer.Client
}

type withKey struct{ base http.RoundTripper }

func (k withKey) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+apiKey)
	return k.base.RoundTrip(r)
}

func (g *rig) buyer(t *testing.T, transport string) *buyerSide {
	t.Helper()
	b := &buyerSide{signal: newSignal(t)}
	opts := []buyer.ClientOption{buyer.WithObserver(b.obs), buyer.WithoutRetries(),
		buyer.WithPolling(buyer.Polling{Interval: pollInterval, MaxInterval: pollInterval})}
	base := http.DefaultTransport
	if g.signs {
		cs, err := signing.NewCallSigner(signing.CallSignerOptions{Version: g.spec.Version(), KeyID: keyID, Key: buyerKey.key})
		if err != nil {
			t.Fatal(err)
		}
		base = cs.Transport(nil)
		opts = append(opts, buyer.WithRequestSigning(cs))
	}
	hc := &http.Client{Transport: withKey{base}}
	var tr buyer.Transport
	switch transport {
	case "mcp":
		s, err := mcpclient.ConnectHTTP(t.Context(), g.srv.URL+"/mcp", hc, mcpclient.ConnectOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = s.Close() })
		tr = s
	case "a2a":
		c, err := a2aclient.Dial(t.Context(), g.srv.URL, hc)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Close() })
		tr = c
	}
	c, err := buyer.New(g.spec, tr, opts...)
	if err != nil {
		t.Fatal(err)
	}
	b.client = c
	return b
}

// pushConfig registers the rig's webhook with a bearer credential, and a
// token in the URL's path.
func (g *rig) pushConfig() string {
	return `"push_notification_config":{"url":"` + g.hook.URL + "/hook/" + hookToken + `","authentication":{"schemes":["Bearer"],"credentials":"` + hookBearer + `"}}`
}

// createArgs is a create_media_buy request registering the rig's webhook;
// budget makes another request of the same key.
func (g *rig) createArgs(budget string) json.RawMessage {
	return json.RawMessage(`{"idempotency_key":"` + idemKey + `","po_number":"` + payloadTag + `","packages":[{"product_id":"ctv","budget":` + budget + `}],` +
		g.pushConfig() + `}`)
}

// tool is the release's entry for a tool.
func (g *rig) tool(name string) registry.Tool {
	t, _ := g.spec.Tool(name)
	return t
}

// scenario is what a buyer does in one trace (its root span, "scenario"):
// create_media_buy, the same again (a replay where the release requires
// idempotency keys), the same key with another budget (a conflict there),
// get_products (an AdCP error), sync_creatives with a webhook, followed to
// its end by polling (the task completes on the first poll, and its
// webhook is posted). It returns the errors of the calls expected to fail.
func (g *rig) scenario(t *testing.T, b *buyerSide) (conflict, failed error) {
	t.Helper()
	ctx, root := b.tp.Tracer("test").Start(t.Context(), "scenario")
	if _, err := b.client.Invoke(ctx, "create_media_buy", g.createArgs("5000")); err != nil {
		t.Fatalf("create_media_buy: %v", err)
	}
	if _, err := b.client.Invoke(ctx, "create_media_buy", g.createArgs("5000")); err != nil {
		t.Fatalf("create_media_buy again: %v", err)
	}
	if g.tool("create_media_buy").IdempotencyRequired {
		_, conflict = b.client.Invoke(ctx, "create_media_buy", g.createArgs("7000"))
	}
	_, failed = b.client.Invoke(ctx, "get_products", json.RawMessage(`{"brief":"`+payloadTag+`"}`))
	sync := json.RawMessage(`{"idempotency_key":"` + idemKey + `","creatives":[],` + g.pushConfig() + `}`)
	if r, err := b.client.Invoke(ctx, "sync_creatives", sync, buyer.WaitForCompletion()); err != nil || r.Status != task.Completed {
		t.Fatalf("sync_creatives: %v %+v", err, r)
	}
	root.End()
	wctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if err := g.tasks.Wait(wctx); err != nil {
		t.Fatal(err)
	}
	return conflict, failed
}

// spans are every span of both sides.
func spans(sides ...*signal) tracetest.SpanStubs {
	var out tracetest.SpanStubs
	for _, s := range sides {
		out = append(out, s.spans.GetSpans()...)
	}
	return out
}

// named returns the spans called name, in the order they ended.
func named(all tracetest.SpanStubs, name string) tracetest.SpanStubs {
	return slices.DeleteFunc(slices.Clone(all), func(s tracetest.SpanStub) bool { return s.Name != name })
}
