package extract_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/extract"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/retry"
)

// exampleSpec stands in for the Spec of a generated package.
var exampleSpec = registry.NewSpec(registry.SpecConfig{Codes: registry.ErrorCodes{
	{Code: "RATE_LIMITED", Recovery: registry.Transient},
	{Code: "CREATIVE_REJECTED", Recovery: registry.Correctable},
}})

// The buyer flow: call the seller, extract the envelope, decode the data
// with a strict generated type, and recover from errors by their class.
// adcpt stands in for the package you generate.
func Example_buyerFlow() {
	// callSeller stands for an MCP tools/call round trip. The seller is rate
	// limited on the first attempt.
	replies := []string{
		`{"isError":true,"content":[{"type":"text","text":"Rate limited — retry in 2s."}],
		  "structuredContent":{"adcp_error":{"code":"RATE_LIMITED","message":"Request rate exceeded","retry_after":2,"recovery":"transient"}}}`,
		`{"content":[{"type":"text","text":"Found 2 products."}],
		  "structuredContent":{"status":"completed","products":[{"product_id":"ctv_premium","name":"CTV Premium"},{"product_id":"ctv_news","name":"CTV News"}]}}`,
	}
	callSeller := func(ctx context.Context, attempt int) ([]byte, error) { return []byte(replies[attempt-1]), nil }

	x := extract.New(exampleSpec) // yourpkg.Spec() in real code
	// Real clients leave Sleep nil; the example only reports the wait.
	policy := retry.Policy{Sleep: func(_ context.Context, d time.Duration) error {
		fmt.Println("transient error, waiting", d)
		return nil
	}}
	var products adcpt.GetProductsResponse
	err := policy.Do(context.Background(), func(ctx context.Context, attempt int) error {
		body, err := callSeller(ctx, attempt)
		if err != nil {
			return err
		}
		return x.DecodeMCP(body, &products) // an *adcperr.Error when the seller sent one
	})

	var adcpErr *adcperr.Error
	switch {
	case err == nil:
		fmt.Println(len(products.Products), "products, the first:", products.Products[0].Name)
	case errors.As(err, &adcpErr) && adcpErr.Action() == adcperr.ActionSurface:
		fmt.Println("fix the request:", adcpErr.SafeField(), adcpErr.SafeSuggestion())
	case errors.As(err, &adcpErr):
		fmt.Println("escalate:", adcpErr.LLMContext())
	default:
		fmt.Println("generic failure:", err)
	}
	// Output:
	// transient error, waiting 2s
	// 2 products, the first: CTV Premium
}

// Recovery: the action comes from code and recovery only, never from the
// seller's prose, and seller strings reach a model only sanitised and
// delimited.
func Example_recover() {
	x := extract.New(exampleSpec)
	r := x.A2A([]byte(`{"id":"task_202","status":{"state":"failed"},"artifacts":[{"parts":[
		{"kind":"text","text":"Creative rejected."},
		{"kind":"data","data":{"adcp_error":{"code":"CREATIVE_REJECTED","message":"Creative failed review\u202e",
		 "suggestion":"Revise the creative","details":{"policy_url":"http://evil.example/p"}}}}]}]}`))
	fmt.Println(r.Action, r.Error.Recovery)
	fmt.Println(r.Error.LLMContext())
	for _, err := range r.Error.CheckURLs("seller.example.com") {
		fmt.Println(err)
	}
	// Output:
	// surface_to_caller correctable
	// <adcp_seller_error trust="untrusted">{"code":"CREATIVE_REJECTED","recovery":"correctable","action":"surface_to_caller","message":"Creative failed review","suggestion":"Revise the creative"}</adcp_seller_error>
	// seller URL "http://evil.example/p" rejected: scheme is not https
}

// A2A over JSON-RPC: the extractor takes the whole response an HTTP
// client holds, and says what it got when it is no A2A envelope at all.
func ExampleExtractor_A2A() {
	x := extract.New(exampleSpec)
	r := x.A2A([]byte(`{"jsonrpc":"2.0","id":"req-9","result":{"task":{"id":"t1",
		"status":{"state":"TASK_STATE_COMPLETED"},"artifacts":[{"parts":[{"data":{"media_buy_id":"mb_1"}}]}]}}}`))
	fmt.Println(r.Form, r.State, r.DataPath, string(r.Data))

	r = x.A2A([]byte(`{"content":[{"type":"text","text":"hello"}]}`))
	fmt.Println(r.Failure())
	// Output:
	// jsonrpc_response completed result.task.artifacts[0].parts[0].data {"media_buy_id":"mb_1"}
	// envelope carries no AdCP data: got an object with keys [content], want an A2A task, a stream response or a JSON-RPC response holding one
}
