package mcpclient_test

import (
	"context"
	"net/http"
	"runtime"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/internal/testseller"
	"github.com/adcpgen/adcpgen/runtime/mcpclient"
)

// hostile is a tool payload a strict decoder must reject: a duplicate key,
// an escaped __proto__ and a number no float64 holds.
const hostile = `{"status":"completed","products":[{"product_id":"a","product_id":"b"}],"\u005f_proto__":{"polluted":true},"total":12345678901234567890123}`

// headerTransport adds fixed headers to every request, the way a caller
// authenticates through its own http.Client.
type headerTransport struct {
	base    http.RoundTripper
	headers http.Header
}

func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for k, vs := range t.headers {
		r.Header[k] = vs
	}
	return t.base.RoundTrip(r)
}

// connect starts a seller and connects a client to it over streamable HTTP
// with its own transport, closed with the test.
func connect(t *testing.T, tools map[string]testseller.MCPReply, opts testseller.MCPOptions) (*mcpclient.Session, *testseller.MCPSeller, *http.Transport) {
	t.Helper()
	seller := testseller.NewMCPSeller(tools, opts)
	t.Cleanup(seller.Close)
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	c, err := mcpclient.ConnectHTTP(ctx, seller.URL, &http.Client{Transport: tr}, mcpclient.ConnectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, seller, tr
}

// settle waits for the goroutine count to fall to at most want and
// reports the last count.
func settle(want int) int {
	n := runtime.NumGoroutine()
	for deadline := time.Now().Add(3 * time.Second); n > want && time.Now().Before(deadline); n = runtime.NumGoroutine() {
		time.Sleep(20 * time.Millisecond)
	}
	return n
}
