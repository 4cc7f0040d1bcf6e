package otelenv_test

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"

	"go.opentelemetry.io/otel"

	"github.com/adcpgen/adcpgen/runtime/oteladcp/otelenv"
)

// unset clears the OTEL_* variables a test does not set.
func unset(t *testing.T) {
	for _, kv := range os.Environ() {
		if k, _, _ := strings.Cut(kv, "="); strings.HasPrefix(k, "OTEL_") {
			t.Setenv(k, "")
			os.Unsetenv(k)
		}
	}
}

// OTEL_TRACES_EXPORTER=console prints each span as it ends, with the
// service name; the propagator is W3C Trace Context and Baggage.
func TestConsole(t *testing.T) {
	unset(t)
	t.Setenv("OTEL_TRACES_EXPORTER", "console")
	t.Setenv("OTEL_METRICS_EXPORTER", "none")
	var out bytes.Buffer
	tel, err := otelenv.Setup(context.Background(), otelenv.Options{Service: "adcp-test", Console: &out})
	if err != nil {
		t.Fatal(err)
	}
	_, span := otel.Tracer("test").Start(context.Background(), "tools/call get_products")
	span.End() // written now, not at shutdown
	written := out.String()
	if err := tel.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(written, `"Name":"tools/call get_products"`) || !strings.Contains(written, "adcp-test") {
		t.Fatalf("console output: %s", written)
	}
	if tel.Metrics != nil {
		t.Error("Metrics without Prometheus")
	}
	fields := otel.GetTextMapPropagator().Fields()
	for _, f := range []string{"traceparent", "tracestate", "baggage"} {
		if !strings.Contains(strings.Join(fields, ","), f) {
			t.Errorf("propagator fields %v lack %s", fields, f)
		}
	}
}

// With Prometheus, Metrics serves what the meters recorded as Prometheus
// text; with no exporter named and no OTLP endpoint, nothing is exported.
func TestPrometheus(t *testing.T) {
	unset(t)
	tel, err := otelenv.Setup(context.Background(), otelenv.Options{Service: "adcp-test", Prometheus: true})
	if err != nil {
		t.Fatal(err)
	}
	defer tel.Shutdown(context.Background())
	c, err := otel.Meter("test").Int64Counter("adcp.webhook.deliveries")
	if err != nil {
		t.Fatal(err)
	}
	c.Add(context.Background(), 2)
	rec := httptest.NewRecorder()
	tel.Metrics.ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if body := rec.Body.String(); !strings.Contains(body, "adcp_webhook_deliveries_total") || !strings.Contains(body, `service_name="adcp-test"`) {
		t.Fatalf("/metrics: %s", body)
	}
}

// An exporter the environment names and no one knows is an error.
func TestUnknownExporter(t *testing.T) {
	unset(t)
	t.Setenv("OTEL_TRACES_EXPORTER", "carrier-pigeon")
	if _, err := otelenv.Setup(context.Background(), otelenv.Options{}); err == nil {
		t.Fatal("no error")
	}
}

// With an OTLP endpoint set and no exporter named, spans go to it (OTLP
// over HTTP, the default protocol); the metrics too.
func TestOTLPWhenEndpointSet(t *testing.T) {
	unset(t)
	var mu sync.Mutex
	paths := map[string]int{}
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths[r.URL.Path]++
		mu.Unlock()
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.WriteHeader(http.StatusOK)
	}))
	defer collector.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.URL)
	tel, err := otelenv.Setup(context.Background(), otelenv.Options{Service: "adcp-test"})
	if err != nil {
		t.Fatal(err)
	}
	_, span := otel.Tracer("test").Start(context.Background(), "tools/call get_products")
	span.End()
	c, _ := otel.Meter("test").Int64Counter("adcp.webhook.deliveries")
	c.Add(context.Background(), 1)
	if err := tel.Shutdown(context.Background()); err != nil { // flushes both
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if paths["/v1/traces"] == 0 || paths["/v1/metrics"] == 0 {
		t.Fatalf("the collector got %v", paths)
	}
}
