package seller_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/internal/sellertest"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/seller/upstream"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

func serve(s *sellertest.Seller, tool, args string) *seller.Answer {
	return s.Serve(context.Background(), tool, &seller.Call{Arguments: json.RawMessage(args), Transport: seller.TransportMCP})
}

// errorJSON is the wire form of an answer's error.
func errorJSON(t *testing.T, a *seller.Answer) string {
	t.Helper()
	if a.Error == nil {
		t.Fatalf("want an error, got %s %s", a.Status, a.Body)
	}
	w, err := a.Error.WireJSON()
	if err != nil {
		t.Fatal(err)
	}
	return string(w)
}

// TestBadRequests sends every class of malformed arguments: none reaches
// the handler, and each gets the exact error.
func TestBadRequests(t *testing.T) {
	deep := strings.Repeat(`{"a":`, 600) + "1" + strings.Repeat("}", 600)
	for _, c := range []struct {
		name, tool, args string
		noSchemas        bool
		want             string // the adcp_error's wire JSON
	}{
		{name: "bad JSON", tool: "get_products", args: `{"buying_mode":`,
			want: `{"code":"INVALID_REQUEST","message":"The arguments are malformed: /buying_mode: want a value, got end of input","recovery":"correctable","field":"buying_mode"}`},
		{name: "not an object", tool: "get_products", args: `[1]`,
			want: `{"code":"INVALID_REQUEST","message":"The arguments must be a JSON object","recovery":"correctable"}`},
		{name: "duplicate key", tool: "get_products", args: `{"buying_mode":"brief","buying_mode":"wholesale"}`,
			want: `{"code":"INVALID_REQUEST","message":"The arguments are malformed: /buying_mode: duplicate key \"buying_mode\"","recovery":"correctable","field":"buying_mode"}`},
		{name: "escaped __proto__", tool: "get_products", args: `{"buying_mode":"brief","context":{"\u005f_proto__":{"admin":true}}}`,
			want: `{"code":"INVALID_REQUEST","message":"The arguments are malformed: /context/__proto__: forbidden key \"__proto__\"","recovery":"correctable","field":"context.__proto__"}`},
		{name: "invalid UTF-8", tool: "get_products", args: "{\"buying_mode\":\"brief\",\"brief\":\"\xff\"}",
			want: `{"code":"INVALID_REQUEST","message":"The arguments are malformed: /brief: invalid UTF-8 in string","recovery":"correctable","field":"brief"}`},
		{name: "too deep", tool: "get_products", args: `{"buying_mode":"brief","context":` + deep + `}`,
			want: `nesting deeper than 512 levels","recovery":"correctable","field":"context.a.a.a`},
		{name: "wrong type", tool: "get_products", args: `{"buying_mode":5}`,
			want: `{"code":"INVALID_REQUEST","message":"The request does not match the get_products request schema: /buying_mode: expected string, but got number","recovery":"correctable","field":"buying_mode","issues":[{"pointer":"/buying_mode","message":"expected string, but got number","keyword":"type"}]}`},
		{name: "missing required", tool: "get_products", args: `{"brief":"x"}`,
			want: `{"code":"INVALID_REQUEST","message":"The request does not match the get_products request schema: (root): missing required property \"buying_mode\"","recovery":"correctable","issues":[{"pointer":"","message":"missing required property \"buying_mode\"","keyword":"required"}]}`},
		{name: "minimum", tool: "get_products", args: `{"buying_mode":"brief","filters":{"max_cpm":-1}}`,
			want: `{"code":"INVALID_REQUEST","message":"The request does not match the get_products request schema: /filters/max_cpm: must be >= 0 but found -1","recovery":"correctable","field":"filters.max_cpm","issues":[{"pointer":"/filters/max_cpm","message":"must be >= 0 but found -1","keyword":"minimum"}]}`},
		{name: "additionalProperties", tool: "get_products", args: `{"buying_mode":"brief","filters":{"colour":"red"}}`,
			want: `"keyword":"additionalProperties"`},
		{name: "oneOf miss", tool: "create_media_buy", args: `{"idempotency_key":"0123456789abcdef","packages":[{"product_id":"p","budget":1,"pricing_option":{"model":"cpm","rate":1}}]}`,
			want: `"field":"packages[0].pricing_option`},
		{name: "major version", tool: "get_products", args: `{"buying_mode":"brief","adcp_major_version":99}`,
			want: `{"code":"VERSION_UNSUPPORTED","message":"adcp_major_version 99 is not served: this agent speaks 3.90-test","recovery":"correctable","field":"adcp_major_version","details":{"adcp_major_version":99,"supported_versions":["3.90-test"],"supported_majors":[3]}}`},
		{name: "unknown tool", tool: "delete_everything", args: `{}`,
			want: `{"code":"UNSUPPORTED_FEATURE","message":"This agent does not serve the tool \"delete_everything\"","recovery":"correctable"}`},
		// Without schemas the strict decoder alone refuses.
		{name: "decoder: wrong type", tool: "get_products", args: `{"buying_mode":"brief","brief":7}`, noSchemas: true,
			want: `{"code":"INVALID_REQUEST","message":"The arguments are malformed: /brief: want string, got number","recovery":"correctable","field":"brief","issues":[{"pointer":"/brief","message":"want string, got number","keyword":"type"}]}`},
		{name: "decoder: missing", tool: "create_media_buy", args: `{}`, noSchemas: true,
			want: `"issues":[{"pointer":"","message":"must have required property 'idempotency_key'","keyword":"required"},{"pointer":"","message":"must have required property 'packages'","keyword":"required"}]`},
		{name: "decoder: oneOf", tool: "create_media_buy", args: `{"idempotency_key":"k","packages":[{"product_id":"p","budget":1,"pricing_option":{"model":"cpc"}}]}`, noSchemas: true,
			want: `"keyword":"oneOf"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			var opts []sellertest.Option
			if c.noSchemas {
				opts = append(opts, sellertest.NoSchemas())
			}
			s := sellertest.NewSeller(t, seller.Options{}, opts...)
			a := serve(s, c.tool, c.args)
			got := errorJSON(t, a)
			if strings.HasPrefix(c.want, "{") {
				if got != c.want {
					t.Errorf("error\n got %s\nwant %s", got, c.want)
				}
			} else if !strings.Contains(got, c.want) {
				t.Errorf("error %s\nwant it to contain %s", got, c.want)
			}
			if a.Status != task.Failed || a.Body != nil {
				t.Errorf("status %s, body %s", a.Status, a.Body)
			}
			for _, tool := range []string{"get_products", "create_media_buy"} {
				if n := s.Calls(tool); n != 0 {
					t.Errorf("%s handler ran %d times", tool, n)
				}
			}
		})
	}
}

func TestSizeCap(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{MaxRequestBytes: 100})
	a := serve(s, "get_products", `{"buying_mode":"brief","brief":"`+strings.Repeat("x", 100)+`"}`)
	if got := errorJSON(t, a); got != `{"code":"INVALID_REQUEST","message":"The arguments are 134 bytes, more than the 100 this agent accepts","recovery":"correctable"}` {
		t.Errorf("got %s", got)
	}
	if s.Calls("get_products") != 0 {
		t.Error("handler ran")
	}
}

// TestContextEcho: the request's context comes back unchanged, byte for
// byte, in responses, interim answers and errors, whatever the handler did.
func TestContextEcho(t *testing.T) {
	ctx := `{"trace":"t-1","nested":{"b":[1,2.50,"\u00e9"],"a":null}}`
	s := sellertest.NewSeller(t, seller.Options{})
	for _, c := range []struct{ name, tool, args string }{
		{"response", "get_products", `{"buying_mode":"brief","context":` + ctx + `}`},
		{"submitted", "get_products", `{"buying_mode":"brief","brief":"async","context":` + ctx + `}`},
		{"working", "get_products", `{"buying_mode":"brief","brief":"working","context":` + ctx + `}`},
		{"handler error", "get_products", `{"buying_mode":"brief","brief":"code:BUDGET_TOO_LOW","context":` + ctx + `}`},
		{"panic", "get_products", `{"buying_mode":"brief","brief":"panic","context":` + ctx + `}`},
		{"schema refusal", "get_products", `{"buying_mode":"nope","context":` + ctx + `}`},
		{"union response", "create_media_buy", `{"idempotency_key":"0123456789abcdef","packages":[{"product_id":"p","budget":5}],"context":` + ctx + `}`},
		{"automatic capabilities", "get_adcp_capabilities", `{"context":` + ctx + `}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := serve(s, c.tool, c.args)
			got := a.Context
			if a.Error == nil {
				got = wire.Lenient(a.Body).Get("context").Raw()
			}
			if string(got) != ctx {
				t.Errorf("context = %s\nwant      %s (answer %s %s)", got, ctx, a.Body, errorJSON0(a))
			}
		})
	}
	// Without a context in the request, none is added.
	if a := serve(s, "get_products", `{"buying_mode":"brief"}`); wire.Lenient(a.Body).Get("context").Present() {
		t.Errorf("context added: %s", a.Body)
	}
}

