//go:build adcpgen_bench

package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.opentelemetry.io/otel/propagation"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/adcpgen/adcpgen/internal/bench/gen/adcp"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/idempotency"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/observe"
	"github.com/adcpgen/adcpgen/runtime/oteladcp"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/sellertask"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// telemetrySetups are the three ways a buyer and a seller run in
// BenchmarkTelemetry: without an Observer (the uninstrumented call);
// with oteladcp's Observer on OpenTelemetry's global providers, which no
// one set (no provider: the API's no-ops); and with the SDK recording
// every span (always sampled, batched to an exporter that drops them) and
// every metric (aggregated for a reader).
var telemetrySetups = []struct {
	name string
	obs  func(b *testing.B) observe.Observer
}{
	{"off", func(*testing.B) observe.Observer { return nil }},
	// The same again: how far apart two identical setups measure, the
	// resolution of the ratios below.
	{"aa-off", func(*testing.B) observe.Observer { return nil }},
	{"noprovider", func(b *testing.B) observe.Observer {
		o, err := oteladcp.New(oteladcp.Options{})
		if err != nil {
			b.Fatal(err)
		}
		return o
	}},
	{"recording", func(b *testing.B) observe.Observer {
		tp := sdktrace.NewTracerProvider(sdktrace.WithSampler(sdktrace.AlwaysSample()), sdktrace.WithBatcher(dropSpans{}))
		mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(sdkmetric.NewManualReader()))
		b.Cleanup(func() { _ = tp.Shutdown(context.Background()); _ = mp.Shutdown(context.Background()) })
		o, err := oteladcp.New(oteladcp.Options{TracerProvider: tp, MeterProvider: mp,
			Propagator: propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{})})
		if err != nil {
			b.Fatal(err)
		}
		return o
	}},
}

// dropSpans is an exporter that drops what it is given.
type dropSpans struct{}

func (dropSpans) ExportSpans(context.Context, []sdktrace.ReadOnlySpan) error { return nil }
func (dropSpans) Shutdown(context.Context) error                             { return nil }

