package oteladcp

import (
	"context"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/baggage"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/propagation"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"
	"go.opentelemetry.io/otel/trace"

	"github.com/adcpgen/adcpgen/runtime/observe"
)

// ScopeName is the instrumentation scope of the spans and metrics.
const ScopeName = "github.com/adcpgen/adcpgen/runtime/oteladcp"

// Options configure the Observer New returns. The zero value records to OpenTelemetry's
// global providers, which record nothing until the program sets them.
type Options struct {
	// TracerProvider makes the spans; nil means otel.GetTracerProvider().
	TracerProvider trace.TracerProvider
	// MeterProvider makes the metrics; nil means otel.GetMeterProvider().
	MeterProvider metric.MeterProvider
	// Propagator reads the trace context a caller sent and writes the one
	// the buyer and the webhook Sender send; nil means
	// otel.GetTextMapPropagator(), which propagates nothing until the
	// program sets one (propagation.TraceContext and Baggage, say).
	Propagator propagation.TextMapPropagator
}

// observer records the runtime's operations as OpenTelemetry spans and
// metrics.
type observer struct {
	tracer trace.Tracer
	prop   propagation.TextMapPropagator
	m      instruments
	sets   attributeSets
}

// New returns the observe.Observer that records the runtime's operations
// as OpenTelemetry spans and metrics to the providers of opts: set it as
// the Observer of seller.Options, idempotency.Options, sellertask.Options,
// webhook.SenderOptions and buyer.WithObserver. It is safe for concurrent
// use. New fails when the meter refuses an instrument.
func New(opts Options) (observe.Observer, error) {
	tp, mp, prop := opts.TracerProvider, opts.MeterProvider, opts.Propagator
	if tp == nil {
		tp = otel.GetTracerProvider()
	}
	if mp == nil {
		mp = otel.GetMeterProvider()
	}
	if prop == nil {
		prop = otel.GetTextMapPropagator()
	}
	o := &observer{
		tracer: tp.Tracer(ScopeName, trace.WithInstrumentationVersion(version), trace.WithSchemaURL(semconv.SchemaURL)),
		prop:   prop,
	}
	m, err := newInstruments(mp.Meter(ScopeName, metric.WithInstrumentationVersion(version), metric.WithSchemaURL(semconv.SchemaURL)))
	if err != nil {
		return nil, err
	}
	o.m = m
	return o, nil
}

// version is the instrumentation's version: the scope's schema is what
// changes its names.
const version = "0.1.0"

// Start implements observe.Observer: op becomes a span, named and kinded
// as docs/telemetry.md says, and its metrics are recorded when it ends.
func (o *observer) Start(ctx context.Context, op *observe.Op) (context.Context, func()) {
	start := time.Now()
	name, kind := spanName(op)
	opts := []trace.SpanStartOption{kindOptions[kind]}
	if kind != trace.SpanKindInternal {
		// A call's attributes are there for a sampler to read.
		opts = append(opts, trace.WithAttributes(startAttrs(op, nil)...))
	}
	if op.Peer != nil {
		ctx, opts = o.continueCaller(ctx, op.Peer, opts)
	}
	ctx, span := o.tracer.Start(ctx, name, opts...)
	if !span.IsRecording() && !o.m.enabled(ctx, op.Kind) {
		return ctx, nothing // no provider, or sampled out with no meter: nothing to record
	}
	return ctx, func() { o.end(ctx, op, span, kind, start) }
}

// nothing ends an operation with nothing to record.
func nothing() {}

// Inject implements observe.Observer with the Propagator.
func (o *observer) Inject(ctx context.Context, set func(key, value string)) {
	o.prop.Inject(ctx, setter(set))
}

// continueCaller makes the trace context the caller sent the served call's
// parent, as the MCP conventions ask, unless ctx already continues that
// trace (an HTTP server span of otelhttp, say, which read the same
// headers): the call then nests under it. A context of another trace
// becomes a link.
func (o *observer) continueCaller(ctx context.Context, peer observe.Carrier, opts []trace.SpanStartOption) (context.Context, []trace.SpanStartOption) {
	remote := o.prop.Extract(context.Background(), carrier(peer))
	rsc := trace.SpanContextFromContext(remote)
	if !rsc.IsValid() {
		return ctx, opts
	}
	amb := trace.SpanContextFromContext(ctx)
	if amb.IsValid() && amb.TraceID() == rsc.TraceID() {
		return ctx, opts
	}
	if amb.IsValid() {
		opts = append(opts, trace.WithLinks(trace.Link{SpanContext: amb}))
	}
	ctx = trace.ContextWithRemoteSpanContext(ctx, rsc)
	if b := baggage.FromContext(remote); b.Len() > 0 {
		ctx = baggage.ContextWithBaggage(ctx, b)
	}
	return ctx, opts
}

// kindOptions are the span kind options, made once.
var kindOptions = map[trace.SpanKind]trace.SpanStartOption{
	trace.SpanKindInternal: trace.WithSpanKind(trace.SpanKindInternal),
	trace.SpanKindServer:   trace.WithSpanKind(trace.SpanKindServer),
	trace.SpanKindClient:   trace.WithSpanKind(trace.SpanKindClient),
	trace.SpanKindProducer: trace.WithSpanKind(trace.SpanKindProducer),
	trace.SpanKindConsumer: trace.WithSpanKind(trace.SpanKindConsumer),
}

// end closes op's span with its outcome and records its metrics. The
// span's clock is the SDK's; the metrics' duration is measured here.
func (o *observer) end(ctx context.Context, op *observe.Op, span trace.Span, kind trace.SpanKind, start time.Time) {
	d := time.Since(start)
	if span.IsRecording() {
		if kind == trace.SpanKindInternal {
			// One write of all its attributes: the span's slice grows once.
			span.SetAttributes(endAttrs(op, startAttrs(op, make([]attribute.KeyValue, 0, 12)))...)
		} else {
			span.SetAttributes(endAttrs(op, nil)...)
		}
		if et := errorType(op); et != "" {
			desc := op.Code
			if desc == "" {
				desc = et
			}
			span.SetStatus(codes.Error, desc)
		}
	}
	span.End()
	o.record(ctx, op, d)
}

// carrier reads a Carrier for a propagator; nothing is written to it.
type carrier observe.Carrier

func (c carrier) Get(key string) string { return c(key) }
func (carrier) Set(string, string)      {}
func (carrier) Keys() []string          { return nil }

// setter writes a propagator's fields with an Inject's set; nothing is read.
type setter func(key, value string)

func (setter) Get(string) string       { return "" }
func (s setter) Set(key, value string) { s(key, value) }
func (setter) Keys() []string          { return nil }
