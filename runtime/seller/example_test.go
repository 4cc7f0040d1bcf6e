package seller_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/task"
)

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
	show(seller.NewToolSuccess("Found 1 product.", json.RawMessage(`{"products":[{"product_id":"ctv_premium"}]}`)))

	// A tool-level error: the JSON as content[0].text, the same object in
	// structuredContent.adcp_error, isError, and a terse second sentence.
	budget := &adcperr.Error{Code: "BUDGET_TOO_LOW", Message: "Budget is below the minimum", Recovery: registry.Correctable,
		Field: "budget.total", Details: map[string]any{"minimum_budget": 500, "currency": "USD"}}
	show(seller.NewToolError(budget, "Budget too low."))

	// Infrastructure rejecting a request before tool dispatch.
	show(seller.NewJSONRPCErrorResponse(json.RawMessage(`"req-123"`),
		&adcperr.Error{Code: "RATE_LIMITED", Message: "Request rate exceeded", Recovery: registry.Transient, RetryAfter: 5 * time.Second}))

	// An upstream outage becomes SERVICE_UNAVAILABLE, transient, with no
	// upstream detail; over A2A it is a failed task.
	upstream := &seller.UpstreamHTTPError{StatusCode: 503, Err: errors.New("db-7.internal: connection refused")}
	adcpErr := seller.TranslateUpstream(upstream, nil)
	show(seller.NewA2AFailedTask("task_456", "", adcpErr, "", time.Date(2025, 1, 22, 10, 30, 0, 0, time.UTC)))

	// Long-running work reported as an MCP Task.
	status, _ := seller.MCPTaskStatus(task.Submitted)
	fmt.Println("MCP task status:", status)
	// Output:
	// {"content":[{"type":"text","text":"Found 1 product."}],"structuredContent":{"products":[{"product_id":"ctv_premium"}]}}
	// {"content":[{"type":"text","text":"{\"adcp_error\":{\"code\":\"BUDGET_TOO_LOW\",\"message\":\"Budget is below the minimum\",\"recovery\":\"correctable\",\"field\":\"budget.total\",\"details\":{\"currency\":\"USD\",\"minimum_budget\":500}}}"},{"type":"text","text":"Budget too low."}],"structuredContent":{"adcp_error":{"code":"BUDGET_TOO_LOW","message":"Budget is below the minimum","recovery":"correctable","field":"budget.total","details":{"currency":"USD","minimum_budget":500}}},"isError":true}
	// {"jsonrpc":"2.0","id":"req-123","error":{"code":-32029,"message":"Rate limit exceeded","data":{"adcp_error":{"code":"RATE_LIMITED","message":"Request rate exceeded","recovery":"transient","retry_after":5}}}}
	// {"id":"task_456","kind":"task","status":{"state":"failed","timestamp":"2025-01-22T10:30:00Z"},"artifacts":[{"artifactId":"error-result","parts":[{"kind":"text","text":"SERVICE_UNAVAILABLE: temporary failure, retry later."},{"kind":"data","data":{"adcp_error":{"code":"SERVICE_UNAVAILABLE","message":"Service temporarily unavailable","recovery":"transient"}},"metadata":{"mimeType":"application/vnd.adcp.error+json"}}]}]}
	// MCP task status: working
}
