package seller_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/internal/sellertest"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// laterSpec is the test spec as a later release would publish it, with
// the same types (so everything maps mechanically) and without drop (a
// tool the later release removed).
func laterSpec(drop string) *registry.Spec {
	s := adcpt.Spec()
	var tools registry.Tools
	for _, t := range s.Tools() {
		if t.Name != drop {
			tools = append(tools, t)
		}
	}
	return registry.NewSpec(registry.SpecConfig{Version: "3.91.0-test", Tools: tools, Codes: s.Codes(), NewDetails: s.NewDetails})
}

// bridgedSeller is the test seller (release 3.90-test, the default) with a
// server of 3.91-test serving its tools through Bridge.
func bridgedSeller(t *testing.T, shims map[string]seller.Shim) (*sellertest.Seller, *seller.Server) {
	t.Helper()
	h := sellertest.NewSeller(t, seller.Options{})
	later, err := seller.New(laterSpec(""), seller.Options{Logger: h.Logger()})
	if err != nil {
		t.Fatal(err)
	}
	if err := later.Bridge(h.Server, shims); err != nil {
		t.Fatal(err)
	}
	if err := h.AddRelease(later); err != nil {
		t.Fatal(err)
	}
	return h, later
}

func serveAt(h *sellertest.Seller, tool, args string) *seller.Answer {
	return h.Serve(context.Background(), tool, &seller.Call{Principal: seller.Principal{ID: "alice"}, Arguments: json.RawMessage(args)})
}

// TestBridgeMechanical: a release served through another release's
// handlers answers in its own release (its echo, its envelope), the
// handler seeing the call it serves.
func TestBridgeMechanical(t *testing.T) {
	h, later := bridgedSeller(t, nil)
	if !later.Serves("get_products") || !later.Serves("create_media_buy") || !later.Serves("list_creatives") {
		t.Fatalf("bridged tools: %v", later.Tools())
	}
	a := serveAt(h, "get_products", `{"adcp_version":"3.91-test","buying_mode":"brief","context":{"k":1}}`)
	if a.Error != nil || !wire.Lenient(a.Body).Get("adcp_version").StringIs("3.91-test") || a.Release != "3.91-test" ||
		!strings.Contains(string(a.Body), `"product_id":"ctv_premium"`) || !strings.HasPrefix(string(a.Body), `{"context":{"k":1},`) {
		t.Fatalf("bridged get_products: %s %v\n%s", a.Body, a.Error, h.Log)
	}
	if h.Calls("get_products") != 1 {
		t.Errorf("the handler ran %d times", h.Calls("get_products"))
	}
	// The default release is the handlers' own.
	if a := serveAt(h, "get_products", `{"buying_mode":"brief"}`); !wire.Lenient(a.Body).Get("adcp_version").StringIs("3.90-test") {
		t.Errorf("the default release: %s", a.Body)
	}
	// A handler's AdCP error, in the served release.
	a = serveAt(h, "get_products", `{"adcp_version":"3.91-test","buying_mode":"brief","brief":"code:PRODUCT_NOT_FOUND"}`)
	if obj, _ := seller.ErrorObject(a); a.Error == nil || a.Error.Code != "PRODUCT_NOT_FOUND" || !wire.Lenient(obj).Get("adcp_version").StringIs("3.91-test") {
		t.Errorf("bridged error: %s", obj)
	}
}

// TestBridgeTasks: a task a bridged handler starts answers in the served
// release when it starts, when the handler reports and when another
// replica reopens it (OpenTask).
func TestBridgeTasks(t *testing.T) {
	h, _ := bridgedSeller(t, nil)
	a := serveAt(h, "create_media_buy", `{"adcp_version":"3.91-test","idempotency_key":"k-0123456789abcdef","po_number":"async-1","packages":[{"product_id":"p","budget":5}],"context":{"c":1}}`)
	if a.Error != nil || a.Status != task.Submitted || !wire.Lenient(a.Body).Get("adcp_version").StringIs("3.91-test") {
		t.Fatalf("submitted: %s %v\n%s", a.Body, a.Error, h.Log)
	}
	ctx := context.Background()
	// Reopened through the handlers' server, as a replica's poll does.
	handle, req, err := seller.OpenTask(ctx, h.Server, adcpt.Tools.CreateMediaBuy, "alice", a.TaskID)
	if err != nil || req == nil || *req.PoNumber != "async-1" {
		t.Fatalf("OpenTask: %v %+v", err, req)
	}
	resp := adcpt.NewCreateMediaBuyResponseSuccess(adcpt.CreateMediaBuySuccess{MediaBuyID: "mb_9"})
	if err := handle.Complete(ctx, &resp, "Done."); err != nil {
		t.Fatal(err)
	}
	snap, err := h.Tasks().Get(ctx, "alice", a.TaskID)
	if err != nil || snap.Status != task.Completed || !wire.Lenient(snap.Answer.Body).Get("adcp_version").StringIs("3.91-test") ||
		!wire.Lenient(snap.Answer.Body).Get("context").Present() {
		t.Errorf("completed: %v %s", err, snap.Answer.Body)
	}
	// A task started in the handlers' own release stays there.
	a = serveAt(h, "create_media_buy", `{"idempotency_key":"k-0123456789abcdeg","po_number":"async-2","packages":[{"product_id":"p","budget":5}]}`)
	handle, _, err = seller.OpenTask(ctx, h.Server, adcpt.Tools.CreateMediaBuy, "alice", a.TaskID)
	if err != nil {
		t.Fatal(err)
	}
	if err := handle.Complete(ctx, &resp, "Done."); err != nil {
		t.Fatal(err)
	}
	if snap, _ := h.Tasks().Get(ctx, "alice", a.TaskID); !wire.Lenient(snap.Answer.Body).Get("adcp_version").StringIs("3.90-test") {
		t.Errorf("a task of the default release: %s", snap.Answer.Body)
	}
}

