package seller_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/seller/upstream"
)

// An error answer as the transports send it on every path
// (runtime/mcpserver's ResultOf, runtime/a2aserver's TaskOf): an upstream
// outage, translated without leaking it, in its wire object and its terse
// text.
func ExampleErrorAnswer() {
	outage := &upstream.Failure{StatusCode: 503, Err: errors.New("db-7.internal: connection refused")}
	answer := seller.ErrorAnswer(upstream.Translate(outage, nil))
	obj, err := seller.ErrorObject(answer)
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println(string(json.RawMessage(obj)))
	fmt.Println(seller.TerseText(answer.Error))
	// Output:
	// {"adcp_error":{"code":"SERVICE_UNAVAILABLE","message":"Service temporarily unavailable","recovery":"transient"}}
	// SERVICE_UNAVAILABLE: temporary failure, retry later.
}
