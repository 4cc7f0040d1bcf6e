package upstream_test

import (
	"errors"
	"fmt"

	"github.com/adcpgen/adcpgen/runtime/seller/upstream"
)

// An upstream outage becomes SERVICE_UNAVAILABLE, transient, with no
// upstream detail; a 429 keeps the upstream's Retry-After.
func ExampleTranslate() {
	outage := &upstream.Failure{StatusCode: 503, Err: errors.New("db-7.internal: connection refused")}
	fmt.Println(upstream.Translate(outage, nil))
	busy := &upstream.Failure{StatusCode: 429, RetryAfter: "30"}
	e := upstream.Translate(busy, nil)
	fmt.Println(e.Code, e.RetryAfter)
	// Output:
	// adcp error SERVICE_UNAVAILABLE (transient): Service temporarily unavailable
	// RATE_LIMITED 30s
}
