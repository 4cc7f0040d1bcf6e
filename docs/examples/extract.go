package examples

import (
	"errors"
	"time"

	adcp "github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/extract"
)

// Extract is docs/client.md's layer under buyer.Call: an MCP tool result
// as the transport delivered it, decoded; wait says how long to wait
// before retrying when the seller sent a transient error.
func Extract(body []byte) (products *adcp.GetProductsResponse, wait time.Duration, err error) {
	// snippet: extract
	x := extract.New(adcp.Spec()) // adcp: the package adcpgen generated for your spec version
	var res adcp.GetProductsResponse
	err = x.DecodeMCP(body, &res) // or DecodeA2A, DecodeWebhook; body as the transport delivered it
	var e *adcperr.Error
	if errors.As(err, &e) && e.Action() == adcperr.ActionRetry {
		return nil, e.RetryAfter, err // retry.Policy does the waiting
	}
	// end snippet
	if err != nil {
		return nil, 0, err
	}
	return &res, 0, nil
}