// TestBridgeGaps: what does not map is never sent: a request the
// handler's release refuses is UNSUPPORTED_FEATURE, a payload the served
// release refuses SERVICE_UNAVAILABLE, each logged with the tool and
// where; a shim adapts either direction.
func TestBridgeGaps(t *testing.T) {
	h, _ := bridgedSeller(t, map[string]seller.Shim{
		"get_products": {
			Request: func(args json.RawMessage) (json.RawMessage, error) {
				if wire.Lenient(args).Get("brief").StringIs("unmappable") {
					return nil, errors.New("briefs of that kind have no equivalent")
				}
				out, _ := wire.Lenient(args).WithMember("brief", []byte(`"rewritten"`))
				return out, nil
			},
			Response: func(status task.Status, p json.RawMessage) (json.RawMessage, error) {
				if status != task.Completed {
					return p, nil
				}
				if strings.Contains(string(p), "ctv_premium") {
					out, _ := wire.Lenient(p).WithMember("products", []byte(`"not a list"`))
					return out, nil
				}
				return p, nil
			},
		},
	})
	a := serveAt(h, "get_products", `{"adcp_version":"3.91-test","buying_mode":"brief","brief":"unmappable","context":{"k":2}}`)
	if a.Error == nil || a.Error.Code != "UNSUPPORTED_FEATURE" || !strings.Contains(a.Error.Message, "no equivalent") || string(a.Context) != `{"k":2}` {
		t.Errorf("an unmappable request: %+v", a.Error)
	}
	if h.Calls("get_products") != 0 || !strings.Contains(h.Log.String(), "does not map") {
		t.Errorf("calls %d, log %s", h.Calls("get_products"), h.Log)
	}
	a = serveAt(h, "get_products", `{"adcp_version":"3.91-test","buying_mode":"brief","brief":"anything"}`)
	if a.Error == nil || a.Error.Code != "SERVICE_UNAVAILABLE" || !strings.Contains(h.Log.String(), "/products") {
		t.Errorf("an unmappable answer: %s %+v\n%s", a.Body, a.Error, h.Log)
	}
	// The shims apply only to the bridged release.
	if a := serveAt(h, "get_products", `{"buying_mode":"brief","brief":"unmappable"}`); a.Error != nil {
		t.Errorf("the handlers' own release: %v", a.Error)
	}
}

// TestBridgeComplete: a shim's Complete runs before Response with the
// served release's call, whose request it reads as the buyer sent it; what
// it returns goes through Response to the answer (read and validated as
// the served release's), and its error is the shim's.
func TestBridgeComplete(t *testing.T) {
	h, _ := bridgedSeller(t, map[string]seller.Shim{
		"get_products": {
			Complete: func(c *seller.Call, status task.Status, p json.RawMessage) (json.RawMessage, error) {
				if status != task.Completed || !strings.Contains(string(p), "ctv_premium") {
					return nil, errors.New("not the handler's payload")
				}
				brief, _ := wire.Lenient(c.Member("brief")).AsString()
				if brief == "fail" {
					return nil, errors.New("refused")
				}
				out, _ := wire.Lenient(p).WithMember("products", []byte(`"`+c.Release+`"`))
				if brief == "valid" {
					out, _ = wire.Lenient(p).WithMember("products", []byte(`[]`))
				}
				return out, nil
			},
			Response: func(_ task.Status, p json.RawMessage) (json.RawMessage, error) {
				if strings.Contains(string(p), "ctv_premium") {
					return nil, errors.New("Complete has not run")
				}
				return p, nil
			},
		},
	})
	cases := []struct{ brief, code, body string }{
		{brief: "valid", body: `"products":[]`},
		{brief: "fail", code: "SERVICE_UNAVAILABLE"},
		{brief: "release", code: "SERVICE_UNAVAILABLE"}, // "products":"3.91-test" is not the served release's payload
	}
	for _, tc := range cases {
		a := serveAt(h, "get_products", `{"adcp_version":"3.91-test","buying_mode":"brief","brief":"`+tc.brief+`"}`)
		if tc.code != "" {
			if a.Error == nil || a.Error.Code != tc.code {
				t.Errorf("%s: %s %+v, want %s", tc.brief, a.Body, a.Error, tc.code)
			}
			continue
		}
		if a.Error != nil || !strings.Contains(string(a.Body), tc.body) {
			t.Errorf("%s: %s %+v, want %s", tc.brief, a.Body, a.Error, tc.body)
		}
	}
	if !strings.Contains(h.Log.String(), "refused") || !strings.Contains(h.Log.String(), "3.91-test") {
		t.Errorf("log: %s", h.Log)
	}
	// Complete applies only to the bridged release.
	if a := serveAt(h, "get_products", `{"buying_mode":"brief","brief":"fail"}`); a.Error != nil || !strings.Contains(string(a.Body), "ctv_premium") {
		t.Errorf("the handlers' own release: %s %v", a.Body, a.Error)
	}
}