// observedPair is a typed buyer connected to a seller over go-sdk's
// in-memory MCP transport, both reporting to obs (nil: none): get_products
// answers the 35.7 KB fixture; create_media_buy runs behind the
// idempotency layer and the task manager on the memory store.
func observedPair(b *testing.B, obs observe.Observer, products *adcp.GetProductsResponse, overHTTP bool) *buyer.Client {
	b.Helper()
	store := sellerstore.NewMemory(nil)
	layer := idempotency.New(adcp.Spec(), store, idempotency.Options{Observer: obs})
	tasks := sellertask.New(adcp.Spec(), sellertask.Options{Store: store, Observer: obs})
	b.Cleanup(func() { _ = tasks.Close(context.Background()) })
	srv, err := seller.New(adcp.Spec(), seller.Options{Tasks: tasks, Middleware: []seller.Middleware{layer.Middleware()}, Observer: obs})
	if err != nil {
		b.Fatal(err)
	}
	seller.HandleSync(srv, adcp.Tools.GetProducts, func(context.Context, *adcp.GetProductsRequest) (*adcp.GetProductsResponse, error) {
		r := *products
		return &r, nil
	})
	n := 0
	seller.HandleSync(srv, adcp.Tools.CreateMediaBuy, func(_ context.Context, req *adcp.CreateMediaBuyRequest) (*adcp.CreateMediaBuyResponse, error) {
		n++
		status := adcp.MediaBuyStatus("pending_creatives")
		resp := adcp.NewCreateMediaBuyResponseSuccess(adcp.CreateMediaBuySuccess{MediaBuyID: fmt.Sprintf("mb_%d", n), Status: &status, Packages: []adcp.Package{}})
		return &resp, nil
	})
	var session *mcpclient.Session
	if overHTTP {
		// As examples/seller serves: stateless, JSON answers.
		h, err := mcpserver.NewStreamableHandler(srv, mcpserver.Options{MinimalInputSchemas: true, Stateless: true, JSONResponse: true})
		if err != nil {
			b.Fatal(err)
		}
		ts := httptest.NewServer(h)
		b.Cleanup(ts.Close)
		if session, err = mcpclient.ConnectHTTP(b.Context(), ts.URL, &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}, mcpclient.ConnectOptions{}); err != nil {
			b.Fatal(err)
		}
	} else {
		server, err := mcpserver.NewServer(srv, mcpserver.Options{MinimalInputSchemas: true})
		if err != nil {
			b.Fatal(err)
		}
		st, ct := mcp.NewInMemoryTransports()
		ss, err := server.Connect(b.Context(), st, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { ss.Close() })
		if session, err = mcpclient.Connect(b.Context(), ct, mcpclient.ConnectOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.Cleanup(func() { session.Close() })
	var opts []buyer.ClientOption
	if obs != nil {
		opts = append(opts, buyer.WithObserver(obs))
	}
	c, err := buyer.New(adcp.Spec(), session, opts...)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// buyArgs is a create_media_buy request; the client adds a fresh
// idempotency_key to each call.
var buyArgs = json.RawMessage(`{"account":{"brand":{"domain":"acmeoutdoor.example"},"operator":"pinnacle-agency.example"},` +
	`"brand":{"domain":"acmeoutdoor.example"},"start_time":"asap","end_time":"2099-07-31T23:59:59Z",` +
	`"packages":[{"product_id":"ctv-prime","budget":5000,"pricing_option_id":"cpm-usd"}]}`)

// BenchmarkTelemetry is what telemetry costs a call, buyer and seller both
// instrumented (runtime/oteladcp), over go-sdk's in-memory MCP transport
// (the runtime's and the SDKs' costs alone) and over loopback HTTP as
// examples/seller serves (stateless, JSON answers): a typed get_products
// answered with the 35.7 KB fixture, and create_media_buy through the
// idempotency layer (the most spans a call makes: the call on each side,
// validation, the layer, two store calls, the handler).
//
// A round runs a block of calls of each setup, in a shuffled order, and
// measures each block's CPU time (getrusage: this process's, which the
// other processes of a shared machine leave alone, unlike the wall clock;
// it includes the garbage collector and the span batcher): a setup pays
// for its own garbage and background work within its block, and which
// setup comes after which varies. It reports the median over the rounds of
// each setup's CPU time as a ratio of the uninstrumented block's in the
// same round (x-noprovider, x-recording, and x-aa-off for a second
// uninstrumented setup: the resolution of the others), and of the
// uninstrumented call's own CPU time (off-ns/call). ns/op is one round.
func BenchmarkTelemetry(b *testing.B) {
	data := fixture(b)
	var products adcp.GetProductsResponse
	if err := wire.Unmarshal(data, &products); err != nil {
		b.Fatal(err)
	}
	for _, path := range []struct {
		tool, transport string
		block           int // calls of a setup in a round
	}{{"get_products", "memory", 4}, {"create_media_buy", "memory", 16}, {"get_products", "http", 4}, {"create_media_buy", "http", 16}} {
		tool := path.tool
		b.Run(tool+"/"+path.transport, func(b *testing.B) {
			clients := make([]*buyer.Client, len(telemetrySetups))
			for i, s := range telemetrySetups {
				clients[i] = observedPair(b, s.obs(b), &products, path.transport == "http")
			}
			call := func(c *buyer.Client) {
				var err error
				if tool == "get_products" {
					_, err = buyer.Call(b.Context(), c, adcp.Tools.GetProducts, &adcp.GetProductsRequest{BuyingMode: adcp.GetProductsRequestBuyingModeBrief, Brief: new("CTV")})
				} else {
					_, err = c.Invoke(b.Context(), "create_media_buy", buyArgs)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
			for _, c := range clients { // warm up: connections, caches
				call(c)
			}
			block := path.block
			rng := rand.New(rand.NewPCG(1, 2))
			order := make([]int, len(clients))
			for i := range order {
				order[i] = i
			}
			ratios := make([][]float64, len(clients))
			var off []float64
			spent := make([]time.Duration, len(clients))
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
				for _, j := range order {
					start := cpuTime()
					for range block {
						call(clients[j])
					}
					spent[j] = cpuTime() - start
				}
				off = append(off, float64(spent[0])/float64(block))
				for k := 1; k < len(clients); k++ {
					ratios[k] = append(ratios[k], float64(spent[k])/float64(spent[0]))
				}
			}
			b.ReportMetric(median(off), "off-ns/call")
			for k := 1; k < len(clients); k++ {
				b.ReportMetric(median(ratios[k]), "x-"+telemetrySetups[k].name)
			}
		})
	}
}

// median of xs (which it sorts).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	slices.Sort(xs)
	if n := len(xs); n%2 == 0 {
		return (xs[n/2-1] + xs[n/2]) / 2
	}
	return xs[len(xs)/2]
}

// cpuTime is the CPU time this process has used (user and system), which
// the load of other processes on a shared machine leaves alone, unlike
// the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkTelemetryOne makes b.N calls of one path with one setup, named
// by $ADCPGEN_TELEMETRY ("create_media_buy/memory/recording"), and skips
// without it: for counting instructions under valgrind's callgrind, whose
// counts the machine's load leaves alone. Two runs of different b.N give
// the instructions per call (the difference over the difference).
func BenchmarkTelemetryOne(b *testing.B) {
	which := os.Getenv("ADCPGEN_TELEMETRY")
	if which == "" {
		b.Skip("set ADCPGEN_TELEMETRY=TOOL/TRANSPORT/SETUP")
	}
	parts := strings.Split(which, "/")
	if len(parts) != 3 {
		b.Fatalf("ADCPGEN_TELEMETRY=%q: want TOOL/TRANSPORT/SETUP", which)
	}
	data := fixture(b)
	var products adcp.GetProductsResponse
	if err := wire.Unmarshal(data, &products); err != nil {
		b.Fatal(err)
	}
	i := slices.IndexFunc(telemetrySetups, func(s struct {
		name string
		obs  func(b *testing.B) observe.Observer
	}) bool {
		return s.name == parts[2]
	})
	if i < 0 {
		b.Fatalf("no setup %q", parts[2])
	}
	c := observedPair(b, telemetrySetups[i].obs(b), &products, parts[1] == "http")
	for b.Loop() {
		var err error
		if parts[0] == "get_products" {
			_, err = buyer.Call(b.Context(), c, adcp.Tools.GetProducts, &adcp.GetProductsRequest{BuyingMode: adcp.GetProductsRequestBuyingModeBrief, Brief: new("CTV")})
		} else {
			_, err = c.Invoke(b.Context(), "create_media_buy", buyArgs)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
}
