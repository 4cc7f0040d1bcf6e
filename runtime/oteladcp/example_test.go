package oteladcp_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"os"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	adcp "github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/idempotency"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/oteladcp"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
	"github.com/adcpgen/adcpgen/runtime/sellertask"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/webhook"
)

// A seller and a buyer (here in one process, on loopback) observed with
// one Observer on OpenTelemetry's global providers: the buyer's call and
// the seller's work on it are one trace. With your generated package,
// adcp.Spec() and adcp.Tools are its own.
func ExampleNew() {
	spans := tracetest.NewInMemoryExporter()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(spans))
	defer tp.Shutdown(context.Background())
	otel.SetTracerProvider(tp) // a program sets its providers once, at start-up
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))

	// snippet: observer
	obs, err := oteladcp.New(oteladcp.Options{}) // the global providers; set them before
	if err != nil {
		panic(err)
	}
	logger := slog.New(oteladcp.LogHandler(slog.NewTextHandler(os.Stderr, nil))) // records carry trace_id and span_id

	// The seller: every piece that reports takes the same Observer.
	store := sellerstore.NewMemory(nil)
	sender := webhook.NewSender(webhook.SenderOptions{Observer: obs})
	tasks := sellertask.New(adcp.Spec(), sellertask.Options{Store: store, Sender: sender, Observer: obs, Logger: logger})
	layer := idempotency.New(adcp.Spec(), store, idempotency.Options{Observer: obs, Logger: logger})
	srv, err := seller.New(adcp.Spec(), seller.Options{Tasks: tasks, Middleware: []seller.Middleware{layer.Middleware()},
		Observer: obs, Logger: logger})
	// end snippet
	if err != nil {
		panic(err)
	}
	seller.HandleSync(srv, adcp.Tools.GetProducts, func(ctx context.Context, req *adcp.GetProductsRequest) (*adcp.GetProductsResponse, error) {
		return &adcp.GetProductsResponse{Products: []adcp.Product{}}, nil
	})
	h, err := mcpserver.NewStreamableHandler(srv, mcpserver.Options{})
	if err != nil {
		panic(err)
	}
	ts := httptest.NewServer(h)
	defer ts.Close()
	url := ts.URL

	// snippet: buyer
	session, err := mcpclient.ConnectHTTP(context.Background(), url, nil, mcpclient.ConnectOptions{})
	if err != nil {
		panic(err)
	}
	defer session.Close()
	c, err := buyer.New(adcp.Spec(), session, buyer.WithObserver(obs)) // the trace context goes with each call
	// end snippet
	if err != nil {
		panic(err)
	}
	res, err := buyer.Call(context.Background(), c, adcp.Tools.GetProducts, &adcp.GetProductsRequest{BuyingMode: adcp.GetProductsRequestBuyingModeBrief, Brief: new("CTV")})
	if err != nil || res.Status != task.Completed {
		panic(fmt.Sprint(err))
	}
	for _, s := range spans.GetSpans() {
		fmt.Println(s.SpanKind, s.Name, s.SpanContext.TraceID() == spans.GetSpans()[0].SpanContext.TraceID())
	}
	// Output:
	// internal adcp.validate true
	// internal adcp.handler true
	// server tools/call get_products true
	// client tools/call get_products true
}