// TestBridgeSetup: Bridge keeps the served release's own handlers, leaves
// out (and names) the tools that release lacks, and refuses a shim for a
// tool the handlers' server does not serve.
func TestBridgeSetup(t *testing.T) {
	h := sellertest.NewSeller(t, seller.Options{})
	later, err := seller.New(laterSpec("list_creatives"), seller.Options{})
	if err != nil {
		t.Fatal(err)
	}
	own := 0
	later.HandleRaw(seller.RawTool{Name: "get_products", Handler: func(context.Context, *seller.Call) *seller.Answer {
		own++
		return &seller.Answer{Body: json.RawMessage(`{"products":[]}`)}
	}})
	var be *seller.BridgeError
	if err := later.Bridge(h.Server, nil); !errors.As(err, &be) || len(be.Tools) != 1 || be.Tools[0] != "list_creatives" {
		t.Fatalf("Bridge: %v", err)
	}
	if err := h.AddRelease(later); err != nil {
		t.Fatal(err)
	}
	if a := serveAt(h, "get_products", `{"adcp_version":"3.91-test","buying_mode":"brief"}`); a.Error != nil || own != 1 || h.Calls("get_products") != 0 {
		t.Errorf("the release's own handler: %s %v (own %d)", a.Body, a.Error, own)
	}
	if a := serveAt(h, "list_creatives", `{"adcp_version":"3.91-test"}`); a.Error == nil || a.Error.Code != "UNSUPPORTED_FEATURE" {
		t.Errorf("a tool the release lacks: %s", a.Body)
	}
	other, _ := seller.New(laterSpec(""), seller.Options{})
	if err := other.Bridge(h.Server, map[string]seller.Shim{"sync_everything": {}}); err == nil || !strings.Contains(err.Error(), "sync_everything") {
		t.Errorf("a shim for no tool: %v", err)
	}
}

// TestBridgeOwnedIssues: a shim that owns a served release's schema
// violations (Shim.OwnsIssues) gets the call to the handler with them in
// SchemaIssues; a violation it does not own still refuses the call. The
// handlers are an earlier release's (3.89-test), the served release the
// test spec with its schemas.
func TestBridgeOwnedIssues(t *testing.T) {
	test := adcpt.Spec()
	earlier := registry.NewSpec(registry.SpecConfig{Version: "3.89.0-test", Tools: test.Tools(), Codes: test.Codes(), NewDetails: test.NewDetails})
	var seen []string
	var calls int
	main, err := seller.New(earlier, seller.Options{})
	if err != nil {
		t.Fatal(err)
	}
	main.HandleRaw(seller.RawTool{Name: "get_products", Handler: func(_ context.Context, c *seller.Call) *seller.Answer {
		calls++
		for _, is := range c.SchemaIssues() {
			seen = append(seen, is.Pointer)
		}
		return &seller.Answer{Status: task.Completed, Body: json.RawMessage(`{"products":[]}`)}
	}})
	served, err := seller.New(test, seller.Options{Schemas: sellertest.Tree(t)})
	if err != nil {
		t.Fatal(err)
	}
	shims := map[string]seller.Shim{"get_products": {
		// The handler answers an unknown buying mode as a brief.
		Request: func(args json.RawMessage) (json.RawMessage, error) {
			out, _ := wire.Lenient(args).WithMember("buying_mode", []byte(`"brief"`))
			return out, nil
		},
		OwnsIssues: func(pointer string) bool { return pointer == "/buying_mode" },
	}}
	if err := served.Bridge(main, shims); err != nil && !errors.As(err, new(*seller.BridgeError)) {
		t.Fatal(err)
	}
	if err := main.AddRelease(served); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, args, code string
		calls            int
		seen             string
	}{
		{"an owned violation reaches the handler", `{"adcp_version":"3.90-test","buying_mode":"someday","brief":"x"}`, "", 1, "/buying_mode"},
		{"one it does not own is refused", `{"adcp_version":"3.90-test","buying_mode":"someday","brief":7}`, "INVALID_REQUEST", 1, ""},
	} {
		seen = nil
		a := main.Serve(context.Background(), "get_products", &seller.Call{Principal: seller.Principal{ID: "alice"}, Arguments: json.RawMessage(tc.args)})
		code := ""
		if a.Error != nil {
			code = a.Error.Code
		}
		if code != tc.code || calls != tc.calls || strings.Join(seen, ",") != tc.seen {
			t.Errorf("%s: %+v, %d calls, issues %q", tc.name, a.Error, calls, seen)
		}
	}
}
