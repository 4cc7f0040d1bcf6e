package runtime_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/adcpgen/adcpgen/runtime"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// productsResponse stands in for a generated response type: a strict
// decoder built on runtime/wire, as adcpgen generates them.
type productsResponse struct {
	Status   string
	Products int // how many products were listed
}

func (r *productsResponse) UnmarshalJSON(b []byte) error { return wire.Unmarshal(b, r) }

func (r *productsResponse) DecodeWire(d *wire.Decoder) error {
	if err := d.ObjectStart(); err != nil {
		return err
	}
	seen := map[string]bool{}
	for {
		key, ok, err := d.NextKey()
		if err != nil || !ok {
			return err
		}
		if seen[string(key)] {
			return d.Duplicate(key)
		}
		seen[string(key)] = true
		switch string(key) {
		case "status":
			r.Status, err = d.String()
		case "products":
			if err = d.ArrayStart(); err == nil {
				for {
					more, e := d.NextElem()
					if e != nil || !more {
						err = e
						break
					}
					r.Products++
					if err = d.Skip(); err != nil {
						break
					}
				}
			}
		default:
			err = d.Skip()
		}
		if err != nil {
			return err
		}
	}
}

// rateLimitedDetails stands in for a generated details type.
type rateLimitedDetails struct{ Limit float64 }

