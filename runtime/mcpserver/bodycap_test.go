package mcpserver_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/internal/sellertest"
	"github.com/adcpgen/adcpgen/runtime/adcperr"
	"github.com/adcpgen/adcpgen/runtime/buyer"
	"github.com/adcpgen/adcpgen/runtime/mcpserver"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/seller"
)

// A call over the body cap is refused before any SDK reads it, in the
// protocol: the typed buyer gets the seller's correctable INVALID_REQUEST,
// naming the size and the cap, not a transport failure.
func TestBodyOverTheCap(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{})
	c, err := buyer.New(adcpt.Spec(), rawSession(t, start(t, s, mcpserver.Options{}), ""), buyer.WithoutRetries())
	if err != nil {
		t.Fatal(err)
	}
	brief := strings.Repeat("b", seller.DefaultMaxRequestBytes+70<<10)
	_, err = buyer.Call(t.Context(), c, adcpt.Tools.GetProducts, &adcpt.GetProductsRequest{BuyingMode: "brief", Brief: &brief})
	var ae *adcperr.Error
	if !errors.As(err, &ae) || ae.Code != "INVALID_REQUEST" || ae.Recovery != registry.Correctable ||
		!strings.Contains(ae.Message, "over the 1114112 this agent accepts") {
		t.Fatalf("got %v", err)
	}
	if n := s.Calls("get_products"); n != 0 {
		t.Errorf("handler ran %d times", n)
	}
}

// A body that is not JSON is refused with a JSON-RPC parse error carrying
// an AdCP error, which go-sdk would send without one.
func TestBodyNotJSON(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{})
	resp := rawPOST(t, start(t, s, mcpserver.Options{}), "", `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":`)
	body, _ := io.ReadAll(resp.Body)
	if r := x.MCP(body); resp.StatusCode != 400 || r.Error == nil || r.Error.Code != "INVALID_REQUEST" || !bytes.Contains(body, []byte(`"id":9`)) {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
}

// JSON that is no request object, or a call whose params are not an
// object, is refused with a JSON-RPC error carrying an AdCP error, where
// go-sdk would answer -32602 or HTTP 400 text/plain without one.
func TestBodyNotARequest(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{})
	url := start(t, s, mcpserver.Options{})
	for _, tc := range []struct{ name, body, want string }{
		{"params a string", `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":"x"}`, `"code":-32602`},
		{"a number", `42`, `"code":-32600`},
	} {
		resp := rawPOST(t, url, "", tc.body)
		body, _ := io.ReadAll(resp.Body)
		if r := x.MCP(body); resp.StatusCode != 400 || r.Error == nil || r.Error.Code != "INVALID_REQUEST" || !bytes.Contains(body, []byte(tc.want)) {
			t.Errorf("%s: %d %s", tc.name, resp.StatusCode, body)
		}
	}
}