func errorJSON0(a *seller.Answer) string {
	if a.Error == nil {
		return ""
	}
	w, _ := a.Error.WireJSON()
	return string(w)
}

func TestHandlerFailures(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{})
	internal := `{"code":"SERVICE_UNAVAILABLE","message":"Service temporarily unavailable","recovery":"transient"}`
	for _, c := range []struct{ brief, want, logged string }{
		{"goerr", internal, "query failed: " + sellertest.SecretText},
		{"panic", internal, "the handler panicked"},
		{"invalid", internal, "/products/0/product_id"},
		{"code:ACCOUNT_SUSPENDED", `{"code":"ACCOUNT_SUSPENDED","message":"m","recovery":"terminal"}`, ""},
		{"code:RATE_LIMITED:30", `{"code":"RATE_LIMITED","message":"m","recovery":"transient","retry_after":30}`, ""},
		{"code:X_VENDOR_OOPS", `{"code":"X_VENDOR_OOPS","message":"m","recovery":"transient"}`, ""}, // default_unknown_recovery
	} {
		t.Run(c.brief, func(t *testing.T) {
			a := serve(s, "get_products", `{"buying_mode":"brief","brief":"`+c.brief+`"}`)
			if got := errorJSON(t, a); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
			if strings.Contains(errorJSON(t, a)+a.Message, "hunter2") {
				t.Error("the Go error reached the buyer")
			}
			if c.logged != "" && !strings.Contains(s.Log.String(), c.logged) {
				t.Errorf("log lacks %q:\n%s", c.logged, s.Log.String())
			}
		})
	}
	// The server goes on serving after a panic.
	if a := serve(s, "get_products", `{"buying_mode":"brief"}`); a.Error != nil || !strings.Contains(string(a.Body), "ctv_premium") {
		t.Errorf("after the panic: %s %v", a.Body, a.Error)
	}
}

