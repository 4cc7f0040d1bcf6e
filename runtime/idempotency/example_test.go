package idempotency_test

import (
	"context"
	"fmt"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/runtime/idempotency"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/sellerstore"
)

// A retried create_media_buy runs once: the layer, as the seller's
// middleware, stores the first answer under the buyer's idempotency_key
// and replays it for the same request. sellerstore.NewMemory serves one
// replica; replicas share sellerstore/pgstore.
func ExampleNew() {
	layer := idempotency.New(adcpt.Spec(), sellerstore.NewMemory(nil), idempotency.Options{})
	srv, err := seller.New(adcpt.Spec(), seller.Options{Middleware: []seller.Middleware{layer.Middleware()}})
	if err != nil {
		panic(err)
	}
	runs := 0
	seller.Handle(srv, adcpt.Tools.CreateMediaBuy, func(ctx context.Context, req *adcpt.CreateMediaBuyRequest) (*adcpt.CreateMediaBuyResult, error) {
		runs++
		resp := adcpt.NewCreateMediaBuyResponseSuccess(adcpt.CreateMediaBuySuccess{MediaBuyID: fmt.Sprintf("mb_%d", runs)})
		return &adcpt.CreateMediaBuyResult{Response: &resp}, nil
	})

	args := []byte(`{"idempotency_key":"k-0123456789abcdef","packages":[{"product_id":"p","budget":5}]}`)
	call := &seller.Call{Principal: seller.Principal{ID: "buyer-1"}, Arguments: args}
	first := srv.Serve(context.Background(), "create_media_buy", call)
	retry := srv.Serve(context.Background(), "create_media_buy", call)
	fmt.Println(string(first.Body))
	fmt.Println(string(retry.Body))
	fmt.Println("handler runs:", runs)
	// Output:
	// {"idempotency_key":"k-0123456789abcdef","adcp_version":"3.90-test","status":"completed","media_buy_id":"mb_1"}
	// {"replayed":true,"idempotency_key":"k-0123456789abcdef","adcp_version":"3.90-test","status":"completed","media_buy_id":"mb_1"}
	// handler runs: 1
}
