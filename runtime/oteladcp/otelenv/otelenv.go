// Package otelenv sets OpenTelemetry's global providers from the standard
// OTEL_* environment, the way examples/seller and examples/buyer start:
// traces and metrics exported as OTEL_TRACES_EXPORTER and
// OTEL_METRICS_EXPORTER say (contrib's autoexport: otlp, console, none,
// and prometheus for metrics), the propagators of OTEL_PROPAGATORS
// (W3C Trace Context and Baggage by default), the resource of
// OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES. Unlike autoexport's own
// default, a signal whose exporter is not named goes to OTLP only when an
// OTLP endpoint is set (OTEL_EXPORTER_OTLP_ENDPOINT, or the signal's own),
// and nowhere otherwise: a program run without telemetry configured sends
// nothing to a collector that is not there. Console spans are written as
// each span ends, to Options.Console.
//
// It is a separate package from oteladcp so that instrumenting pulls in
// the OpenTelemetry API only; this one brings the SDK and the exporters.
package otelenv

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"go.opentelemetry.io/contrib/exporters/autoexport"
	"go.opentelemetry.io/contrib/propagators/autoprop"
	"go.opentelemetry.io/otel"
	promexporter "go.opentelemetry.io/otel/exporters/prometheus"
	"go.opentelemetry.io/otel/exporters/stdout/stdoutmetric"
	"go.opentelemetry.io/otel/exporters/stdout/stdouttrace"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
)

// Options configure Setup.
type Options struct {
	// Service is the service.name, unless OTEL_SERVICE_NAME or
	// OTEL_RESOURCE_ATTRIBUTES names one.
	Service string
	// Prometheus also keeps the metrics for a Prometheus scrape:
	// Telemetry.Metrics serves them as Prometheus text.
	Prometheus bool
	// Console is where the console exporters write (OTEL_TRACES_EXPORTER
	// or OTEL_METRICS_EXPORTER set to console); nil is os.Stdout. A
	// program whose standard output others read sets os.Stderr.
	Console io.Writer
}

// Telemetry is what Setup set up.
type Telemetry struct {
	// Metrics serves the metrics in the Prometheus text format (mount it
	// at /metrics); nil without Options.Prometheus.
	Metrics  http.Handler
	shutdown []func(context.Context) error
}

// Shutdown flushes and stops the exporters: call it before the program
// exits, or the last spans are lost.
func (t *Telemetry) Shutdown(ctx context.Context) error {
	var errs []error
	for _, f := range t.shutdown {
		errs = append(errs, f(ctx))
	}
	return errors.Join(errs...)
}

// Setup makes the tracer and meter providers the environment describes and
// sets them, with its propagators, as OpenTelemetry's global ones. It fails
// on an environment value it does not know (an exporter's name, a
// protocol).
func Setup(ctx context.Context, opts Options) (*Telemetry, error) {
	res, err := resource.New(ctx, resource.WithAttributes(semconv.ServiceName(opts.Service)), resource.WithFromEnv(), resource.WithTelemetrySDK())
	if err != nil {
		return nil, err
	}
	console := opts.Console
	if console == nil {
		console = os.Stdout
	}
	tpOpts := []sdktrace.TracerProviderOption{sdktrace.WithResource(res)}
	if os.Getenv("OTEL_TRACES_EXPORTER") == "console" {
		// Each span as it ends, where the program says.
		exp, err := stdouttrace.New(stdouttrace.WithWriter(console))
		if err != nil {
			return nil, err
		}
		tpOpts = append(tpOpts, sdktrace.WithSyncer(exp))
	} else {
		spans, err := autoexport.NewSpanExporter(ctx, autoexport.WithFallbackSpanExporter(otlpWhenSet("TRACES",
			func(ctx context.Context) (sdktrace.SpanExporter, error) {
				return autoexport.NewSpanExporter(ctx) // autoexport's default: OTLP
			}, func(context.Context) (sdktrace.SpanExporter, error) { return nil, nil })))
		if err != nil {
			return nil, err
		}
		if spans != nil && !autoexport.IsNoneSpanExporter(spans) {
			tpOpts = append(tpOpts, sdktrace.WithBatcher(spans))
		}
	}
	tp := sdktrace.NewTracerProvider(tpOpts...)
	t := &Telemetry{shutdown: []func(context.Context) error{tp.Shutdown}}

	mpOpts := []sdkmetric.Option{sdkmetric.WithResource(res)}
	var reader sdkmetric.Reader
	if os.Getenv("OTEL_METRICS_EXPORTER") == "console" {
		exp, err := stdoutmetric.New(stdoutmetric.WithWriter(console))
		if err != nil {
			_ = tp.Shutdown(ctx)
			return nil, err
		}
		reader = sdkmetric.NewPeriodicReader(exp)
	} else {
		reader, err = autoexport.NewMetricReader(ctx, autoexport.WithFallbackMetricReader(otlpWhenSet("METRICS",
			func(ctx context.Context) (sdkmetric.Reader, error) { return autoexport.NewMetricReader(ctx) },
			func(context.Context) (sdkmetric.Reader, error) { return nil, nil })))
		if err != nil {
			_ = tp.Shutdown(ctx)
			return nil, err
		}
	}
	if reader != nil && !autoexport.IsNoneMetricReader(reader) {
		mpOpts = append(mpOpts, sdkmetric.WithReader(reader))
	}
	if opts.Prometheus {
		reg := prometheus.NewRegistry()
		exp, err := promexporter.New(promexporter.WithRegisterer(reg))
		if err != nil {
			_ = tp.Shutdown(ctx)
			return nil, err
		}
		mpOpts = append(mpOpts, sdkmetric.WithReader(exp))
		t.Metrics = promhttp.HandlerFor(reg, promhttp.HandlerOpts{})
	}
	mp := sdkmetric.NewMeterProvider(mpOpts...)
	t.shutdown = append(t.shutdown, mp.Shutdown)

	otel.SetTracerProvider(tp)
	otel.SetMeterProvider(mp)
	otel.SetTextMapPropagator(autoprop.NewTextMapPropagator())
	return t, nil
}

// otlpWhenSet is the exporter of a signal whose OTEL_*_EXPORTER is unset:
// OTLP when an endpoint is set for it, else none.
func otlpWhenSet[T any](signal string, otlp, none func(context.Context) (T, error)) func(context.Context) (T, error) {
	return func(ctx context.Context) (T, error) {
		if os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_"+signal+"_ENDPOINT") != "" {
			return otlp(ctx)
		}
		return none(ctx)
	}
}