func TestUpstreamRateLimit(t *testing.T) {
	srv, err := seller.New(adcpt.Spec(), seller.Options{})
	if err != nil {
		t.Fatal(err)
	}
	seller.HandleSync(srv, adcpt.Tools.ListCreatives, func(context.Context, *adcpt.ListCreativesRequest) (*adcpt.ListCreativesResponse, error) {
		return nil, &upstream.Failure{StatusCode: 429, RetryAfter: "7", Err: errors.New("ad server at 10.0.0.7")}
	})
	a := srv.Serve(context.Background(), "list_creatives", &seller.Call{Arguments: json.RawMessage(`{}`)})
	w, _ := a.Error.WireJSON()
	if string(w) != `{"code":"RATE_LIMITED","message":"Request rate exceeded","recovery":"transient","retry_after":7}` {
		t.Errorf("got %s", w)
	}
}

func TestAutomaticCapabilities(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{})
	a := serve(s, "get_adcp_capabilities", `{}`)
	// The envelope's status goes beside the payload (the test schema does
	// not declare it).
	want := `{"adcp_version":"3.90-test","status":"completed","adcp":{"major_versions":[3],"supported_versions":["3.90-test"],"idempotency":{"supported":false}},"supported_protocols":["creative","media_buy"]}`
	if a.Error != nil || string(a.Body) != want {
		t.Errorf("got %s %v\nwant %s", a.Body, a.Error, want)
	}
	// The seller's base is kept and completed.
	s = sellertest.NewSeller(t, seller.Options{Capabilities: json.RawMessage(`{"adcp":{"idempotency":{"supported":true,"replay_ttl_seconds":86400}},"extensions_supported":["acme"]}`)})
	a = serve(s, "get_adcp_capabilities", `{}`)
	want = `{"adcp_version":"3.90-test","status":"completed","supported_protocols":["creative","media_buy"],"adcp":{"major_versions":[3],"supported_versions":["3.90-test"],"idempotency":{"supported":true,"replay_ttl_seconds":86400}},"extensions_supported":["acme"]}`
	if string(a.Body) != want {
		t.Errorf("got  %s\nwant %s", a.Body, want)
	}
	// A base that fails the schema is never sent.
	s = sellertest.NewSeller(t, seller.Options{Capabilities: json.RawMessage(`{"supported_protocols":["television"]}`)})
	if a = serve(s, "get_adcp_capabilities", `{}`); a.Error == nil || a.Error.Code != "SERVICE_UNAVAILABLE" {
		t.Errorf("invalid capabilities sent: %s", a.Body)
	}
	// A handler of the seller's own replaces the automatic answer.
	s = sellertest.NewSeller(t, seller.Options{})
	seller.HandleSync(s.Server, adcpt.Tools.GetAdCPCapabilities, func(context.Context, *adcpt.GetAdCPCapabilitiesRequest) (*adcpt.GetAdCPCapabilitiesResponse, error) {
		return &adcpt.GetAdCPCapabilitiesResponse{
			AdCP:               adcpt.GetAdCPCapabilitiesResponseAdCP{MajorVersions: []int64{3}, Idempotency: adcpt.GetAdCPCapabilitiesResponseAdCPIdempotency{Supported: true}},
			SupportedProtocols: []adcpt.GetAdCPCapabilitiesResponseSupportedProtocol{"signals"},
		}, nil
	})
	if a = serve(s, "get_adcp_capabilities", `{}`); !strings.Contains(string(a.Body), `"supported_protocols":["signals"]`) {
		t.Errorf("own handler not used: %s", a.Body)
	}
}

