package seller_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/seller"
)

// The seller's errors: reject a request at the gateway with a reserved
// JSON-RPC code, and translate an upstream failure into an AdCP error
// without leaking it. The transports send an Answer the same way on every
// path (runtime/mcpserver's ResultOf, runtime/a2aserver's TaskOf).
func Example_sellerFlow() {
	show := func(v any, err error) {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		b, _ := json.Marshal(v)
		fmt.Println(string(b))
	}

	// Infrastructure rejecting a request before tool dispatch.
	show(seller.NewJSONRPCErrorResponse(json.RawMessage(`"req-123"`),
		&adcperr.Error{Code: "RATE_LIMITED", Message: "Request rate exceeded", Recovery: registry.Transient, RetryAfter: 5 * time.Second}))

	// An upstream outage becomes SERVICE_UNAVAILABLE, transient, with no
	// upstream detail.
	upstream := &seller.UpstreamHTTPError{StatusCode: 503, Err: errors.New("db-7.internal: connection refused")}
	answer := seller.ErrorAnswer(seller.TranslateUpstream(upstream, nil))
	obj, err := seller.ErrorObject(answer)
	show(json.RawMessage(obj), err)
	fmt.Println(seller.TerseText(answer.Error))
	// Output:
	// {"jsonrpc":"2.0","id":"req-123","error":{"code":-32029,"message":"Rate limit exceeded","data":{"adcp_error":{"code":"RATE_LIMITED","message":"Request rate exceeded","recovery":"transient","retry_after":5}}}}
	// {"adcp_error":{"code":"SERVICE_UNAVAILABLE","message":"Service temporarily unavailable","recovery":"transient"}}
	// SERVICE_UNAVAILABLE: temporary failure, retry later.
}
