package main

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/adcpgen/adcpgen/internal/chaos/adcp"
	"github.com/adcpgen/adcpgen/runtime/a2aclient"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
	"github.com/adcpgen/adcpgen/runtime/registry"
)

// conn is a typed buyer's connection to one replica over one transport,
// made when first used and made again after a transport failure (the
// replica may have been killed and started again).
type conn struct {
	proto   string // "mcp" or "a2a"
	rep     *replica
	apiKey  string
	polling buyer.Polling

	mu     sync.Mutex
	c      *buyer.Client
	closer interface{ Close() error }
}

type bearer struct{ key string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return http.DefaultTransport.RoundTrip(r)
}

func (c *conn) client(ctx context.Context) (*buyer.Client, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.c != nil {
		return c.c, nil
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	hc := &http.Client{Transport: bearer{c.apiKey}, Timeout: time.Minute}
	var t buyer.Transport
	switch c.proto {
	case "mcp":
		s, err := mcpclient.ConnectHTTP(ctx, c.rep.base()+"/mcp", hc, mcpclient.ConnectOptions{})
		if err != nil {
			return nil, err
		}
		t, c.closer = s, s
	default:
		a, err := a2aclient.Dial(ctx, c.rep.base(), hc)
		if err != nil {
			return nil, err
		}
		t, c.closer = a, a
	}
	cl, err := buyer.New(adcp.Spec(), t, buyer.WithoutRetries(), buyer.WithPolling(c.polling))
	if err != nil {
		c.closer.Close()
		return nil, err
	}
	c.c = cl
	return cl, nil
}

// reset drops the connection after a transport failure.
func (c *conn) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closer != nil {
		_ = c.closer.Close()
	}
	c.c, c.closer = nil, nil
}

// verdict is what a buyer does after an error.
type verdict int

const (
	elsewhere verdict = iota // transport failure: the other replica
	again                    // transient: the same call after a pause
	inFlight                 // the key's first call is still running somewhere
	stop                     // the seller refused: the key ends
)

// judge classifies err; pause is how long to wait before trying again
// (the seller's retry_after, clamped to 200 ms - 5 s).
func judge(err error) (v verdict, pause time.Duration, code string) {
	pause = 200 * time.Millisecond
	var te *buyer.TransportError
	var ae *adcperr.Error
	switch {
	case errors.As(err, &te), errors.Is(err, context.DeadlineExceeded):
		return elsewhere, pause, "transport"
	case errors.As(err, &ae):
		if ae.RetryAfter > 0 {
			pause = min(max(ae.RetryAfter, pause), 5*time.Second)
		}
		switch {
		case ae.Code == "IDEMPOTENCY_IN_FLIGHT", ae.Code == "CONFLICT" && ae.RetryAfter > 0:
			return inFlight, pause, ae.Code
		case ae.Recovery == registry.Transient:
			return again, pause, ae.Code
		}
		return stop, 0, ae.Code
	}
	return stop, 0, "error: " + err.Error()
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