func TestRegistrationMistakesPanic(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{})
	for name, register := range map[string]func(){
		"twice": func() {
			seller.HandleSync(s.Server, adcpt.Tools.ListCreatives, func(context.Context, *adcpt.ListCreativesRequest) (*adcpt.ListCreativesResponse, error) {
				return nil, nil
			})
		},
		"another version": func() {
			other := task.NewTool[adcpt.ListCreativesRequest, adcpt.ListCreativesResponse, task.None, task.None, task.None]("list_creatives", "3.0.26")
			seller.HandleSync(s.Server, other, func(context.Context, *adcpt.ListCreativesRequest) (*adcpt.ListCreativesResponse, error) {
				return nil, nil
			})
		},
		"wrong types": func() {
			wrong := task.NewTool[adcpt.GetProductsRequest, adcpt.ListCreativesResponse, task.None, task.None, task.None]("get_products", adcpt.SpecVersion)
			seller.HandleSync(s.Server, wrong, func(context.Context, *adcpt.GetProductsRequest) (*adcpt.ListCreativesResponse, error) {
				return nil, nil
			})
		},
		"unknown tool": func() {
			ghost := task.NewTool[adcpt.GetProductsRequest, adcpt.GetProductsResponse, task.None, task.None, task.None]("ghost", adcpt.SpecVersion)
			seller.HandleSync(s.Server, ghost, func(context.Context, *adcpt.GetProductsRequest) (*adcpt.GetProductsResponse, error) { return nil, nil })
		},
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("no panic")
				}
			}()
			register()
		})
	}
}

func TestNewRefusesMismatchedSchemas(t *testing.T) {
	if _, err := seller.New(registry.NewSpec(registry.SpecConfig{Version: "3.0.26"}), seller.Options{Schemas: sellertest.Tree(t)}); err == nil || !strings.Contains(err.Error(), `"3.90.0-test"`) {
		t.Errorf("got %v", err)
	}
	if _, err := seller.New(adcpt.Spec(), seller.Options{ValidateResponses: true}); err == nil {
		t.Error("ValidateResponses without Schemas accepted")
	}
}

