package sellertest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/task"
)

// Seller is a seller of the test spec whose get_products handler does what
// the request's brief says:
//
//	"panic"          panics
//	"goerr"          returns a plain Go error naming a secret
//	"code:X"         returns the AdCP error X (message "m", no recovery)
//	"code:X:N"       ... with retry_after N seconds
//	"invalid"        returns a product that fails the response schema
//	"hang"           waits for its context to end, then reports on GaveUp
//	"async"          starts a task and answers submitted
//	"working"        starts a task and answers working (percentage 10)
//	"input"          starts a task and answers input-required
//	anything else    returns two products
//
// create_media_buy answers submitted when po_number begins with "async",
// else a media buy; list_creatives (protected) lists one creative.
type Seller struct {
	*seller.Server
	// Calls counts handler calls by tool.
	calls sync.Map // tool → *atomic.Int64
	// GaveUp receives the brief of each "hang" call whose context ended.
	GaveUp chan string
	// Log holds what the server logged.
	Log *LogBuffer
	// Principals receives the principal of each handler call (buffered).
	Principals chan seller.Principal
	// Tasks holds the handles of started tasks by id.
	mu       sync.Mutex
	products map[string]*seller.TaskHandle[adcpt.GetProductsResponse, adcpt.GetProductsSubmitted, adcpt.GetProductsWorking, adcpt.GetProductsInputRequired]
	buys     map[string]*seller.TaskHandle[adcpt.CreateMediaBuyResponse, adcpt.CreateMediaBuySubmitted, adcpt.CreateMediaBuyWorking, task.None]
}

// SecretText is what a "goerr" handler's error says; it must never reach a
// buyer.
const SecretText = "db-7.internal:5432 password=hunter2"

