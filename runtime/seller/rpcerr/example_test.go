package rpcerr_test

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/seller/rpcerr"
)

// A gateway rejecting a request before tool dispatch: the reserved code
// for RATE_LIMITED, with the AdCP error in data.adcp_error.
func ExampleNewResponse() {
	resp, err := rpcerr.NewResponse(json.RawMessage(`"req-123"`),
		&adcperr.Error{Code: "RATE_LIMITED", Message: "Request rate exceeded", Recovery: registry.Transient, RetryAfter: 5 * time.Second})
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	b, _ := json.Marshal(resp)
	fmt.Println(string(b))

	// A tool-level code has no reserved JSON-RPC code.
	_, err = rpcerr.New(&adcperr.Error{Code: "BUDGET_TOO_LOW", Message: "m"})
	fmt.Println(err)
	// Output:
	// {"jsonrpc":"2.0","id":"req-123","error":{"code":-32029,"message":"Rate limit exceeded","data":{"adcp_error":{"code":"RATE_LIMITED","message":"Request rate exceeded","recovery":"transient","retry_after":5}}}}
	// adcp error BUDGET_TOO_LOW has no reserved JSON-RPC code; return it as a tool result
}