// TestNewRefusesMisconfiguration: settings that would fail every
// get_adcp_capabilities at request time are refused by New, naming the
// option.
func TestNewRefusesMisconfiguration(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  seller.Options
		want string // in the error; "" for none
	}{
		{"https brand.json", seller.Options{BrandJSONURL: "https://seller.example/.well-known/brand.json"}, ""},
		{"http brand.json", seller.Options{BrandJSONURL: "http://127.0.0.1:8080/.well-known/brand.json"}, "Options.BrandJSONURL"},
		{"relative brand.json", seller.Options{BrandJSONURL: "/.well-known/brand.json"}, "absolute https URL"},
		{"brand.json with credentials", seller.Options{BrandJSONURL: "https://u:p@seller.example/brand.json"}, "without credentials"},
		{"no host", seller.Options{BrandJSONURL: "https:///brand.json"}, "Options.BrandJSONURL"},
		{"capabilities an object", seller.Options{Capabilities: json.RawMessage(`{"media_buy":{}}`)}, ""},
		{"capabilities an array", seller.Options{Capabilities: json.RawMessage(`[]`)}, "Options.Capabilities: not a JSON object"},
		{"capabilities not JSON", seller.Options{Capabilities: json.RawMessage(`{"a":`)}, "Options.Capabilities"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := seller.New(adcpt.Spec(), tc.cfg)
			if (tc.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tc.want)) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
		})
	}
}

// TestTasks: a handler starts a task, answers submitted, and completes it
// later; only its principal reads it.
func TestTasks(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{})
	alice := seller.Principal{ID: "alice"}
	a := s.Serve(context.Background(), "get_products", &seller.Call{Principal: alice,
		Arguments: json.RawMessage(`{"buying_mode":"brief","brief":"async","context":{"k":1}}`)})
	body := `{"context":{"k":1},"adcp_version":"3.90-test","status":"submitted","task_id":"` + a.TaskID + `","message":"Queued."}`
	if a.Error != nil || a.Status != task.Submitted || a.TaskID == "" || string(a.Body) != body || a.Message != "Queued." {
		t.Fatalf("answer %+v %s", a, a.Body)
	}
	ctx := context.Background()
	snap, err := s.Tasks().Get(ctx, "alice", a.TaskID)
	if err != nil || snap.Status != task.Submitted || snap.Tool != "get_products" {
		t.Fatalf("snapshot %+v %v", snap, err)
	}
	if _, err := s.Tasks().Get(ctx, "mallory", a.TaskID); !errors.Is(err, seller.ErrTaskNotFound) {
		t.Errorf("another principal read the task: %v", err)
	}
	if _, err := s.Tasks().Get(ctx, "mallory", "task_nope"); !errors.Is(err, seller.ErrTaskNotFound) {
		t.Errorf("missing task: %v", err)
	}
	h := s.ProductsTask(a.TaskID)
	pct := 150.0 // over the schema's maximum
	var re *seller.ResponseError
	if err := h.Working(ctx, &adcpt.GetProductsWorking{Percentage: &pct}, ""); !errors.As(err, &re) || re.Issues[0].Pointer != "/percentage" {
		t.Errorf("invalid progress accepted: %v", err)
	}
	pct = 50
	if err := h.Working(ctx, &adcpt.GetProductsWorking{Percentage: &pct}, "Half way."); err != nil {
		t.Fatal(err)
	}
	if err := h.Complete(ctx, &adcpt.GetProductsResponse{Products: sellertest.Products()}, "Done."); err != nil {
		t.Fatal(err)
	}
	snap, _ = s.Tasks().Get(ctx, "alice", a.TaskID)
	if snap.Status != task.Completed || !strings.Contains(string(snap.Answer.Body), `"ctv_premium"`) || !strings.HasPrefix(string(snap.Answer.Body), `{"context":{"k":1},`) {
		t.Errorf("completed task: %s %s", snap.Status, snap.Answer.Body)
	}
	if err := h.Fail(ctx, errors.New("late")); err == nil {
		t.Error("a final task took another update")
	}
	// StartTask outside a call, or for another tool, fails.
	if _, err := seller.StartTask(ctx, adcpt.Tools.GetProducts); err == nil {
		t.Error("StartTask outside a call")
	}
}

