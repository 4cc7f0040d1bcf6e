// Command gobuyer is adcpgen's typed client (runtime/buyer) as a buyer, for
// internal/jsinterop's tests: with bindings generated from AdCP 3.0.26 into
// the package adcp30 beside it (at test time, never committed), it calls
// get_adcp_capabilities, get_products and create_media_buy (waiting for a
// submitted buy to complete) and prints one JSON line per call.
//
//	gobuyer -protocol mcp|a2a -url URL [-auth KEY] [-po PO_NUMBER]
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"time"

	"adcpgenharness/adcp30"

	"github.com/adcpgen/adcpgen/runtime/a2aclient"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/task"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// line is what one call came to.
type line struct {
	Step       string          `json:"step"`
	Status     string          `json:"status,omitempty"`
	TaskID     string          `json:"task_id,omitempty"`
	Response   json.RawMessage `json:"response,omitempty"` // the typed response, encoded again
	Code       string          `json:"code,omitempty"`     // an AdCP error's
	Action     string          `json:"action,omitempty"`
	RetryAfter float64         `json:"retry_after,omitempty"` // seconds
	Error      string          `json:"error,omitempty"`
}

func main() {
	protocol := flag.String("protocol", "mcp", "mcp or a2a")
	url := flag.String("url", "", "the MCP endpoint, or the A2A base URL (agent card under it)")
	auth := flag.String("auth", "", "bearer token")
	po := flag.String("po", "async-go", "create_media_buy's po_number")
	flag.Parse()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx, *protocol, *url, *auth, *po); err != nil {
		fmt.Fprintln(os.Stderr, "gobuyer:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, protocol, url, auth, po string) error {
	hc := &http.Client{Transport: bearer{auth}}
	var t buyer.Transport
	switch protocol {
	case "mcp":
		s, err := mcpclient.ConnectHTTP(ctx, url, hc, mcpclient.ConnectOptions{})
		if err != nil {
			return err
		}
		defer s.Close()
		t = s
	case "a2a":
		c, err := a2aclient.Dial(ctx, url, hc)
		if err != nil {
			return err
		}
		defer c.Close()
		t = c
	default:
		return fmt.Errorf("-protocol %q", protocol)
	}
	c, err := buyer.New(adcp30.Spec(), t, buyer.WithPolling(buyer.Polling{Interval: 100 * time.Millisecond, MaxInterval: time.Second}))
	if err != nil {
		return err
	}
	out := json.NewEncoder(os.Stdout)
	out.Encode(call(ctx, c, adcp30.Tools.GetAdCPCapabilities, `{}`))
	out.Encode(call(ctx, c, adcp30.Tools.GetProducts, `{"buying_mode":"brief","brief":"display"}`, buyer.NoRetry()))
	// The request type requires idempotency_key; empty, the client makes one.
	out.Encode(call(ctx, c, adcp30.Tools.CreateMediaBuy, `{"idempotency_key":"","account":{"account_id":"acc_test"},"brand":{"domain":"acme.example"},`+
		`"po_number":"`+po+`","start_time":"2027-01-01T00:00:00Z","end_time":"2027-01-31T00:00:00Z",`+
		`"packages":[{"product_id":"prod_display_ron","budget":1000,"pricing_option_id":"cpm_usd"}]}`,
		buyer.WaitForCompletion()))
	return nil
}

// call decodes request strictly into the tool's request type and calls the
// tool with it.
func call[Q, R, S, W, I any, PQ interface {
	*Q
	wire.Encodable
	wire.Decodable
}, PR interface {
	*R
	wire.Decodable
}](ctx context.Context, c *buyer.Client, tool task.Tool[Q, R, S, W, I], request string, opts ...buyer.CallOption) line {
	l := line{Step: tool.Name()}
	req := PQ(new(Q))
	if err := adcp30.Decode([]byte(request), req); err != nil {
		l.Error = "request: " + err.Error()
		return l
	}
	res, err := buyer.Call[Q, R, S, W, I, PQ, PR](ctx, c, tool, req, opts...)
	var ae *adcperr.Error
	switch {
	case errors.As(err, &ae):
		l.Code, l.Action, l.RetryAfter, l.Error = ae.Code, string(ae.Action()), ae.RetryAfter.Seconds(), ae.Message
	case err != nil:
		l.Error = err.Error()
	default:
		l.Status, l.TaskID = string(res.Status), res.TaskID
		if res.Response != nil {
			l.Response, _ = json.Marshal(res.Response)
		}
	}
	return l
}

// bearer adds the API key to every request.
type bearer struct{ key string }

func (b bearer) RoundTrip(req *http.Request) (*http.Response, error) {
	if b.key == "" {
		return http.DefaultTransport.RoundTrip(req)
	}
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+b.key)
	return http.DefaultTransport.RoundTrip(req)
}
