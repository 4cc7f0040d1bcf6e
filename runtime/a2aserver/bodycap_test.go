package a2aserver_test

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
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/seller"
)

// A message over the body cap is refused before a2a-go reads it, in the
// protocol: the typed buyer gets the seller's correctable INVALID_REQUEST,
// naming the size and the cap, not a transport failure.
func TestBodyOverTheCap(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{})
	c, err := buyer.New(adcpt.Spec(), dial(t, start(t, s), ""), buyer.WithoutRetries())
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

// A body that is not JSON is refused, once authenticated, with a JSON-RPC
// parse error carrying an AdCP error.
func TestBodyNotJSON(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{})
	resp := rawPOST(t, start(t, s)+"/a2a", "", `{"jsonrpc":"2.0","id":"m-1","method":"message/send","params":`)
	body, _ := io.ReadAll(resp.Body)
	if r := x.DetectError(body); resp.StatusCode != 400 || r.Error == nil || r.Error.Code != "INVALID_REQUEST" || !bytes.Contains(body, []byte(`"id":"m-1"`)) {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
}

// A message/send whose params are not an object is refused with -32602
// carrying an AdCP error, where a2a-go would answer a parse error without
// one.
func TestParamsNotAnObject(t *testing.T) {
	s := sellertest.NewSeller(t, seller.Options{})
	resp := rawPOST(t, start(t, s)+"/a2a", "", `{"jsonrpc":"2.0","id":"m-2","method":"message/send","params":"x"}`)
	body, _ := io.ReadAll(resp.Body)
	if r := x.DetectError(body); resp.StatusCode != 400 || r.Error == nil || r.Error.Code != "INVALID_REQUEST" ||
		!bytes.Contains(body, []byte(`"id":"m-2"`)) || !bytes.Contains(body, []byte(`"code":-32602`)) {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
}
