package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"

	"github.com/adcpgen/adcpgen/runtime/observe"
	"github.com/adcpgen/adcpgen/runtime/oteladcp"
	"github.com/adcpgen/adcpgen/runtime/oteladcp/otelenv"
	"github.com/adcpgen/adcpgen/runtime/sellerhttp"
)

// telemetry is the seller's OpenTelemetry, set up from the standard OTEL_*
// environment (otelenv: OTEL_TRACES_EXPORTER=console prints each span on
// stderr, OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set), and the Observer
// every piece of the seller reports to (docs/telemetry.md lists what it
// records). With -metrics-addr the metrics are served as Prometheus text
// at /metrics.
type telemetry struct {
	obs     observe.Observer
	env     *otelenv.Telemetry
	metrics net.Listener // nil without -metrics-addr
}

func startTelemetry(ctx context.Context, metricsAddr string) (*telemetry, error) {
	env, err := otelenv.Setup(ctx, otelenv.Options{Service: "adcp-seller", Prometheus: metricsAddr != "", Console: os.Stderr})
	if err != nil {
		return nil, fmt.Errorf("OpenTelemetry from the environment: %w", err)
	}
	t := &telemetry{env: env}
	if t.obs, err = oteladcp.New(oteladcp.Options{}); err != nil {
		_ = env.Shutdown(ctx)
		return nil, err
	}
	if metricsAddr != "" {
		if t.metrics, err = net.Listen("tcp", metricsAddr); err != nil {
			_ = env.Shutdown(ctx)
			return nil, fmt.Errorf("-metrics-addr: %w", err)
		}
	}
	return t, nil
}

// logHandler stamps the seller's log records with the trace of the call
// they are about.
func (t *telemetry) logHandler(h slog.Handler) slog.Handler { return oteladcp.LogHandler(h) }

// handler is h with an HTTP server span per request (otelhttp), which the
// seller's call spans nest under.
func (t *telemetry) handler(h http.Handler) http.Handler {
	return otelhttp.NewHandler(h, "adcp-seller", otelhttp.WithSpanNameFormatter(func(_ string, r *http.Request) string {
		return r.Method + " " + r.URL.Path
	}))
}

// serveMetrics serves /metrics on -metrics-addr, printing `metrics URL
// http://ADDR/metrics`; it returns the server to shut down (nil without
// the flag).
func (t *telemetry) serveMetrics() *http.Server {
	if t.metrics == nil {
		return nil
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", t.env.Metrics)
	hs := sellerhttp.New("", mux, sellerhttp.Options{})
	fmt.Println("metrics URL http://" + t.metrics.Addr().String() + "/metrics")
	go func() { _ = hs.Serve(t.metrics) }()
	return hs
}

// shutdown flushes the exporters.
func (t *telemetry) shutdown(ctx context.Context) error { return t.env.Shutdown(ctx) }
