package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/adcpgen/adcpgen/runtime"
)

// The buyer flow: call the seller, extract the envelope, decode the data
// with a strict generated type, and recover from errors by their class.
// productsResponse stands in for a generated type such as
// adcp.GetProductsResponse.
func Example_buyerFlow() {
	// callSeller stands for an MCP tools/call round trip. The seller is rate
	// limited on the first attempt.
	replies := []string{
		`{"isError":true,"content":[{"type":"text","text":"Rate limited — retry in 2s."}],
		  "structuredContent":{"adcp_error":{"code":"RATE_LIMITED","message":"Request rate exceeded","retry_after":2,"recovery":"transient"}}}`,
		`{"content":[{"type":"text","text":"Found 2 products."}],
		  "structuredContent":{"status":"completed","products":[{"product_id":"ctv_premium"},{"product_id":"ctv_news"}]}}`,
	}
	callSeller := func(ctx context.Context, attempt int) ([]byte, error) { return []byte(replies[attempt-1]), nil }

	// Real clients leave Sleep nil; the example only reports the wait.
	policy := runtime.RetryPolicy{Sleep: func(_ context.Context, d time.Duration) error {
		fmt.Println("transient error, waiting", d)
		return nil
	}}
	var products *productsResponse
	err := policy.Do(context.Background(), func(ctx context.Context, attempt int) error {
		body, err := callSeller(ctx, attempt)
		if err != nil {
			return err
		}
		products, err = runtime.DecodeResult[productsResponse](runtime.ExtractMCP(body))
		return err // an *runtime.Error when the seller sent one
	})

	var adcpErr *runtime.Error
	switch {
	case err == nil:
		fmt.Println(products.Status, products.Products, "products")
	case errors.As(err, &adcpErr) && adcpErr.Action() == runtime.ActionSurface:
		fmt.Println("fix the request:", adcpErr.SafeField(), adcpErr.SafeSuggestion())
	case errors.As(err, &adcpErr):
		fmt.Println("escalate:", adcpErr.LLMContext())
	default:
		fmt.Println("generic failure:", err)
	}
	// Output:
	// transient error, waiting 2s
	// completed 2 products
}

// Recovery: the action comes from code and recovery only, never from the
// seller's prose, and seller strings reach a model only sanitised and
// delimited.
func Example_recover() {
	r := runtime.ExtractA2A([]byte(`{"id":"task_202","status":{"state":"failed"},"artifacts":[{"parts":[
		{"kind":"text","text":"Creative rejected."},
		{"kind":"data","data":{"adcp_error":{"code":"CREATIVE_REJECTED","message":"Creative failed review\u202e",
		 "suggestion":"Revise the creative","details":{"policy_url":"http://evil.example/p"}}}}]}]}`))
	fmt.Println(r.Action, r.Error.Recovery)
	fmt.Println(r.Error.LLMContext())
	for _, err := range runtime.CheckErrorURLs(r.Error, "seller.example.com") {
		fmt.Println(err)
	}
	// Output:
	// surface_to_caller correctable
	// <adcp_seller_error trust="untrusted">{"code":"CREATIVE_REJECTED","recovery":"correctable","action":"surface_to_caller","message":"Creative failed review","suggestion":"Revise the creative"}</adcp_seller_error>
	// seller URL "http://evil.example/p" rejected: scheme is not https
}