func TestInterimWithoutTask(t *testing.T) {
	srv, _ := seller.New(adcpt.Spec(), seller.Options{})
	seller.Handle(srv, adcpt.Tools.GetProducts, func(context.Context, *adcpt.GetProductsRequest) (*adcpt.GetProductsResult, error) {
		return &adcpt.GetProductsResult{Status: task.Submitted}, nil
	})
	a := srv.Serve(context.Background(), "get_products", &seller.Call{Arguments: json.RawMessage(`{"buying_mode":"brief"}`)})
	if a.Error == nil || a.Error.Code != "SERVICE_UNAVAILABLE" {
		t.Errorf("submitted without a task: %+v", a)
	}
}

// TestMiddleware: middleware sees the raw request and the principal, and
// may answer instead of the handler; its answers get the context echoed.
func TestMiddleware(t *testing.T) {
	var seen []string
	mw := func(next seller.Dispatch) seller.Dispatch {
		return func(ctx context.Context, c *seller.Call) *seller.Answer {
			canon, err := c.Canonical("idempotency_key", "context")
			if err != nil {
				t.Error(err)
			}
			key, _ := c.StringMember("idempotency_key")
			seen = append(seen, c.Tool.Name+" "+c.Principal.ID+" "+key+" "+string(canon))
			if c.Tool.IdempotencyRequired && key == "replay-me-please-0001" {
				return &seller.Answer{Status: task.Completed, Body: json.RawMessage(`{"media_buy_id":"mb_stored"}`), Replayed: true}
			}
			return next(ctx, c)
		}
	}
	s := sellertest.NewSeller(t, seller.Options{Middleware: []seller.Middleware{mw}})
	a := s.Serve(context.Background(), "create_media_buy", &seller.Call{Principal: seller.Principal{ID: "p1"},
		Arguments: json.RawMessage(`{"packages":[{"budget":5,"product_id":"x"}],"idempotency_key":"replay-me-please-0001","context":{"c":true}}`)})
	if string(a.Body) != `{"context":{"c":true},"adcp_version":"3.90-test","status":"completed","replayed":true,"media_buy_id":"mb_stored"}` || !a.Replayed || s.Calls("create_media_buy") != 0 {
		t.Errorf("replay: %s replayed=%v calls=%d", a.Body, a.Replayed, s.Calls("create_media_buy"))
	}
	want := `create_media_buy p1 replay-me-please-0001 {"packages":[{"budget":5,"product_id":"x"}]}`
	if len(seen) != 1 || seen[0] != want {
		t.Errorf("middleware saw %q\nwant %q", seen, want)
	}
	// A refused request never reaches the middleware.
	serve(s, "create_media_buy", `{"packages":[]}`)
	if len(seen) != 1 {
		t.Errorf("middleware saw a refused request: %q", seen)
	}
}

func TestRawTool(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{})
	s.HandleRaw(seller.RawTool{Name: "echo_tool", ResponseSchema: "creative/list-creatives-response.json",
		Handler: func(ctx context.Context, c *seller.Call) *seller.Answer {
			if string(c.Member("bad")) == "true" {
				return &seller.Answer{Body: json.RawMessage(`{"creatives":"none"}`)}
			}
			return &seller.Answer{Body: json.RawMessage(`{"creatives":[]}`)}
		}})
	if a := serve(s, "echo_tool", `{"context":{"x":1}}`); string(a.Body) != `{"context":{"x":1},"adcp_version":"3.90-test","status":"completed","creatives":[]}` {
		t.Errorf("got %s %v", a.Body, a.Error)
	}
	if a := serve(s, "echo_tool", `{"bad":true}`); a.Error == nil || a.Error.Code != "SERVICE_UNAVAILABLE" {
		t.Errorf("invalid raw response sent: %s", a.Body)
	}
}

