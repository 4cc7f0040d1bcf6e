// Command buyer is a Go AdCP buyer built on adcpgen: it connects to a
// seller over MCP or A2A, lists the seller's tools, asks for products with
// get_products, creates a media buy with create_media_buy (the client adds
// the idempotency_key the tool requires) and follows the task the seller
// answers with to completion, all through the typed calls of the 3.0.26
// bindings it generates (see gen.go); it reads the releases the seller
// speaks and asks for products again in 3.1 and 3.2-beta.5, with clients
// pinned there (releases.go). Its calls are traced as the OTEL_*
// environment says (runtime/oteladcp): the run is one trace, which the
// seller's spans continue.
//
//	buyer -agent http://127.0.0.1:8080/mcp -api-key KEY
//	buyer -transport a2a -agent http://127.0.0.1:8080 -api-key KEY
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/codes"

	"example.com/buyer/adcp"

	"github.com/adcpgen/adcpgen/runtime/a2aclient"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/oteladcp"
	"github.com/adcpgen/adcpgen/runtime/oteladcp/otelenv"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/untrusted"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

func main() {
	agent := flag.String("agent", "", "the seller: its MCP endpoint (http://host/mcp), or for A2A the URL its agent card is served under")
	transport := flag.String("transport", "mcp", "mcp or a2a")
	apiKey := flag.String("api-key", "", "sent as Authorization: Bearer KEY")
	timeout := flag.Duration("timeout", time.Minute, "give up after this long")
	flag.Parse()
	if *agent == "" || (*transport != "mcp" && *transport != "a2a") {
		fmt.Fprintln(os.Stderr, "usage: buyer -agent URL [-transport mcp|a2a] [-api-key KEY]")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	// OpenTelemetry as the OTEL_* environment says (OTEL_TRACES_EXPORTER=
	// console prints each span on stderr; OTLP when
	// OTEL_EXPORTER_OTLP_ENDPOINT is set), flushed before the exit.
	tel, err := otelenv.Setup(ctx, otelenv.Options{Service: "adcp-buyer", Console: os.Stderr})
	if err == nil {
		err = run(ctx, *agent, *transport, &http.Client{Transport: otelhttp.NewTransport(bearer{*apiKey})})
		if ferr := tel.Shutdown(context.WithoutCancel(ctx)); err == nil {
			err = ferr
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "buyer:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, agent, transport string, hc *http.Client) (err error) {
	// One trace for the whole run: every call's span, and the seller's
	// spans of each, under this one (oteladcp records them).
	ctx, span := otel.Tracer("example.com/buyer").Start(ctx, "buyer "+transport)
	defer func() {
		if err != nil {
			span.SetStatus(codes.Error, "the run failed")
		}
		span.End()
	}()
	obs, err := oteladcp.New(oteladcp.Options{})
	if err != nil {
		return err
	}
	// The transport keeps the seller's exact bytes; the client reads them
	// with the strict decoders of the generated package.
	var t buyer.Transport
	if transport == "mcp" {
		s, err := mcpclient.ConnectHTTP(ctx, agent, hc, mcpclient.ConnectOptions{})
		if err != nil {
			return err
		}
		defer s.Close()
		t = s
	} else {
		c, err := a2aclient.Dial(ctx, agent, hc)
		if err != nil {
			return err
		}
		defer c.Close()
		t = c
	}
	c, err := buyer.New(adcp.Spec(), t, buyer.WithObserver(obs))
	if err != nil {
		return err
	}
	fmt.Printf("AdCP %s over %s\n", adcp.Spec().Version(), transport)

	tools, err := c.ToolNames(ctx)
	if err != nil {
		return err
	}
	for _, need := range []string{"get_products", "create_media_buy"} {
		if !slices.Contains(tools, need) {
			return fmt.Errorf("the seller does not offer %s (it offers %s)", need, strings.Join(tools, ", "))
		}
	}
	slices.Sort(tools)
	fmt.Printf("tools: %s\n", strings.Join(tools, " "))

	// The releases the seller speaks (its supported_versions), and the same
	// seller at each later release this program holds a package of: a
	// client pinned there (Pin) declares it on every call, and the answer
	// comes back in it, decoded by that release's types.
	releases, err := c.Releases(ctx)
	if err != nil {
		return err
	}
	fmt.Printf("releases: %s\n", strings.Join(releases, " "))
	if err := laterReleases(ctx, c, releases); err != nil {
		return err
	}

	products, err := buyer.Call(ctx, c, adcp.Tools.GetProducts, &adcp.GetProductsRequest{
		BuyingMode: adcp.GetProductsRequestBuyingModeBrief,
		Brief:      new("Display and video for a coffee brand, 4 weeks in January"),
	})
	if err != nil {
		return explain("get_products", err)
	}
	if products.Status != task.Completed || len(products.Response.Products) == 0 {
		return fmt.Errorf("get_products: %s with %d products", products.Status, productCount(products.Response))
	}
	for _, p := range products.Response.Products {
		id, model := pricing(p.PricingOptions)
		fmt.Printf("product %s: %s (%s), pricing %s (%s)\n", untrusted.Sanitize(p.ProductID), untrusted.Sanitize(p.Name),
			p.DeliveryType, untrusted.Sanitize(id), model)
	}

	// A po_number starting with "async" makes the test seller answer
	// submitted; WaitForCompletion polls the status tool until the task
	// ends, and OnProgress sees each interim answer on the way.
	first := products.Response.Products[0]
	optionID, _ := pricing(first.PricingOptions)
	req := &adcp.CreateMediaBuyRequest{
		// The account by its natural key, brand and operator (the brand
		// buying directly): account ids are the seller's to assign
		// (sync_accounts, list_accounts), and the test seller refuses one
		// it never gave with ACCOUNT_NOT_FOUND.
		Account:  adcp.NewAccountReferenceBrand(adcp.AccountReferenceBrand{Brand: adcp.BrandReference{Domain: "coffee.example"}, Operator: "coffee.example"}),
		Brand:    adcp.BrandReference{Domain: "coffee.example"},
		PoNumber: new("async-example-1"),
		// No IdempotencyKey: the tool requires one, and the client adds a
		// fresh UUID v4 (resent unchanged if the call is retried).
		StartTime: adcp.StartTiming("2027-01-04T00:00:00Z"),
		EndTime:   wire.DateTime("2027-01-31T23:59:59Z"),
		Packages:  []adcp.PackageRequest{{ProductID: first.ProductID, PricingOptionID: optionID, Budget: 5000}},
	}
	progress := buyer.OnProgress(func(r *buyer.Reply) {
		fmt.Printf("create_media_buy: %s, task %s, idempotency_key %s\n", r.Status, untrusted.Sanitize(r.TaskID), keyKind(r.IdempotencyKey))
	})
	buy, err := buyer.Call(ctx, c, adcp.Tools.CreateMediaBuy, req, buyer.WaitForCompletion(), progress)
	if err != nil {
		return explain("create_media_buy", err)
	}
	switch {
	case buy.Status != task.Completed:
		return fmt.Errorf("create_media_buy: the task ended %s (%s)", buy.Status, untrusted.SanitizeTruncate(buy.Message, 256))
	case buy.Response.Success == nil:
		return fmt.Errorf("create_media_buy: the seller refused the buy: %s", buy.Response.Variant())
	}
	mb := buy.Response.Success
	status := "unknown"
	if mb.Status != nil {
		status = string(*mb.Status)
	}
	fmt.Printf("create_media_buy: completed, media buy %s, status %s, %d package(s)\n", untrusted.Sanitize(mb.MediaBuyID), status, len(mb.Packages))
	return nil
}

// pricing names a product's first pricing option: the id a package
// refers to and its model (a sealed union, one arm per pricing model).
func pricing(options []adcp.PricingOption) (id string, model string) {
	if len(options) == 0 {
		return "", "none"
	}
	switch o := options[0]; o.Kind() {
	case adcp.PricingOptionKindCPM:
		return o.CPM.PricingOptionID, "cpm"
	case adcp.PricingOptionKindVCPM:
		return o.VCPM.PricingOptionID, "vcpm"
	case adcp.PricingOptionKindCPC:
		return o.CPC.PricingOptionID, "cpc"
	case adcp.PricingOptionKindCPCV:
		return o.CPCV.PricingOptionID, "cpcv"
	case adcp.PricingOptionKindCPV:
		return o.CPV.PricingOptionID, "cpv"
	case adcp.PricingOptionKindCPP:
		return o.CPP.PricingOptionID, "cpp"
	case adcp.PricingOptionKindCPA:
		return o.CPA.PricingOptionID, "cpa"
	case adcp.PricingOptionKindFlatRate:
		return o.FlatRate.PricingOptionID, "flat_rate"
	case adcp.PricingOptionKindTime:
		return o.Time.PricingOptionID, "time"
	}
	return "", "unknown"
}

func productCount(r *adcp.GetProductsResponse) int {
	if r == nil {
		return 0
	}
	return len(r.Products)
}

// keyKind says what kind of key the call carried, without printing it.
func keyKind(key string) string {
	if len(key) == 36 && key[14] == '4' {
		return "a generated UUID v4"
	}
	if key == "" {
		return "none"
	}
	return "set by the caller"
}

// explain describes a failed call: an AdCP error by its code and what the
// recovery rules say to do; anything else as it is.
func explain(tool string, err error) error {
	var ae *adcperr.Error
	if errors.As(err, &ae) {
		return fmt.Errorf("%s: the seller answered %s (%s: %s)", tool, ae.Code, ae.Recovery, ae.Action())
	}
	return err
}

// bearer adds the API key to every request, the agent card's included.
type bearer struct{ key string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	if b.key == "" {
		return http.DefaultTransport.RoundTrip(r)
	}
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return http.DefaultTransport.RoundTrip(r)
}
