package billing_test

import (
	"encoding/json"
	"testing"

	"github.com/adcpgen/adcpgen/internal/specseller"
	"github.com/adcpgen/adcpgen/runtime/billing"
	"github.com/adcpgen/adcpgen/runtime/registry"
	"github.com/adcpgen/adcpgen/runtime/validate"
)

// On every published version: a supported or absent party passes; another
// is refused with the release's code (BILLING_NOT_SUPPORTED from 3.1, with
// details valid against its error-details schema and naming the scope only
// to an identified caller; UNSUPPORTED_FEATURE before) and the recovery the
// release gives that code.
func TestCheckPerVersion(t *testing.T) {
	want := map[string]string{
		"3.0.26":       billing.CodeUnsupportedFeature,
		"3.1.19":       billing.CodeNotSupported,
		"3.2.0-beta.5": billing.CodeNotSupported,
	}
	gate := billing.Offer{Supported: []string{"operator"}}
	for _, v := range specseller.Versions {
		t.Run(v.Version, func(t *testing.T) {
			tree, sp := specseller.Open(t, v.Version)
			for _, party := range []string{"", "operator"} {
				if e := gate.Check(sp, party, "accounts[0].billing", true); e != nil {
					t.Errorf("party %q refused: %v", party, e)
				}
			}
			val, err := validate.New(tree, validate.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, identified := range []bool{true, false} {
				e := gate.Check(sp, "agent", "accounts[2].billing", identified)
				if e == nil || e.Code != want[v.Version] || e.Field != "accounts[2].billing" ||
					e.Message != "This seller offers operator billing only, not agent" {
					t.Fatalf("identified %v: %+v", identified, e)
				}
				if r, _ := sp.Recovery(e.Code); e.Recovery != r || r == "" {
					t.Errorf("recovery %q, the release's %q", e.Recovery, r)
				}
				if e.Code != billing.CodeNotSupported {
					if e.Details != nil {
						t.Errorf("details on %s: %+v", e.Code, e.Details)
					}
					continue
				}
				raw, err := json.Marshal(e.Details)
				if err != nil {
					t.Fatal(err)
				}
				wantDetails := `{"supported_billing":["operator"]}`
				if identified {
					wantDetails = `{"scope":"capability","supported_billing":["operator"]}`
				}
				if string(raw) != wantDetails {
					t.Errorf("identified %v: details %s, want %s", identified, raw, wantDetails)
				}
				issues, err := val.Validate("error-details/billing-not-supported.json", raw)
				if err != nil || len(issues) > 0 {
					t.Errorf("details %s: %v %v", raw, err, issues)
				}
			}
		})
	}
}

func TestMessage(t *testing.T) {
	sp := registry.NewSpec(registry.SpecConfig{})
	for _, tc := range []struct {
		supported []string
		want      string
	}{
		{nil, "This seller sets no billing party by request, not agent"},
		{[]string{"operator"}, "This seller offers operator billing only, not agent"},
		{[]string{"operator", "advertiser"}, "This seller offers operator or advertiser billing, not agent"},
		{[]string{"operator", "advertiser", "brand"}, "This seller offers operator, advertiser or brand billing, not agent"},
	} {
		if e := (billing.Offer{Supported: tc.supported}).Check(sp, "agent", "billing", false); e == nil || e.Message != tc.want {
			t.Errorf("%v: %+v, want %q", tc.supported, e, tc.want)
		}
	}
}