// The seller flow: answer a tool call with data or with an AdCP error,
// reject a request at the gateway with a reserved JSON-RPC code, report a
// failed A2A task, and translate an upstream failure without leaking it.
func Example_sellerFlow() {
	show := func(v any, err error) {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		b, _ := json.Marshal(v)
		fmt.Println(string(b))
	}

	// Success: a terse sentence plus structuredContent.
	show(runtime.NewToolSuccess("Found 1 product.", json.RawMessage(`{"products":[{"product_id":"ctv_premium"}]}`)))

	// A tool-level error: the JSON as content[0].text, the same object in
	// structuredContent.adcp_error, isError, and a terse second sentence.
	budget := &runtime.Error{Code: "BUDGET_TOO_LOW", Message: "Budget is below the minimum",
		Field: "budget.total", Details: map[string]any{"minimum_budget": 500, "currency": "USD"}}
	show(runtime.NewToolError(budget, "Budget too low."))

	// Infrastructure rejecting a request before tool dispatch.
	show(runtime.NewJSONRPCErrorResponse(json.RawMessage(`"req-123"`),
		&runtime.Error{Code: "RATE_LIMITED", Message: "Request rate exceeded", RetryAfter: 5 * time.Second}))

	// An upstream outage becomes SERVICE_UNAVAILABLE, transient, with no
	// upstream detail; over A2A it is a failed task.
	upstream := &runtime.UpstreamHTTPError{StatusCode: 503, Err: errors.New("db-7.internal: connection refused")}
	adcpErr := runtime.TranslateUpstream(upstream, nil)
	show(runtime.NewA2AFailedTask("task_456", "", adcpErr, "", time.Date(2025, 1, 22, 10, 30, 0, 0, time.UTC)))

	// Long-running work reported as an MCP Task.
	status, _ := runtime.MCPTaskStatus(runtime.StatusSubmitted)
	fmt.Println("MCP task status:", status)
	// Output:
	// {"content":[{"type":"text","text":"Found 1 product."}],"structuredContent":{"products":[{"product_id":"ctv_premium"}]}}
	// {"content":[{"type":"text","text":"{\"adcp_error\":{\"code\":\"BUDGET_TOO_LOW\",\"message\":\"Budget is below the minimum\",\"recovery\":\"correctable\",\"field\":\"budget.total\",\"details\":{\"currency\":\"USD\",\"minimum_budget\":500}}}"},{"type":"text","text":"Budget too low."}],"structuredContent":{"adcp_error":{"code":"BUDGET_TOO_LOW","message":"Budget is below the minimum","recovery":"correctable","field":"budget.total","details":{"currency":"USD","minimum_budget":500}}},"isError":true}
	// {"jsonrpc":"2.0","id":"req-123","error":{"code":-32029,"message":"Rate limit exceeded","data":{"adcp_error":{"code":"RATE_LIMITED","message":"Request rate exceeded","recovery":"transient","retry_after":5}}}}
	// {"id":"task_456","kind":"task","status":{"state":"failed","timestamp":"2025-01-22T10:30:00Z"},"artifacts":[{"artifactId":"error-result","parts":[{"kind":"text","text":"SERVICE_UNAVAILABLE: temporary failure, retry later."},{"kind":"data","data":{"adcp_error":{"code":"SERVICE_UNAVAILABLE","message":"Service temporarily unavailable","recovery":"transient"}},"metadata":{"mimeType":"application/vnd.adcp.error+json"}}]}]}
	// MCP task status: working
}

// Webhooks: verify the legacy signature over the raw body, then extract.
func ExampleWebhookHMAC() {
	h, err := runtime.NewWebhookHMAC([]byte("use-a-random-32-byte-secret-from-your-kms"))
	if err != nil {
		fmt.Println(err)
		return
	}
	body := []byte(`{"task_id":"task_001","status":"completed","result":{"media_buy_id":"mb_1"}}`)
	sig, _ := h.Sign(1700000000, body) // what the seller sends

	h.Now = func() time.Time { return time.Unix(1700000030, 0) } // the buyer's clock
	if err := h.Verify("1700000000", body, sig); err != nil {
		fmt.Println("reject:", err)
		return
	}
	r := runtime.ExtractWebhook(body)
	fmt.Println(r.Format, r.State, string(r.Data))
	// Output:
	// mcp completed {"media_buy_id":"mb_1"}
}

func ExampleCheckSellerURL() {
	for _, u := range []string{
		"https://seller.example.com/setup/acct_123",
		"https://user@seller.example.com/setup",
		"https://seller.example.com.evil.example/setup",
		"javascript:alert(1)",
	} {
		_, err := runtime.CheckSellerURL(u, "seller.example.com")
		fmt.Println(err == nil, errors.Unwrap(err))
	}
	// Output:
	// true <nil>
	// false URL carries userinfo
	// false host is not the seller's domain
	// false scheme is not https
}
