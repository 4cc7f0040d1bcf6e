package roundtrip

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/adcpgen/adcpgen/internal/testspec"
	"github.com/adcpgen/adcpgen/runtime/spec"
	"github.com/adcpgen/adcpgen/runtime/validate"
)

// 3.1's create_media_buy success has one top-level status that is both
// the protocol envelope's (a TaskStatus, which the response includes
// through allOf) and the payload's deprecated MediaBuyStatus: a value is
// valid only when both admit it (completed, canceled, rejected; the
// framework sends completed). The exact decoder and the validator agree on
// every value, task statuses and media buy statuses alike; the strict
// decoder, whose enums are open, accepts what the schema's types admit.
func TestEnvelopeStatusCollision(t *testing.T) {
	const version = "3.1.19"
	h, _ := harness(t)
	tree, err := spec.Open(filepath.Join(testspec.Dir(t), "schemas", version))
	if err != nil {
		t.Fatal(err)
	}
	val, err := validate.New(tree, validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const ref = "media-buy/create-media-buy-response.json#"
	success := func(status string) []byte {
		return []byte(`{"status":"` + status + `","media_buy_id":"mb_1","media_buy_status":"pending_creatives","confirmed_at":null,"revision":1,"packages":[]}`)
	}
	var cases []Case
	for _, status := range []string{"completed", "canceled", "rejected", "submitted", "working", "failed", "input-required", "active", "pending_creatives", "paused"} {
		cases = append(cases, Case{ID: status, Version: version, Ref: ref, Op: OpDecode, Data: success(status)})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	results, err := h.Run(ctx, cases)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		issues, err := val.Validate("media-buy/create-media-buy-response.json", c.Data)
		if err != nil {
			t.Fatal(err)
		}
		r := results[c.ID]
		if r == nil || r.NoType {
			t.Fatalf("%s: no result", c.ID)
		}
		valid, exact := len(issues) == 0, r.Err == nil && r.Exact == nil
		if valid != exact {
			t.Errorf("status %q: validator says valid=%v (%v), exact decoder %v/%v", c.ID, valid, issues, r.Err, r.Exact)
		}
		if wantValid := c.ID == "completed" || c.ID == "canceled" || c.ID == "rejected"; valid != wantValid {
			t.Errorf("status %q: valid=%v, want %v (%v)", c.ID, valid, wantValid, issues)
		}
	}
}
