package goldentest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/adcpgen/adcpgen/generator/testdata/golden/nullable"
	"github.com/adcpgen/adcpgen/runtime/wire"
)

// metricsNulls puts null at every location of core/metrics.json that admits it.
const metricsNulls = `"quartiles":null,"ratio":null,"samples":["a",null],"windows":[null,{"start":"s"}],` +
	`"by_region":{"eu":null,"us":3},"pacing":null,"window":null,"viewability":{"rate":1,"next":null},` +
	`"viewability_alt":null,"peer_quartiles":null`

// TestNullEverywhere decodes null at each nullable location, in the
// document that declares it and in every copy merged through allOf (at the
// root, in a property, in array items), and keeps it on re-encoding.
func TestNullEverywhere(t *testing.T) {
	in := `{` + metricsNulls + `,"totals":{"spend":1,` + metricsNulls + `},"by_package":[{"package_id":"p",` + metricsNulls + `}]}`
	d, out := roundTrip[nullable.Delivery](t, in)
	if !d.Quartiles.IsNull() || !d.Totals.Quartiles.IsNull() || !d.ByPackage[0].Quartiles.IsNull() {
		t.Fatal("quartiles: null must stay null in every merged copy")
	}
	if !d.Windows[0].IsNull() || !d.Totals.Windows[0].IsNull() || !d.ByRegion["eu"].IsNull() || !d.Samples[1].IsNull() {
		t.Fatal("null items and map values must stay null")
	}
	if v, ok := d.Viewability.Get(); !ok || v.Next == nil || !v.Next.IsNull() {
		t.Fatal("a recursive field whose type admits null must keep null")
	}
	if strings.Count(out, `"quartiles":null`) != 3 || strings.Count(out, `"peer_quartiles":null`) != 3 {
		t.Fatalf("re-encoded %s lost a null", out)
	}
	if _, out := roundTrip[nullable.Metrics](t, `{`+metricsNulls+`}`); !strings.Contains(out, `"pacing":null`) {
		t.Fatalf("re-encoded %s lost a null", out)
	}
}

// TestNullableMergedStillChecked: admitting null changes nothing for a
// value; the merged copy under by_package still requires q1.
func TestNullableMergedStillChecked(t *testing.T) {
	var d nullable.Delivery
	rejects(t, json.Unmarshal([]byte(`{"by_package":[{"package_id":"p","quartiles":{}}]}`), &d),
		wire.KindMissing, "/by_package/0/quartiles", "q1")
	rejects(t, json.Unmarshal([]byte(`{"totals":{"quartiles":{"q2":1}}}`), &d),
		wire.KindUnknownField, "/totals/quartiles/q2", "q2")
	rejects(t, json.Unmarshal([]byte(`{"pacing":"slow","impressions":null}`), &d), wire.KindType, "/impressions", "want number, got null")
}
