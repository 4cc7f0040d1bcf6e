package oteladcp_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	adcp "github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/runtime/oteladcp"
	"github.com/adcpgen/adcpgen/runtime/seller"
)

// A record logged with a context carrying a span has its trace_id and
// span_id, through WithAttrs and WithGroup too; one without, none.
func TestLogHandler(t *testing.T) {
	tp := sdktrace.NewTracerProvider()
	defer tp.Shutdown(context.Background())
	ctx, span := tp.Tracer("test").Start(context.Background(), "call")
	defer span.End()
	sc := span.SpanContext()
	for _, tc := range []struct {
		name string
		log  func(*slog.Logger)
		want []string
	}{
		{"in a span", func(l *slog.Logger) { l.ErrorContext(ctx, "handler failed", "tool", "get_products") },
			[]string{"trace_id=" + sc.TraceID().String(), "span_id=" + sc.SpanID().String(), "tool=get_products"}},
		{"with attributes", func(l *slog.Logger) { l.With("replica", "a").InfoContext(ctx, "ok") },
			[]string{"replica=a", "trace_id=" + sc.TraceID().String()}},
		{"in a group", func(l *slog.Logger) { l.WithGroup("adcp").InfoContext(ctx, "ok", "k", "v") },
			[]string{"adcp.k=v", "adcp.trace_id=" + sc.TraceID().String()}},
		{"no span", func(l *slog.Logger) { l.InfoContext(context.Background(), "ok") }, []string{"msg=ok"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			tc.log(slog.New(oteladcp.LogHandler(slog.NewTextHandler(&buf, nil))))
			for _, w := range tc.want {
				if !strings.Contains(buf.String(), w) {
					t.Errorf("%q lacks %q", buf.String(), w)
				}
			}
			if tc.name == "no span" && strings.Contains(buf.String(), "trace_id") {
				t.Errorf("%q has a trace_id", buf.String())
			}
		})
	}
}

// The seller logs a handler's failure with the call's context: the record
// names the trace and the span of the call the buyer sees failing.
func TestSellerLogsCarryTrace(t *testing.T) {
	sig := newSignal(t)
	var buf bytes.Buffer
	var mu sync.Mutex
	logger := slog.New(oteladcp.LogHandler(slog.NewTextHandler(lockedWriter{&buf, &mu}, nil)))
	srv, err := seller.New(adcp.Spec(), seller.Options{Observer: sig.obs, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	seller.HandleSync(srv, adcp.Tools.GetProducts, func(context.Context, *adcp.GetProductsRequest) (*adcp.GetProductsResponse, error) {
		return nil, errors.New("inventory database unreachable")
	})
	a := srv.Serve(t.Context(), "get_products", &seller.Call{Transport: seller.TransportMCP, Arguments: []byte(`{"buying_mode":"brief","brief":"CTV"}`)})
	if a.Error == nil || a.Error.Code != "SERVICE_UNAVAILABLE" {
		t.Fatalf("answer %+v", a)
	}
	served := named(sig.spans.GetSpans(), "tools/call get_products")
	if len(served) != 1 {
		t.Fatalf("%d spans", len(served))
	}
	mu.Lock()
	defer mu.Unlock()
	line := buf.String()
	if !strings.Contains(line, "inventory database unreachable") || !strings.Contains(line, "trace_id="+served[0].SpanContext.TraceID().String()) {
		t.Fatalf("the log does not name the call's trace %s: %s", served[0].SpanContext.TraceID(), line)
	}
	if strings.Contains(kvs(served[0].Attributes), "unreachable") || served[0].Status.Description != "SERVICE_UNAVAILABLE" {
		t.Errorf("the span holds the error's text, or not its code: %v %q", served[0].Attributes, served[0].Status.Description)
	}
}

type lockedWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