// TestErrorsKeepTheirShape: an error a handler returns goes out as it is,
// with the spec's recovery added when missing; one that cannot be sent is
// replaced by an internal error.
func TestErrorsKeepTheirShape(t *testing.T) {
	srv, _ := seller.New(adcpt.Spec(), seller.Options{})
	var next *adcperr.Error
	seller.HandleSync(srv, adcpt.Tools.ListCreatives, func(context.Context, *adcpt.ListCreativesRequest) (*adcpt.ListCreativesResponse, error) {
		return nil, next
	})
	for _, c := range []struct {
		e    *adcperr.Error
		want string
	}{
		{&adcperr.Error{Code: "BUDGET_TOO_LOW", Message: "too low", Field: "packages[0].budget", Suggestion: "raise it", Details: map[string]any{"minimum": 500}},
			`{"code":"BUDGET_TOO_LOW","message":"too low","recovery":"correctable","field":"packages[0].budget","suggestion":"raise it","details":{"minimum":500}}`},
		{&adcperr.Error{Code: "RATE_LIMITED", Message: "slow", Recovery: registry.Transient, RetryAfter: 90 * time.Minute},
			`{"code":"RATE_LIMITED","message":"slow","recovery":"transient","retry_after":3600}`},
		{&adcperr.Error{Code: "BUDGET_TOO_LOW"}, // no message: not sendable
			`{"code":"SERVICE_UNAVAILABLE","message":"Service temporarily unavailable","recovery":"transient"}`},
	} {
		next = c.e
		a := srv.Serve(context.Background(), "list_creatives", &seller.Call{Arguments: json.RawMessage(`{}`)})
		if got := errorJSON(t, a); got != c.want {
			t.Errorf("got  %s\nwant %s", got, c.want)
		}
	}
}

// An answer's body is Compact when the server encoded it and the context
// it echoes was compact; a replay, a raw handler's body or a spaced
// context leave it unknown.
func TestAnswerCompact(t *testing.T) {
	replay := func(next seller.Dispatch) seller.Dispatch {
		return func(ctx context.Context, c *seller.Call) *seller.Answer {
			if string(c.Member("po_number")) == `"replay"` {
				return &seller.Answer{Status: task.Completed, Body: json.RawMessage(`{"media_buy_id":"mb_stored"}`), Replayed: true}
			}
			return next(ctx, c)
		}
	}
	s := sellertest.NewSeller(t, seller.Options{Middleware: []seller.Middleware{replay}})
	s.HandleRaw(seller.RawTool{Name: "echo_tool", Handler: func(context.Context, *seller.Call) *seller.Answer {
		return &seller.Answer{Body: json.RawMessage(`{"creatives":[]}`)}
	}})
	for _, c := range []struct {
		tool, args string
		want       bool
	}{
		{"get_products", `{"buying_mode":"brief","context":{"c":[1,"a b"]}}`, true},
		{"get_products", `{"buying_mode":"brief"}`, true},
		{"get_products", `{"buying_mode":"brief","context":{"c": 1}}`, false},
		{"create_media_buy", `{"packages":[{"budget":5,"product_id":"x"}],"idempotency_key":"0123456789abcdef","po_number":"replay"}`, false},
		{"echo_tool", `{}`, false},
		{"get_products", `{"buying_mode":"brief","brief":"code:RATE_LIMITED"}`, false},
	} {
		a := serve(s, c.tool, c.args)
		if a.Compact() != c.want {
			t.Errorf("%s %s: Compact() = %v, want %v (%s)", c.tool, c.args, a.Compact(), c.want, a.Body)
		}
		if a.Compact() && wire.Lenient(a.Body).CompactLen() != len(a.Body) {
			t.Errorf("%s: a body said compact is not: %s", c.tool, a.Body)
		}
		// A body the server encoded says where its members lie.
		spans := a.Spans()
		if (spans != nil) != (c.tool == "get_products" && a.Error == nil) {
			t.Errorf("%s %s: spans %v", c.tool, c.args, spans)
		}
		i := 0
		wire.Lenient(a.Body).Members(func(k, v wire.Lenient) bool {
			if spans == nil {
				return false
			}
			if i >= len(spans) || string(a.Body[spans[i].Start:spans[i].End]) != string(v) || !strings.HasPrefix(string(a.Body[spans[i].Key:]), string(k)+":") {
				t.Errorf("%s: member %d %s:%s, spans %v", a.Body, i, k, v, spans)
				return false
			}
			i++
			return true
		})
		if spans != nil && i != len(spans) {
			t.Errorf("%s: %d members, %d spans", a.Body, i, len(spans))
		}
	}
}