func (d *rateLimitedDetails) UnmarshalJSON(b []byte) error {
	var raw struct {
		Limit *float64 `json:"limit"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if raw.Limit == nil {
		return errors.New("limit is required")
	}
	d.Limit = *raw.Limit
	return nil
}

func TestDecodeRejectsWhatExtractionKeeps(t *testing.T) {
	env := []byte(`{"content":[{"type":"text","text":"OK"}],"structuredContent":{"status":"completed","products":[],"__proto__":{"isAdmin":true}}}`)
	r := runtime.ExtractMCP(env)
	if string(r.Data) != `{"status":"completed","products":[],"__proto__":{"isAdmin":true}}` {
		t.Fatalf("extraction changed the data: %s", r.Data)
	}
	_, err := runtime.DecodeMCP[productsResponse](env)
	var we *wire.Error
	if !errors.As(err, &we) || we.Kind != wire.KindForbiddenKey {
		t.Fatalf("DecodeMCP = %v, want a forbidden-key error", err)
	}
	_, err = runtime.DecodeMCP[productsResponse]([]byte(`{"structuredContent":{"status":"a","status":"b"}}`))
	if !errors.As(err, &we) || we.Kind != wire.KindDuplicate {
		t.Fatalf("duplicates: %v", err)
	}
}

func TestDecodeHelpers(t *testing.T) {
	v, err := runtime.DecodeMCP[productsResponse]([]byte(`{"structuredContent":{"status":"completed","products":[{"id":1},{"id":2}]}}`))
	if err != nil || v.Status != "completed" || v.Products != 2 {
		t.Fatalf("DecodeMCP = %+v, %v", v, err)
	}
	v, err = runtime.DecodeJSONRPC[productsResponse]([]byte(`{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{\"status\":\"working\"}"}]}}`))
	if err != nil || v.Status != "working" {
		t.Fatalf("DecodeJSONRPC = %+v, %v", v, err)
	}
	v, err = runtime.DecodeA2A[productsResponse]([]byte(`{"task":{"status":{"state":"TASK_STATE_COMPLETED"},"artifacts":[{"parts":[{"data":{"status":"completed"}}]}]}}`))
	if err != nil || v.Status != "completed" {
		t.Fatalf("DecodeA2A = %+v, %v", v, err)
	}
	v, err = runtime.DecodeWebhook[productsResponse]([]byte(`{"task_id":"t","status":"completed","result":{"status":"completed"}}`))
	if err != nil || v.Status != "completed" {
		t.Fatalf("DecodeWebhook = %+v, %v", v, err)
	}
	// Failures come back as the AdCP error or a sentinel.
	_, err = runtime.DecodeMCP[productsResponse]([]byte(`{"isError":true,"structuredContent":{"adcp_error":{"code":"RATE_LIMITED","retry_after":3}}}`))
	var ae *runtime.Error
	if !errors.As(err, &ae) || ae.Code != "RATE_LIMITED" || ae.RetryAfter.Seconds() != 3 {
		t.Fatalf("error: %v", err)
	}
	if _, err := runtime.DecodeA2A[productsResponse]([]byte(`{"status":{"state":"working"}}`)); !errors.Is(err, runtime.ErrNoData) {
		t.Errorf("no data: %v", err)
	}
	if _, err := runtime.Decode[productsResponse](nil); !errors.Is(err, runtime.ErrNoData) {
		t.Errorf("nil data: %v", err)
	}
	if _, err := runtime.Decode[productsResponse](json.RawMessage(`[]`)); err == nil {
		t.Error("array decoded")
	}
}

// detailsIface mimics a generated package's details interface.
type detailsIface interface {
	json.Unmarshaler
	isDetails()
}

func (*rateLimitedDetails) isDetails() {}

func TestDetailsFrom(t *testing.T) {
	f := runtime.DetailsFrom(func(code string) detailsIface {
		switch code {
		case "RATE_LIMITED":
			return new(rateLimitedDetails)
		case "TYPED_NIL":
			var d *rateLimitedDetails
			return d
		}
		return nil
	})
	if _, ok := f("RATE_LIMITED").(*rateLimitedDetails); !ok {
		t.Error("known code not typed")
	}
	if f("OTHER") != nil || f("TYPED_NIL") != nil {
		t.Error("nil details not reported as nil")
	}
	old := runtime.DefaultDetails
	defer func() { runtime.DefaultDetails = old }()
	runtime.DefaultDetails = f
	r := runtime.ExtractMCP([]byte(`{"isError":true,"structuredContent":{"adcp_error":{"code":"TYPED_NIL","details":{}}}}`))
	if _, ok := r.Error.Details.(json.RawMessage); !ok {
		t.Errorf("details = %#v", r.Error.Details)
	}
	r = runtime.ExtractMCP([]byte(`{"isError":true,"structuredContent":{"adcp_error":{"code":"RATE_LIMITED","details":{"limit":5}}}}`))
	if d, ok := r.Error.Details.(*rateLimitedDetails); !ok || d.Limit != 5 {
		t.Errorf("default factory not used: %#v", r.Error.Details)
	}
}

func TestTypedDetails(t *testing.T) {
	factory := func(code string) json.Unmarshaler {
		if code == "RATE_LIMITED" {
			return new(rateLimitedDetails)
		}
		return nil
	}
	x := runtime.Extractor{Details: factory}
	r := x.MCP([]byte(`{"isError":true,"structuredContent":{"adcp_error":{"code":"RATE_LIMITED","details":{"limit":100,"scope":"account"}}}}`))
	if d, ok := r.Error.Details.(*rateLimitedDetails); !ok || d.Limit != 100 || r.Error.DetailsErr != nil {
		t.Fatalf("typed details: %#v %v", r.Error.Details, r.Error.DetailsErr)
	}
	// A typed decoder that rejects leaves the raw details and says why.
	r = x.MCP([]byte(`{"isError":true,"structuredContent":{"adcp_error":{"code":"RATE_LIMITED","details":{"scope":"account"}}}}`))
	if raw, ok := r.Error.Details.(json.RawMessage); !ok || string(raw) != `{"scope":"account"}` || r.Error.DetailsErr == nil {
		t.Fatalf("rejected details: %#v %v", r.Error.Details, r.Error.DetailsErr)
	}
	// Codes without a typed decoder keep raw details.
	r = x.MCP([]byte(`{"isError":true,"structuredContent":{"adcp_error":{"code":"X_A1_B2","details":{"k":1}}}}`))
	if raw, ok := r.Error.Details.(json.RawMessage); !ok || string(raw) != `{"k":1}` {
		t.Fatalf("raw details: %#v", r.Error.Details)
	}
	// Issues are read leniently.
	r = x.MCP([]byte(`{"isError":true,"structuredContent":{"adcp_error":{"code":"VALIDATION_ERROR","issues":[{"pointer":"/a","message":"m","keyword":"type","schema_id":"s"},7]}}}`))
	if len(r.Error.Issues) != 1 || r.Error.Issues[0] != (runtime.Issue{Pointer: "/a", Message: "m", Keyword: "type", SchemaID: "s"}) {
		t.Fatalf("issues: %+v", r.Error.Issues)
	}
}