// NewSeller returns the test seller. cfg's Logger is replaced by one the
// test can read; its Schemas default to the test tree and
// ValidateResponses to true (set cfg.Schemas to a tree of its own to
// change them; NoSchemas to serve without).
func NewSeller(t testing.TB, cfg seller.Options, opts ...Option) *Seller {
	t.Helper()
	var o options
	for _, f := range opts {
		f(&o)
	}
	s := &Seller{GaveUp: make(chan string, 16), Log: &LogBuffer{}, Principals: make(chan seller.Principal, 256),
		products: map[string]*seller.TaskHandle[adcpt.GetProductsResponse, adcpt.GetProductsSubmitted, adcpt.GetProductsWorking, adcpt.GetProductsInputRequired]{},
		buys:     map[string]*seller.TaskHandle[adcpt.CreateMediaBuyResponse, adcpt.CreateMediaBuySubmitted, adcpt.CreateMediaBuyWorking, task.None]{},
	}
	cfg.Logger = slog.New(slog.NewTextHandler(s.Log, &slog.HandlerOptions{Level: slog.LevelDebug}))
	if cfg.Schemas == nil && !o.noSchemas {
		cfg.Schemas = Tree(t)
		cfg.ValidateResponses = true
	}
	srv, err := seller.New(adcpt.Spec(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	s.Server = srv
	seller.Handle(srv, adcpt.Tools.GetProducts, s.getProducts)
	seller.Handle(srv, adcpt.Tools.CreateMediaBuy, s.createMediaBuy)
	seller.HandleSync(srv, adcpt.Tools.ListCreatives, func(ctx context.Context, req *adcpt.ListCreativesRequest) (*adcpt.ListCreativesResponse, error) {
		s.called(ctx, "list_creatives")
		return &adcpt.ListCreativesResponse{Creatives: []adcpt.ListCreativesResponseCreative{{CreativeID: "cr_1"}}}, nil
	})
	return s
}

// Option changes NewSeller.
type Option func(*options)

type options struct{ noSchemas bool }

// NoSchemas serves without a schema tree: strict decoding only.
func NoSchemas() Option { return func(o *options) { o.noSchemas = true } }

// Calls is how many times tool's handler ran.
func (s *Seller) Calls(tool string) int64 {
	v, _ := s.calls.LoadOrStore(tool, new(atomic.Int64))
	return v.(*atomic.Int64).Load()
}

func (s *Seller) called(ctx context.Context, tool string) {
	v, _ := s.calls.LoadOrStore(tool, new(atomic.Int64))
	v.(*atomic.Int64).Add(1)
	p, _ := seller.PrincipalFrom(ctx)
	select {
	case s.Principals <- p:
	default:
	}
}

// Products are what get_products answers.
func Products() []adcpt.Product {
	cpm := adcpt.NewPricingOptionCPM(adcpt.PricingOptionCPM{Rate: 12.5, Currency: "USD"})
	return []adcpt.Product{
		{ProductID: "ctv_premium", Name: "Premium CTV", PricingOptions: []adcpt.PricingOption{cpm}},
		{ProductID: "display_run", Name: "Run of site display"},
	}
}

func (s *Seller) getProducts(ctx context.Context, req *adcpt.GetProductsRequest) (*adcpt.GetProductsResult, error) {
	s.called(ctx, "get_products")
	brief := ""
	if req.Brief != nil {
		brief = *req.Brief
	}
	switch {
	case brief == "panic":
		panic("the handler panicked: " + SecretText)
	case brief == "goerr":
		return nil, errors.New("query failed: " + SecretText)
	case strings.HasPrefix(brief, "code:"):
		parts := strings.Split(brief, ":")
		e := &adcperr.Error{Code: parts[1], Message: "m"}
		if len(parts) > 2 {
			var n int
			fmt.Sscan(parts[2], &n)
			e.RetryAfter = time.Duration(n) * time.Second
		}
		return nil, e
	case brief == "invalid":
		return &adcpt.GetProductsResult{Response: &adcpt.GetProductsResponse{Products: []adcpt.Product{{ProductID: "", Name: "no id"}}}}, nil
	case brief == "hang":
		<-ctx.Done()
		s.GaveUp <- brief
		return nil, ctx.Err()
	case brief == "async" || brief == "working" || brief == "input":
		h, err := seller.StartTask(ctx, adcpt.Tools.GetProducts)
		if err != nil {
			return nil, err
		}
		s.mu.Lock()
		s.products[h.ID()] = h
		s.mu.Unlock()
		switch brief {
		case "working":
			pct := 10.0
			return &adcpt.GetProductsResult{Status: task.Working, Message: "Searching.", Working: &adcpt.GetProductsWorking{Percentage: &pct}}, nil
		case "input":
			reason := adcpt.GetProductsInputRequiredReason("CLARIFICATION_NEEDED")
			return &adcpt.GetProductsResult{Status: task.InputRequired, Message: "Which market?", InputRequired: &adcpt.GetProductsInputRequired{Reason: &reason}}, nil
		}
		return &adcpt.GetProductsResult{Status: task.Submitted, Message: "Queued.", Submitted: &adcpt.GetProductsSubmitted{}}, nil
	}
	return &adcpt.GetProductsResult{Message: "Found 2 products.", Response: &adcpt.GetProductsResponse{Products: Products()}}, nil
}

func (s *Seller) createMediaBuy(ctx context.Context, req *adcpt.CreateMediaBuyRequest) (*adcpt.CreateMediaBuyResult, error) {
	s.called(ctx, "create_media_buy")
	if req.PoNumber != nil && strings.HasPrefix(*req.PoNumber, "async") {
		h, err := seller.StartTask(ctx, adcpt.Tools.CreateMediaBuy)
		if err != nil {
			return nil, err
		}
		s.mu.Lock()
		s.buys[h.ID()] = h
		s.mu.Unlock()
		return &adcpt.CreateMediaBuyResult{Status: task.Submitted, Submitted: &adcpt.CreateMediaBuySubmitted{}}, nil
	}
	resp := adcpt.NewCreateMediaBuyResponseSuccess(adcpt.CreateMediaBuySuccess{MediaBuyID: "mb_1"})
	return &adcpt.CreateMediaBuyResult{Response: &resp}, nil
}

// ProductsTask returns the handle of a started get_products task.
func (s *Seller) ProductsTask(id string) *seller.TaskHandle[adcpt.GetProductsResponse, adcpt.GetProductsSubmitted, adcpt.GetProductsWorking, adcpt.GetProductsInputRequired] {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.products[id]
}

// BuyTask returns the handle of a started create_media_buy task.
func (s *Seller) BuyTask(id string) *seller.TaskHandle[adcpt.CreateMediaBuyResponse, adcpt.CreateMediaBuySubmitted, adcpt.CreateMediaBuyWorking, task.None] {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buys[id]
}

// LogBuffer collects log output, safe for concurrent writers.
type LogBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *LogBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String is everything logged so far.
func (l *LogBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Codes are the error codes of the test spec.
func Codes() []string {
	var out []string
	for _, c := range adcpt.Spec().Codes() {
		out = append(out, c.Code)
	}
	return out
}
