package seller_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/adcpgen/adcpgen/generated/adcpt"
	"github.com/adcpgen/adcpgen/internal/sellertest"
	"github.com/adcpgen/adcpgen/runtime/seller"
	"github.com/adcpgen/adcpgen/runtime/validate"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// FuzzServe: arbitrary argument bytes never panic the server, always get
// an answer fit to send, and reach the handler only when they are one
// strict JSON object that is valid against the request schema and decodes.
func FuzzServe(f *testing.F) {
	tree := sellertest.Tree(f)
	srv, err := seller.New(adcpt.Spec(), seller.Options{Schemas: tree, ValidateResponses: true, MaxRequestBytes: 4096})
	if err != nil {
		f.Fatal(err)
	}
	v, err := validate.New(tree, validate.Options{})
	if err != nil {
		f.Fatal(err)
	}
	var reached []byte
	seller.HandleSync(srv, adcpt.Tools.GetProducts, func(_ context.Context, req *adcpt.GetProductsRequest) (*adcpt.GetProductsResponse, error) {
		reached = []byte("yes")
		return &adcpt.GetProductsResponse{Products: sellertest.Products(), Context: req.Context}, nil
	})
	for _, seed := range []string{
		`{"buying_mode":"brief"}`, `{"buying_mode":"brief","context":{"a":[1,{"b":null}]}}`, `{"buying_mode":"x"}`,
		`{"buying_mode":"brief","buying_mode":"brief"}`, `{"buying_mode":"brief","\u005f_proto__":1}`, `{}`, `[]`, ``, `{`,
		`{"buying_mode":"refine","filters":{"max_cpm":1e400}}`, `{"buying_mode":"brief","adcp_major_version":3}`,
		`{"buying_mode":"brief","adcp_major_version":3.0}`, `{"buying_mode":"brief","brief":"\ud800"}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		reached = nil
		a := srv.Serve(context.Background(), "get_products", &seller.Call{Arguments: json.RawMessage(args)})
		if a == nil {
			t.Fatal("no answer")
		}
		if a.Error != nil {
			if _, err := a.Error.WireJSON(); err != nil {
				t.Fatalf("error not sendable: %v", err)
			}
			if reached != nil && a.Error.Code != "SERVICE_UNAVAILABLE" {
				t.Fatalf("handler ran, then %s", a.Error.Code)
			}
		} else if err := wire.Valid(a.Body); err != nil {
			t.Fatalf("body not strict JSON: %v", err)
		}
		if reached == nil {
			return
		}
		if len(args) == 0 {
			args = []byte("{}")
		}
		if err := wire.Valid(args); err != nil {
			t.Fatalf("handler reached with malformed arguments: %v", err)
		}
		if issues, err := v.Validate("media-buy/get-products-request.json", args); err != nil || len(issues) > 0 {
			t.Fatalf("handler reached with invalid arguments: %v %v", issues, err)
		}
		var req adcpt.GetProductsRequest
		if err := wire.Unmarshal(args, &req); err != nil {
			t.Fatalf("handler reached with arguments the decoder refuses: %v", err)
		}
	})
}
